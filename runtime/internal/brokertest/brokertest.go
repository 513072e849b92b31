// Package brokertest holds what the inbox adapters' tests against real
// brokers share: the broker requirement (fail under the CI variable, skip
// otherwise) and consumer child processes (childtest's) to kill
// mid-message; their PostgreSQL
// schema is runtime/internal/pgtest's.
package brokertest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/internal/childtest"
	"github.com/idemlint/idemlint/runtime/internal/pgtest"
	"github.com/idemlint/idemlint/runtime/pgstore"
)

// Require fails t (under env=1, as CI sets it) or skips it when nothing
// listens on addr.
func Require(t testing.TB, env, addr string) {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err == nil {
		c.Close()
		return
	}
	if os.Getenv(env) == "1" {
		t.Fatalf("%s=1 and no broker on %s: %v", env, addr, err)
	}
	t.Skipf("no broker on %s (%v); set %s=1 to fail instead", addr, err, env)
}

// Name returns prefix and a random suffix, for queues, streams and schemas
// no other test run uses.
func Name(prefix string) string {
	var b [6]byte
	rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

// Open opens the database of a DSN pgtest.SchemaDB returned, in a child
// process.
func Open(dsn string) (*sql.DB, error) { return sql.Open("pgx", dsn) }

// Effects creates the effects table of the consumers under test (an insert
// with no natural key: only the inbox keeps it from repeating) and returns
// its row count.
func Effects(t testing.TB, db *sql.DB) func() int {
	t.Helper()
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, `CREATE TABLE effects (id bigserial PRIMARY KEY, body text NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	return func() int {
		t.Helper()
		var n int
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM effects`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
}

// Inbox is the setup of a test that kills consumers: it requires the broker (Require with env and
// addr), and returns an inbox in a fresh PostgreSQL schema (pgtest.SchemaDB), the DSN of that schema
// for the consumer children, and the row count of its effects table (Effects).
func Inbox(t testing.TB, env, addr string) (in *idempotency.Inbox, dsn string, effects func() int) {
	t.Helper()
	Require(t, env, addr)
	db, dsn := pgtest.SchemaDB(t)
	effects = Effects(t, db)
	in, err := pgstore.NewPostgresInbox(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	return in, dsn, effects
}

// KillTwice runs the consumer child test twice with childEnv set to its
// mode: "work", killed in the handler before the inbox commits (no effect
// may remain), then "commit", killed after the commit and before the ack
// (one effect). The message is then still unacked, for a third delivery.
func KillTwice(t testing.TB, test, childEnv string, env []string, effects func() int) {
	t.Helper()
	c := childtest.Start(t, test, append(env, childEnv+"=work")...)
	c.Await("WORKING", 30*time.Second)
	c.Kill()
	if n := effects(); n != 0 {
		t.Fatalf("%d effects after a kill before the commit, want 0", n)
	}
	c = childtest.Start(t, test, append(env, childEnv+"=commit")...)
	c.Await("COMMITTED", 30*time.Second)
	c.Kill()
	if n := effects(); n != 1 {
		t.Fatalf("%d effects after the commit, want 1", n)
	}
}

// An Adapter is what the tests use of an inbox adapter (inboxamqp,
// inboxnats) for messages of type M.
type Adapter[M any] struct {
	Handle    func(ctx context.Context, in *idempotency.Inbox, consumer string, m M, handle func(ctx context.Context, m M) error) error
	MessageID func(consumer string, m M) (string, error)
	// Body is the message's payload, which Effect records.
	Body func(m M) []byte
}

// Effect is the side effect of the consumers under test: it inserts m's
// body into the effects table (see Effects) in the inbox's transaction,
// with no natural key, so that only the inbox keeps it from repeating.
func (a Adapter[M]) Effect(ctx context.Context, m M) error {
	_, err := idempotency.Tx(ctx).ExecContext(ctx, `INSERT INTO effects (body) VALUES ($1)`, string(a.Body(m)))
	return err
}

// Replayed hands a.Handle m, the third delivery of the message KillTwice's children consumed: the
// inbox has its id, so the handler (a.Effect) must not run and the one effect must stay alone.
func Replayed[M any](t testing.TB, a Adapter[M], in *idempotency.Inbox, consumer string, m M, effects func() int) {
	t.Helper()
	ran := 0
	if err := a.Handle(context.Background(), in, consumer, m, func(ctx context.Context, m M) error {
		ran++
		return a.Effect(ctx, m)
	}); err != nil {
		t.Fatal(err)
	}
	if ran != 0 || effects() != 1 {
		t.Errorf("handler ran %d times on the redelivery, %d effects; want 0 runs and 1 effect", ran, effects())
	}
}

// ConsumerChild is the body of the consumer child test of KillTwice, in
// mode "work" or "commit", on the PostgreSQL inbox of dsn: it takes one
// message with receive and hangs, until it is killed, in the handler before
// the inbox commits ("work", after printing WORKING), or after the commit
// and before the ack ("commit", after printing COMMITTED). a.Effect is the
// handler's database write.
func ConsumerChild[M any](t testing.TB, mode, dsn string, a Adapter[M], consumer string, receive func() M) {
	t.Helper()
	ctx := context.Background()
	db, err := Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	in, err := pgstore.NewPostgresInbox(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	m := receive()
	switch mode {
	case "work":
		a.Handle(ctx, in, consumer, m, func(ctx context.Context, m M) error {
			if err := a.Effect(ctx, m); err != nil {
				return err
			}
			fmt.Println("WORKING")
			time.Sleep(time.Hour) // killed here: the effect is written, not committed
			return nil
		})
	case "commit":
		// Handle's steps up to its ack: the inbox commits, then the
		// process dies before it acks.
		id, err := a.MessageID(consumer, m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := in.Consume(ctx, id, func(ctx context.Context) error { return a.Effect(ctx, m) }); err != nil {
			t.Fatal(err)
		}
		fmt.Println("COMMITTED")
		time.Sleep(time.Hour) // killed here: committed, not acked
	}
	t.Fatal("the consumer child was not killed")
}
