// Package redisstore keeps the idempotency runtime's keys in Redis:
// RedisStore is an idempotency.Store on go-redis, whose keys expire in
// Redis itself.
//
// It is a module of its own, so that services that do not use Redis do not
// require go-redis: idempotency.NewRedisStore is now
// redisstore.NewRedisStore, idempotency.WithRedisPrefix
// redisstore.WithRedisPrefix (docs/runtime-modules.md lists the moves).
package redisstore
