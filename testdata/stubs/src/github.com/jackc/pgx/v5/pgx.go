// Package pgx is a test stub of github.com/jackc/pgx/v5@v5.12.0: signatures only.
// Only a subset of Tx is declared (enough to name pgx.Tx as river's TTx, and
// to run statements in a transaction).
package pgx

import (
	"context"
	"database/sql"
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
)

// ErrNoRows occurs when rows are expected but none are returned.
var ErrNoRows = errors.Join(sql.ErrNoRows) // the real value wraps sql.ErrNoRows too

// Row is one row of a QueryRow.
type Row interface {
	// Scan reads the values from the row into dest values positionally.
	Scan(dest ...any) error
}

// Tx represents a database transaction (method subset).
type Tx interface {
	// Begin starts a pseudo nested transaction.
	Begin(ctx context.Context) (Tx, error)

	// Commit commits the transaction if this is a real transaction or releases the savepoint if this is a pseudo nested transaction.
	Commit(ctx context.Context) error

	// Rollback rolls back the transaction if this is a real transaction or rolls back to the savepoint if this is a pseudo nested transaction.
	Rollback(ctx context.Context) error

	// Exec executes sql.
	Exec(ctx context.Context, sql string, arguments ...any) (commandTag pgconn.CommandTag, err error)

	// QueryRow executes sql and returns at most one row.
	QueryRow(ctx context.Context, sql string, args ...any) Row
}
