// Package pgxpool is a test stub of github.com/jackc/pgx/v5@v5.12.0 (pgxpool): signatures only (subset).
package pgxpool

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Pool allows for connection reuse.
type Pool struct{}

// New creates a new Pool.
func New(ctx context.Context, connString string) (*Pool, error) { panic("stub") }

// Begin acquires a connection from the Pool and starts a transaction.
func (p *Pool) Begin(ctx context.Context) (pgx.Tx, error) { panic("stub") }

// Exec acquires a connection from the Pool and executes the given SQL.
func (p *Pool) Exec(ctx context.Context, sql string, arguments ...any) (pgconn.CommandTag, error) {
	panic("stub")
}

// QueryRow acquires a connection and executes a query that is expected to return at most one row.
func (p *Pool) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row { panic("stub") }

// Close closes all connections in the pool and rejects future Acquire calls.
func (p *Pool) Close() {}
