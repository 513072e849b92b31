// Package pgtest gives tests a PostgreSQL schema of their own: $DATABASE_URL, or the local test database.
// A missing database fails the test; it never skips.
package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the pgx driver, as "pgx"
)

// DSN is the PostgreSQL the tests use: $DATABASE_URL or the local test database.
func DSN() string {
	if d := os.Getenv("DATABASE_URL"); d != "" {
		return d
	}
	return "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
}

// WithSearchPath returns dsn with its search_path set to schema.
func WithSearchPath(t testing.TB, dsn, schema string) string {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			t.Fatalf("parse DATABASE_URL: %v", err)
		}
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		return u.String()
	}
	return dsn + " search_path=" + schema
}

// SchemaDB returns a database handle whose tables live in a fresh schema, dropped when the test ends, and the
// DSN of that schema (for child processes).
func SchemaDB(t testing.TB) (*sql.DB, string) {
	t.Helper()
	admin, err := sql.Open("pgx", DSN())
	if err != nil {
		t.Fatalf("open PostgreSQL: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := admin.PingContext(ctx); err != nil {
		admin.Close()
		t.Fatalf("PostgreSQL is required for these tests (set DATABASE_URL or start 127.0.0.1:5432): %v", err)
	}
	var b [6]byte
	rand.Read(b[:])
	schema := "idemtest_" + hex.EncodeToString(b[:])
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		admin.Close()
		t.Fatalf("create schema: %v", err)
	}
	dsn := WithSearchPath(t, DSN(), schema)
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatalf("open PostgreSQL: %v", err)
	}
	db.SetMaxOpenConns(16)
	t.Cleanup(func() {
		db.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := admin.ExecContext(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
		admin.Close()
	})
	return db, dsn
}

// ChildDB is for the test that a parent test runs as a child process with env set to a DSN (SchemaDB's):
// there it opens that DSN and returns true; in any other run env is unset and it returns nil, false.
func ChildDB(t testing.TB, env string) (*sql.DB, bool) {
	t.Helper()
	dsn := os.Getenv(env)
	if dsn == "" {
		return nil, false
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	return db, true
}
