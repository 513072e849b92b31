// Package pgconn is a test stub of github.com/jackc/pgx/v5@v5.12.0 (pgconn): signatures only (subset).
package pgconn

// CommandTag is the status text returned by PostgreSQL for a query.
type CommandTag struct{}

// RowsAffected returns the number of rows affected.
func (ct CommandTag) RowsAffected() int64 { panic("stub") }
