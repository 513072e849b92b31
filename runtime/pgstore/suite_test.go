package pgstore

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/idempotency/storetest"
)

// The conformance suites of runtime/idempotency/storetest, on PostgreSQL.

func newPostgresBackend(t *testing.T) *storetest.Backend {
	db := schemaDB(t)
	s, err := NewPostgresStore(context.Background(), db)
	if err != nil {
		t.Fatalf("NewPostgresStore: %v", err)
	}
	if _, err := db.Exec(`CREATE TABLE payments (id bigserial PRIMARY KEY, amount bigint NOT NULL)`); err != nil {
		t.Fatalf("create payments: %v", err)
	}
	return &storetest.Backend{Name: "postgres", Store: s, DB: db}
}

func TestMiddleware(t *testing.T) { storetest.Middleware(t, newPostgresBackend) }

func TestTakeover(t *testing.T) {
	storetest.Takeover(t, func(t *testing.T) (idempotency.Store, func(time.Duration)) {
		s, err := NewPostgresStore(context.Background(), schemaDB(t))
		if err != nil {
			t.Fatal(err)
		}
		return s, func(d time.Duration) { time.Sleep(d) }
	})
}

func TestInbox(t *testing.T) {
	storetest.Inbox(t, func(t *testing.T) (*idempotency.Inbox, *sql.DB) {
		db := schemaDB(t)
		in, err := NewPostgresInbox(context.Background(), db, WithTable("inbox_test_msgs"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`CREATE TABLE inbox_test_effects (message_id text, n int)`); err != nil {
			t.Fatal(err)
		}
		return in, db
	})
}

func TestOutbox(t *testing.T) {
	storetest.Outbox(t, func(t *testing.T) (*idempotency.Outbox, idempotency.Store, *sql.DB) {
		o, db := testOutbox(t)
		s, err := NewPostgresStore(context.Background(), db, WithTable("outbox_test_keys"))
		if err != nil {
			t.Fatal(err)
		}
		return o, s, db
	})
}
