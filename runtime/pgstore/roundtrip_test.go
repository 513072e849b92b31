package pgstore

import (
	"context"
	"database/sql"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

// roundTrips counts the round trips on the connections it dials: a write
// after a read (or a connection's first write) starts one, so a pipeline
// of statements flushed at once counts one.
type roundTrips struct{ n atomic.Int64 }

func (c *roundTrips) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	nc, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &countedConn{Conn: nc, c: c}, nil
}

type countedConn struct {
	net.Conn
	c       *roundTrips
	writing atomic.Bool
}

func (cc *countedConn) Write(p []byte) (int, error) {
	if !cc.writing.Swap(true) {
		cc.c.n.Add(1)
	}
	return cc.Conn.Write(p)
}

func (cc *countedConn) Read(p []byte) (int, error) {
	cc.writing.Store(false)
	return cc.Conn.Read(p)
}

// countedDB is a handle on a fresh schema whose connections count their
// round trips, with at most conns connections (one keeps prepared
// statements warm after the first use).
func countedDB(t testing.TB, conns int) (*sql.DB, *roundTrips) {
	t.Helper()
	setup := schemaDB(t) // creates the schema; the counting handle reuses it
	var schema string
	if err := setup.QueryRow(`SELECT current_schema()`).Scan(&schema); err != nil {
		t.Fatal(err)
	}
	cfg, err := pgx.ParseConfig(withSearchPath(t, testDSN(), schema))
	if err != nil {
		t.Fatal(err)
	}
	rt := &roundTrips{}
	cfg.DialFunc = rt.dial
	db := stdlib.OpenDB(*cfg)
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(conns)
	db.SetMaxIdleConns(conns)
	return db, rt
}

// A keyed request on PostgreSQL costs one round trip more than its
// handler's statements: the claim goes with the BEGIN, the completion with
// the COMMIT. A replay costs two (the claim with its BEGIN, the ROLLBACK),
// and an Inbox message two plus its handler's statements.
func TestPostgresRoundTrips(t *testing.T) {
	ctx := context.Background()
	db, rt := countedDB(t, 1)
	s, err := NewPostgresStore(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE payments (id bigserial PRIMARY KEY, amount bigint NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	h := idempotency.Middleware(s)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := idempotency.Tx(r.Context()).ExecContext(r.Context(), `INSERT INTO payments (amount) VALUES (1)`); err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		w.WriteHeader(http.StatusCreated)
	}))
	serve := func(key string) (int, int64) {
		r := httptest.NewRequest("POST", "/payments", strings.NewReader(`{"amount":1}`))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Idempotency-Key", key)
		w := httptest.NewRecorder()
		before := rt.n.Load()
		h.ServeHTTP(w, r)
		return w.Code, rt.n.Load() - before
	}
	if code, _ := serve(idempotency.NewKey()); code != http.StatusCreated { // prepares the statements
		t.Fatalf("status %d", code)
	}
	key := idempotency.NewKey()
	if code, n := serve(key); code != http.StatusCreated || n != 3 {
		t.Fatalf("fresh key: status %d, %d round trips; want 201 in 3 (claim+BEGIN, INSERT, completion+COMMIT)", code, n)
	}
	if code, n := serve(key); code != http.StatusCreated || n != 2 {
		t.Fatalf("replay: status %d, %d round trips; want 201 in 2 (claim+BEGIN, ROLLBACK)", code, n)
	}

	in, err := NewPostgresInbox(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	nop := func(context.Context) error { return nil }
	if ran, err := in.Consume(ctx, idempotency.NewKey(), nop); !ran || err != nil { // prepares the insert
		t.Fatal(ran, err)
	}
	id := idempotency.NewKey()
	before := rt.n.Load()
	if ran, err := in.Consume(ctx, id, nop); !ran || err != nil {
		t.Fatal(ran, err)
	}
	if n := rt.n.Load() - before; n != 2 {
		t.Fatalf("inbox: %d round trips; want 2 (BEGIN+insert, COMMIT)", n)
	}
	before = rt.n.Load()
	if ran, err := in.Consume(ctx, id, nop); ran || err != nil {
		t.Fatal(ran, err)
	}
	if n := rt.n.Load() - before; n != 2 {
		t.Fatalf("inbox redelivery: %d round trips; want 2 (BEGIN+insert, ROLLBACK)", n)
	}
}
