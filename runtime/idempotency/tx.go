package idempotency

import (
	"context"
	"database/sql"
)

type txKey struct{}

// Tx returns the transaction of the current unit of work, else nil: the
// attempt's under Middleware with a store whose Work carries one (the
// PostgreSQL store of github.com/idemlint/idemlint/runtime/pgstore), the
// message's under a PostgreSQL Inbox's Consume, or one attached with
// ContextWithTx. Do the handler's business writes in it: they commit
// together with the stored response, or not at all. Do not commit or roll
// it back.
func Tx(ctx context.Context) *sql.Tx {
	tx, _ := ctx.Value(txKey{}).(*sql.Tx)
	return tx
}

// ContextWithTx returns ctx carrying tx, where Tx, Outbox.Add and the
// Middleware's handlers find it. Stores and inbox backends attach their
// transaction with it; use it to add outbox entries in a transaction of your
// own, outside Middleware and Inbox.Consume.
func ContextWithTx(ctx context.Context, tx *sql.Tx) context.Context {
	return context.WithValue(ctx, txKey{}, tx)
}
