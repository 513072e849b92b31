// Package idempotency makes HTTP handlers safe to retry: an
// Idempotency-Key request header (draft-ietf-httpapi-idempotency-key-header)
// names one logical operation, and every retry of it with the same key gets
// the first attempt's answer instead of doing the work again.
//
// Middleware claims the key in a Store before the handler runs, with a
// lease and a fence token, and stores the final response when the handler
// succeeds. A duplicate gets the stored response (Idempotent-Replayed:
// true), 409 while the first attempt runs, 422 when the key was used for
// another request. A 5xx, a panic or a failed transaction stores nothing
// and releases the key, so the retry starts clean.
//
// This package needs the standard library only. It provides MemoryStore,
// bounded and sharded, for a single process. The stores that link a
// database client are modules of their own:
// github.com/idemlint/idemlint/runtime/pgstore (PostgresStore, which hands
// the handler the attempt's transaction, Tx, so that the business writes
// and the stored response commit together, and rejects a stale owner's
// completion by its fence; the PostgreSQL Inbox and Outbox) and
// github.com/idemlint/idemlint/runtime/redisstore (RedisStore). Any other
// Store, InboxBackend or OutboxBackend plugs in the same way; the
// conformance suite they run is the storetest package.
// Work that cannot be rolled back, such as calls to other services, goes in
// steps (Step, StepValue): a retry resumes after the steps already done, and
// sends downstream the key StepKey derives for each step.
//
// Side effects that must happen once per operation, such as an email,
// go in an Outbox (NewMemoryOutbox, pgstore.NewPostgresOutbox): recorded in the
// attempt's unit of work, deduplicated on the idempotency key, relayed at
// least once; an Inbox runs a message handler at most once per message id.
// See docs/runtime-outbox-inbox.md; cmd/idemdemo sends its payment receipts
// this way.
//
// Clients make one key per logical operation with NewKey (or
// runtime/retry.NewTransport does it) and reuse it on every retry.
//
// The package guide, with the behaviour table, the table's DDL and the
// expiry rules, is docs/runtime-idempotency.md.
package idempotency
