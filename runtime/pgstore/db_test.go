package pgstore

import (
	"database/sql"
	"testing"

	"github.com/idemlint/idemlint/runtime/internal/pgtest"
)

// The package's tests use runtime/internal/pgtest's PostgreSQL (a missing
// database fails them, never skips) under these short names.

func testDSN() string { return pgtest.DSN() }

func withSearchPath(t testing.TB, dsn, schema string) string {
	return pgtest.WithSearchPath(t, dsn, schema)
}

// schemaDB returns a handle on a fresh schema, dropped when the test ends.
func schemaDB(t testing.TB) *sql.DB {
	t.Helper()
	db, _ := pgtest.SchemaDB(t)
	db.SetMaxIdleConns(16)
	return db
}
