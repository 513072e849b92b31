package pgstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/idempotency/storetest"
	"github.com/idemlint/idemlint/runtime/internal/childtest"
	"github.com/idemlint/idemlint/runtime/internal/pgtest"
	"github.com/idemlint/idemlint/runtime/internal/reqtest"
)

// Keys expire after the TTL (24 h by default): the key is absent on read,
// may be reused for another request, and the reaper removes it.
func TestExpiry(t *testing.T) {
	ctx := context.Background()
	db := schemaDB(t)
	s, err := NewPostgresStore(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int64
	mk := storetest.CreatedWithTTL(s, &calls)
	reqtest.Do(t, mk(idempotency.DefaultTTL), "POST", "day", `{}`)
	var hours float64
	if err := db.QueryRow(`SELECT extract(epoch FROM expires_at - created_at) / 3600 FROM idempotency_keys`).Scan(&hours); err != nil || hours != 24 {
		t.Fatalf("default TTL = %v h, %v; want 24", hours, err)
	}
	h := mk(time.Second)
	for i := range 5 {
		reqtest.Do(t, h, "POST", "short"+string(rune('0'+i)), `{"a":1}`)
	}
	if a := reqtest.Do(t, h, "POST", "short0", `{"a":1}`); a.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("replay before expiry missing")
	}
	time.Sleep(1100 * time.Millisecond)
	if _, err := s.Lookup(ctx, "", "short1"); !errors.Is(err, idempotency.ErrNotFound) {
		t.Fatalf("Lookup after expiry: %v, want ErrNotFound", err)
	}
	if a := reqtest.Do(t, h, "POST", "short0", `{"a":2}`); a.Status != 201 || a.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("reuse after expiry: %d %q", a.Status, a.Header.Get("Idempotent-Replayed"))
	}
	time.Sleep(1100 * time.Millisecond)
	n, err := s.Reap(ctx, 2) // batches of 2: 5 expired rows take 3 statements
	if err != nil || n != 5 {
		t.Fatalf("Reap = %d, %v; want 5", n, err)
	}
	var left int
	db.QueryRow(`SELECT count(*) FROM idempotency_keys`).Scan(&left)
	if left != 1 {
		t.Fatalf("rows left = %d, want 1 (the 24 h key)", left)
	}
}

// RunReaper reaps expired keys in the background until its context ends.
func TestRunReaper(t *testing.T) {
	db := schemaDB(t)
	s, err := NewPostgresStore(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO idempotency_keys (tenant, idem_key, fp_version, fingerprint, state, fence, expires_at)
VALUES ('', 'old', 1, '\x00', 'completed', 1, now() - interval '1 second')`); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- s.RunReaper(ctx, 10*time.Millisecond, 10, func(err error) { t.Error(err) }) }()
	for deadline, left := time.Now().Add(5*time.Second), 1; left != 0; time.Sleep(10 * time.Millisecond) {
		if err := db.QueryRow(`SELECT count(*) FROM idempotency_keys`).Scan(&left); err != nil {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatal("the expired key was not reaped in 5s")
		}
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("RunReaper returned %v, want context.Canceled", err)
	}
}

// An expired key whose attempt still holds a valid lease is neither
// recycled by a claim nor removed by the reaper.
func TestExpiryKeepsLiveLease(t *testing.T) {
	ctx := context.Background()
	s, err := NewPostgresStore(ctx, schemaDB(t))
	if err != nil {
		t.Fatal(err)
	}
	s.Claim(ctx, storetest.ClaimRequest("k", 1, time.Hour, 100*time.Millisecond))
	time.Sleep(200 * time.Millisecond)
	if r, err := s.Claim(ctx, storetest.ClaimRequest("k", 1, time.Hour, time.Minute)); err != nil || r.Outcome != idempotency.InProgress {
		t.Fatalf("claim of an expired key with a live lease = %v, %v; want in-progress", r.Outcome, err)
	}
	if n, err := s.Reap(ctx, 10); err != nil || n != 0 {
		t.Fatalf("Reap = %d, %v; want 0", n, err)
	}
}

// A handler whose transaction failed (it ignored the error and answered
// 201) cannot complete: nothing is stored, the key is released, 503.
func TestFailedTransactionReleases(t *testing.T) {
	b := newPostgresBackend(t)
	var fail atomic.Bool
	fail.Store(true)
	inner := storetest.PaymentHandler(b, 0)
	h := idempotency.Middleware(b.Store)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if fail.Swap(false) {
			b.AddPayment(r.Context(), 1)
			idempotency.Tx(r.Context()).ExecContext(r.Context(), `INSERT INTO no_such_table VALUES (1)`) // error ignored
			w.WriteHeader(http.StatusCreated)
			return
		}
		inner.ServeHTTP(w, r)
	}))
	key := idempotency.NewKey()
	reqtest.WantProblem(t, reqtest.Do(t, h, "POST", key, `{"amount":2}`), http.StatusServiceUnavailable, idempotency.ProblemStoreUnavailable)
	if _, err := b.Store.Lookup(context.Background(), "", key); !errors.Is(err, idempotency.ErrNotFound) {
		t.Fatalf("key after failed transaction: %v, want ErrNotFound", err)
	}
	if n := b.Payments(t); n != 0 {
		t.Fatalf("payments = %d, want 0", n)
	}
	if a := reqtest.Do(t, h, "POST", key, `{"amount":2}`); a.Status != 201 || b.Payments(t) != 1 {
		t.Fatalf("retry: %d, payments %d", a.Status, b.Payments(t))
	}
}

// A store whose database went away answers 503 with Retry-After and runs
// no handler.
func TestStoreDown(t *testing.T) {
	check := func(t *testing.T, s idempotency.Store) {
		var calls atomic.Int64
		var logged atomic.Int64
		h := idempotency.Middleware(s, idempotency.WithErrorHandler(func(*http.Request, error) { logged.Add(1) }))(
			http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1) }))
		a := reqtest.Do(t, h, "POST", idempotency.NewKey(), `{"amount":1}`)
		reqtest.WantProblem(t, a, http.StatusServiceUnavailable, idempotency.ProblemStoreUnavailable)
		if a.Header.Get("Retry-After") == "" {
			t.Fatalf("503 without Retry-After")
		}
		if calls.Load() != 0 {
			t.Fatalf("handler ran with the store down")
		}
		if logged.Load() != 1 {
			t.Fatalf("error handler called %d times, want 1", logged.Load())
		}
	}
	db := schemaDB(t)
	s, err := NewPostgresStore(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	db.Close() // the database goes away
	check(t, s)
}

func TestNewPostgresInboxBadTable(t *testing.T) {
	db := schemaDB(t)
	if _, err := NewPostgresInbox(context.Background(), db, WithTable("x; DROP TABLE y")); err == nil {
		t.Error("bad table name accepted")
	}
}

const outboxTestTable = "outbox_test_entries"

func testOutbox(t *testing.T) (*idempotency.Outbox, *sql.DB) {
	t.Helper()
	db := schemaDB(t)
	o, err := NewPostgresOutbox(context.Background(), db, WithTable(outboxTestTable))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE outbox_test_orders (id text PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	return o, db
}

func TestOutboxRolledBackNeverDelivered(t *testing.T) {
	o, db := testOutbox(t)
	ctx := context.Background()
	write := func(order string, commit bool) {
		t.Helper()
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		if _, err := tx.Exec(`INSERT INTO outbox_test_orders VALUES ($1) ON CONFLICT DO NOTHING`, order); err != nil {
			t.Fatal(err)
		}
		tctx := idempotency.ContextWithTx(ctx, tx)
		if err := o.Add(tctx, idempotency.OutboxMessage{Kind: "email.receipt", EntityID: order, Key: "k-" + order, Payload: []byte(order)}); err != nil {
			t.Fatal(err)
		}
		// The same triple twice in one transaction: one entry.
		if err := o.Add(tctx, idempotency.OutboxMessage{Kind: "email.receipt", EntityID: order, Key: "k-" + order, Payload: []byte("dup")}); err != nil {
			t.Fatal(err)
		}
		if commit {
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
		}
	}
	write("o-rolled-back", false)
	write("o-committed", true)
	write("o-committed", true) // a retried operation: deduplicated

	rcv := storetest.NewReceiver()
	srv := httptest.NewServer(rcv)
	defer srv.Close()
	for pass, want := range []int{1, 0} {
		n, err := o.RelayOnce(ctx, storetest.HTTPSender(srv.URL), storetest.FastRelay)
		if err != nil || n != want {
			t.Fatalf("pass %d: delivered %d, %v; want %d", pass+1, n, err, want)
		}
	}
	if _, effects := rcv.Counts(); len(effects) != 1 || effects[0] != "o-committed" {
		t.Errorf("effects %q; want the committed order's email only, once", effects)
	}
	if ok, err := o.Delivered(ctx, "email.receipt", "o-committed", "k-o-committed"); !ok || err != nil {
		t.Errorf("Delivered(committed) = %v, %v", ok, err)
	}
	if ok, err := o.Delivered(ctx, "email.receipt", "o-rolled-back", "k-o-rolled-back"); ok || err != nil {
		t.Errorf("Delivered(rolled back) = %v, %v", ok, err)
	}
	if _, err := o.Lookup(ctx, "email.receipt", "o-rolled-back", "k-o-rolled-back"); !errors.Is(err, idempotency.ErrNotFound) {
		t.Errorf("Lookup(rolled back) err = %v, want ErrNotFound", err)
	}
	e, err := o.Lookup(ctx, "email.receipt", "o-committed", "k-o-committed")
	if err != nil || e.State != idempotency.OutboxDelivered || e.Attempts != 1 || e.DeliveredAt.IsZero() || string(e.Payload) != "o-committed" {
		t.Errorf("Lookup(committed) = %+v, %v", e, err)
	}
	if err := o.Add(ctx, idempotency.OutboxMessage{Kind: "x"}); !errors.Is(err, idempotency.ErrNoTx) {
		t.Errorf("Add without a transaction: %v, want ErrNoTx", err)
	}
}

func TestOutboxConcurrentRelays(t *testing.T) {
	o, db := testOutbox(t)
	ctx := context.Background()
	tx, _ := db.BeginTx(ctx, nil)
	for i := range 60 {
		if err := o.Add(idempotency.ContextWithTx(ctx, tx), idempotency.OutboxMessage{Kind: "k", EntityID: strconv.Itoa(i), Key: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	sent := map[int64]int{}
	send := func(ctx context.Context, e idempotency.OutboxEntry) error {
		time.Sleep(time.Millisecond)
		mu.Lock()
		sent[e.ID]++
		mu.Unlock()
		return nil
	}
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			opts := storetest.FastRelay
			opts.Batch = 7
			for {
				n, err := o.RelayOnce(ctx, send, opts)
				if err != nil {
					t.Error(err)
				}
				if n == 0 {
					return
				}
			}
		})
	}
	wg.Wait()
	if len(sent) != 60 {
		t.Errorf("%d entries sent, want 60", len(sent))
	}
	for id, n := range sent {
		if n != 1 {
			t.Errorf("entry %d sent %d times by concurrent relays", id, n)
		}
	}
}

// Environment of the relay child process (TestOutboxRelayChild).
const (
	envRelayChild = "IDEMLINT_OUTBOX_RELAY_CHILD" // the database DSN
	envRelayURL   = "IDEMLINT_OUTBOX_RELAY_URL"
)

// TestOutboxRelayChild is not a test: it is the relay process of TestOutboxRelayKilled, run by re-executing
// the test binary with IDEMLINT_OUTBOX_RELAY_CHILD set. It sends one entry, says so on stdout, and hangs
// before marking it delivered, until it is killed.
func TestOutboxRelayChild(t *testing.T) {
	db, ok := pgtest.ChildDB(t, envRelayChild)
	if !ok {
		return // not in the child process
	}
	o, err := NewPostgresOutbox(context.Background(), db, WithTable(outboxTestTable))
	if err != nil {
		t.Fatal(err)
	}
	send := storetest.HTTPSender(os.Getenv(envRelayURL))
	opts := storetest.FastRelay
	opts.Lease = time.Second
	o.RelayOnce(context.Background(), func(ctx context.Context, e idempotency.OutboxEntry) error {
		if err := send(ctx, e); err != nil {
			return err
		}
		fmt.Printf("SENT %d\n", e.ID)
		time.Sleep(time.Hour) // killed here: sent, not marked
		return nil
	}, opts)
	t.Fatal("the relay child was not killed")
}

func TestOutboxRelayKilled(t *testing.T) {
	o, db := testOutbox(t)
	ctx := context.Background()
	var schema string
	if err := db.QueryRow(`SELECT current_schema()`).Scan(&schema); err != nil {
		t.Fatal(err)
	}
	tx, _ := db.BeginTx(ctx, nil)
	if err := o.Add(idempotency.ContextWithTx(ctx, tx), idempotency.OutboxMessage{Kind: "publish", EntityID: "order-9", Key: "k9", Payload: []byte("order-9 paid")}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	rcv := storetest.NewReceiver()
	srv := httptest.NewServer(rcv)
	defer srv.Close()

	// The relay, in a child process: it sends, then is killed with SIGKILL before marking.
	child := childtest.Start(t, "TestOutboxRelayChild", envRelayChild+"="+withSearchPath(t, testDSN(), schema), envRelayURL+"="+srv.URL)
	sentID := child.Await("SENT ", 60*time.Second)
	child.Kill()

	e, err := o.Lookup(ctx, "publish", "order-9", "k9")
	if err != nil || e.State != idempotency.OutboxPending || strconv.FormatInt(e.ID, 10) != sentID {
		t.Fatalf("after the kill: %+v, %v; want entry %s still pending", e, err, sentID)
	}
	// A restarted relay: nothing while the dead relay's lease lasts, then it delivers again.
	deadline := time.Now().Add(10 * time.Second)
	for {
		n, err := o.RelayOnce(ctx, storetest.HTTPSender(srv.URL), storetest.FastRelay)
		if err != nil {
			t.Fatal(err)
		}
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the restarted relay never delivered the entry")
		}
		time.Sleep(50 * time.Millisecond)
	}
	deliveries, effects := rcv.Counts()
	if deliveries[sentID] != 2 || len(deliveries) != 1 {
		t.Errorf("deliveries %v; want entry %s twice (at least once: sent, killed, sent again)", deliveries, sentID)
	}
	if len(effects) != 1 || effects[0] != "order-9 paid" {
		t.Errorf("effects %q; want one: the receiver drops the duplicate by entry id", effects)
	}
	if ok, _ := o.Delivered(ctx, "publish", "order-9", "k9"); !ok {
		t.Error("not marked delivered after the restart")
	}
	if n, _ := o.RelayOnce(ctx, storetest.HTTPSender(srv.URL), storetest.FastRelay); n != 0 {
		t.Errorf("delivered again after the mark (%d)", n)
	}
}
