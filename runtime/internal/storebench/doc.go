// Package storebench compares the idempotency stores of the runtime's
// modules (memory, PostgreSQL, Redis) under idempotency.Middleware. It is a
// module of its own, of benchmarks only, so that no store's module requires
// another's client.
package storebench
