package pgxpool

import (
	"context"

	"github.com/jackc/pgx/v5/pgconn"
)

// Exec acquires a connection from the Pool and executes the given SQL (jobretry test stub addition).
func (p *Pool) Exec(ctx context.Context, sql string, arguments ...any) (pgconn.CommandTag, error) {
	panic("stub")
}
