// Package pgx is a test stub of github.com/jackc/pgx/v5@v5.12.0: signatures only.
// Only a subset of Tx is declared (enough to name pgx.Tx as river's TTx).
package pgx

import "context"

// Tx represents a database transaction (method subset).
type Tx interface {
	// Begin starts a pseudo nested transaction.
	Begin(ctx context.Context) (Tx, error)

	// Commit commits the transaction if this is a real transaction or releases the savepoint if this is a pseudo nested transaction.
	Commit(ctx context.Context) error

	// Rollback rolls back the transaction if this is a real transaction or rolls back to the savepoint if this is a pseudo nested transaction.
	Rollback(ctx context.Context) error
}
