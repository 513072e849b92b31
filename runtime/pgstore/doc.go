// Package pgstore keeps the idempotency runtime's state in PostgreSQL:
// PostgresStore, an idempotency.Store whose attempts run in a transaction
// that the handler writes in (idempotency.Tx), so that the business writes
// and the stored response commit together; NewPostgresInbox and
// NewPostgresOutbox, an idempotency.Inbox and Outbox in tables of the same
// database. It uses database/sql with the pgx driver (import _
// "github.com/jackc/pgx/v5/stdlib"), whose connections it pipelines.
//
// It is a module of its own, so that services that do not use PostgreSQL
// do not require pgx. Its identifiers were those of package idempotency:
// idempotency.NewPostgresStore is now pgstore.NewPostgresStore,
// idempotency.WithTable pgstore.WithTable, and so on
// (docs/runtime-modules.md lists them).
package pgstore
