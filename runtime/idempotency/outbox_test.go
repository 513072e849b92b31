package idempotency

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/internal/childtest"
	"github.com/idemlint/idemlint/runtime/internal/pgtest"
	"github.com/idemlint/idemlint/runtime/retry"
)

const outboxTestTable = "outbox_test_entries"

// fastRelay retries quickly.
var fastRelay = RelayOptions{Policy: retry.Policy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond},
	Backoff: 20 * time.Millisecond}

func pgOutbox(t *testing.T) (*Outbox, *sql.DB) {
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

// receiver is the receiving side of the relay: it drops duplicates by the entry id it is sent.
type receiver struct {
	mu         sync.Mutex
	deliveries map[string]int // by entry id
	effects    []string       // payloads acted upon, once per entry id
	fail       int            // answer this many requests with 503 first
}

func newReceiver() *receiver { return &receiver{deliveries: map[string]int{}} }

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail > 0 {
		r.fail--
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	id := req.Header.Get(retry.IdempotencyKeyHeader)
	r.deliveries[id]++
	if r.deliveries[id] == 1 {
		r.effects = append(r.effects, string(body))
	}
}

func (r *receiver) counts() (map[string]int, []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	d := map[string]int{}
	for k, v := range r.deliveries {
		d[k] = v
	}
	return d, append([]string(nil), r.effects...)
}

// httpSender posts an entry's payload to url, keyed by the entry id.
func httpSender(url string) func(ctx context.Context, e OutboxEntry) error {
	client := &http.Client{Transport: retry.NewTransport(nil, retry.Policy{})}
	return func(ctx context.Context, e OutboxEntry) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(e.Payload))
		if err != nil {
			return retry.Permanent(err)
		}
		req.Header.Set(retry.IdempotencyKeyHeader, strconv.FormatInt(e.ID, 10))
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		return retry.ResponseError(resp)
	}
}

func TestOutboxRolledBackNeverDelivered(t *testing.T) {
	o, db := pgOutbox(t)
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
		tctx := ContextWithTx(ctx, tx)
		if err := o.Add(tctx, OutboxMessage{Kind: "email.receipt", EntityID: order, Key: "k-" + order, Payload: []byte(order)}); err != nil {
			t.Fatal(err)
		}
		// The same triple twice in one transaction: one entry.
		if err := o.Add(tctx, OutboxMessage{Kind: "email.receipt", EntityID: order, Key: "k-" + order, Payload: []byte("dup")}); err != nil {
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

	rcv := newReceiver()
	srv := httptest.NewServer(rcv)
	defer srv.Close()
	for pass, want := range []int{1, 0} {
		n, err := o.RelayOnce(ctx, httpSender(srv.URL), fastRelay)
		if err != nil || n != want {
			t.Fatalf("pass %d: delivered %d, %v; want %d", pass+1, n, err, want)
		}
	}
	if _, effects := rcv.counts(); len(effects) != 1 || effects[0] != "o-committed" {
		t.Errorf("effects %q; want the committed order's email only, once", effects)
	}
	if ok, err := o.Delivered(ctx, "email.receipt", "o-committed", "k-o-committed"); !ok || err != nil {
		t.Errorf("Delivered(committed) = %v, %v", ok, err)
	}
	if ok, err := o.Delivered(ctx, "email.receipt", "o-rolled-back", "k-o-rolled-back"); ok || err != nil {
		t.Errorf("Delivered(rolled back) = %v, %v", ok, err)
	}
	if _, err := o.Lookup(ctx, "email.receipt", "o-rolled-back", "k-o-rolled-back"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Lookup(rolled back) err = %v, want ErrNotFound", err)
	}
	e, err := o.Lookup(ctx, "email.receipt", "o-committed", "k-o-committed")
	if err != nil || e.State != OutboxDelivered || e.Attempts != 1 || e.DeliveredAt.IsZero() || string(e.Payload) != "o-committed" {
		t.Errorf("Lookup(committed) = %+v, %v", e, err)
	}
	if err := o.Add(ctx, OutboxMessage{Kind: "x"}); !errors.Is(err, ErrNoTx) {
		t.Errorf("Add without a transaction: %v, want ErrNoTx", err)
	}
}

// eachOutbox runs f as subtests on a memory and on a PostgreSQL outbox, each with a matching idempotency
// store.
func eachOutbox(t *testing.T, f func(t *testing.T, o *Outbox, store Store)) {
	t.Run("memory", func(t *testing.T) { f(t, NewMemoryOutbox(), NewMemoryStore()) })
	t.Run("postgres", func(t *testing.T) {
		o, db := pgOutbox(t)
		s, err := NewPostgresStore(context.Background(), db, WithTable("outbox_test_keys"))
		if err != nil {
			t.Fatal(err)
		}
		f(t, o, s)
	})
}

func TestOutboxUnderMiddleware(t *testing.T) {
	eachOutbox(t, func(t *testing.T, o *Outbox, store Store) {
		h := Middleware(store)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			key := r.Header.Get("Idempotency-Key")
			if err := o.Add(r.Context(), OutboxMessage{Kind: "email.receipt", EntityID: r.URL.Path, Key: key,
				Payload: []byte(r.URL.Path)}); err != nil {
				http.Error(w, err.Error(), 500)
				return
			}
			if strings.HasSuffix(r.URL.Path, "/fail") {
				w.WriteHeader(http.StatusInternalServerError) // the attempt's writes roll back
				return
			}
			w.WriteHeader(http.StatusCreated)
		}))
		post := func(path, key string) int {
			r := httptest.NewRequest(http.MethodPost, path, strings.NewReader("{}"))
			r.Header.Set("Idempotency-Key", key)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			return w.Code
		}
		if c := post("/orders/1", "key-1"); c != 201 {
			t.Fatalf("status %d", c)
		}
		if c := post("/orders/1", "key-1"); c != 201 { // replayed: the handler does not run
			t.Fatalf("replay status %d", c)
		}
		if c := post("/orders/2/fail", "key-2"); c != 500 {
			t.Fatalf("status %d", c)
		}
		var sent []string
		n, err := o.RelayOnce(context.Background(), func(ctx context.Context, e OutboxEntry) error {
			sent = append(sent, string(e.Payload))
			return nil
		}, fastRelay)
		if err != nil || n != 1 || len(sent) != 1 || sent[0] != "/orders/1" {
			t.Errorf("relay delivered %d %q, %v; want /orders/1 only", n, sent, err)
		}
		if ok, _ := o.Delivered(context.Background(), "email.receipt", "/orders/2/fail", "key-2"); ok {
			t.Error("the failed attempt's entry was delivered")
		}
	})
}

// addCommitted adds m to o, in a committed transaction of its own when o
// is in PostgreSQL.
func addCommitted(t *testing.T, o *Outbox, m OutboxMessage) {
	t.Helper()
	ctx := context.Background()
	if o.db == nil {
		if err := o.Add(ctx, m); err != nil {
			t.Fatal(err)
		}
		return
	}
	tx, err := o.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Add(ContextWithTx(ctx, tx), m); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func TestOutboxRelayRetries(t *testing.T) {
	eachOutbox(t, func(t *testing.T, o *Outbox, _ Store) {
		ctx := context.Background()
		for _, key := range []string{"flaky", "bad", "down"} {
			addCommitted(t, o, OutboxMessage{Kind: "notify", EntityID: "e", Key: key, Payload: []byte(key)})
		}
		calls := map[string]int{}
		var reported []string
		opts := fastRelay
		opts.Backoff = 400 * time.Millisecond // waits of 200 to 400ms
		opts.OnError = func(e *OutboxEntry, err error) { reported = append(reported, e.Key) }
		send := func(ctx context.Context, e OutboxEntry) error {
			calls[e.Key]++
			switch {
			case e.Key == "flaky" && calls[e.Key] < 3:
				return errors.New("connection reset")
			case e.Key == "bad":
				return retry.Permanent(errors.New("invalid address"))
			case e.Key == "down" && calls[e.Key] <= 3:
				return errors.New("unavailable")
			}
			return nil
		}
		n, err := o.RelayOnce(ctx, send, opts)
		if err != nil || n != 1 {
			t.Fatalf("first pass: %d delivered, %v; want the flaky one", n, err)
		}
		if calls["flaky"] != 3 || calls["bad"] != 1 || calls["down"] != 3 {
			t.Errorf("calls %v; want 3 attempts for flaky, 1 for bad, 3 (the policy's) for down", calls)
		}
		if strings.Join(reported, ",") != "bad,down" {
			t.Errorf("OnError saw %v", reported)
		}
		bad, _ := o.Lookup(ctx, "notify", "e", "bad")
		down, _ := o.Lookup(ctx, "notify", "e", "down")
		if bad.State != OutboxFailed || !strings.Contains(bad.LastError, "invalid address") {
			t.Errorf("permanent failure: %+v", bad)
		}
		if down.State != OutboxPending || !strings.Contains(down.LastError, "unavailable") || down.Attempts != 1 {
			t.Errorf("transient failure: %+v", down)
		}
		// Backed off: not retried at once; then delivered.
		if n, _ := o.RelayOnce(ctx, send, opts); n != 0 || calls["down"] != 3 {
			t.Errorf("retried during its backoff (%d delivered, %d calls)", n, calls["down"])
		}
		time.Sleep(450 * time.Millisecond)
		if n, _ := o.RelayOnce(ctx, send, opts); n != 1 || calls["bad"] != 1 {
			t.Errorf("after the backoff: %d delivered, calls %v; want down delivered, bad left alone", n, calls)
		}
		if down, _ := o.Lookup(ctx, "notify", "e", "down"); down.State != OutboxDelivered || down.Attempts != 2 || down.LastError != "" {
			t.Errorf("down after delivery: %+v", down)
		}
	})
}

func TestOutboxPrune(t *testing.T) {
	eachOutbox(t, func(t *testing.T, o *Outbox, _ Store) {
		ctx := context.Background()
		addCommitted(t, o, OutboxMessage{Kind: "k", Key: "a"})
		addCommitted(t, o, OutboxMessage{Kind: "k", Key: "b"})
		o.RelayOnce(ctx, func(context.Context, OutboxEntry) error { return nil }, fastRelay)
		addCommitted(t, o, OutboxMessage{Kind: "k", Key: "c"}) // pending
		if n, err := o.Prune(ctx, time.Hour); n != 0 || err != nil {
			t.Errorf("Prune(1h) = %d, %v", n, err)
		}
		time.Sleep(5 * time.Millisecond)
		if n, err := o.Prune(ctx, time.Millisecond); n != 2 || err != nil {
			t.Errorf("Prune(1ms) = %d, %v; want the 2 delivered entries", n, err)
		}
		if _, err := o.Lookup(ctx, "k", "", "a"); !errors.Is(err, ErrNotFound) {
			t.Errorf("pruned entry still there: %v", err)
		}
		if e, err := o.Lookup(ctx, "k", "", "c"); err != nil || e.State != OutboxPending {
			t.Errorf("pending entry: %+v, %v", e, err)
		}
	})
}

func TestOutboxConcurrentRelays(t *testing.T) {
	o, db := pgOutbox(t)
	ctx := context.Background()
	tx, _ := db.BeginTx(ctx, nil)
	for i := range 60 {
		if err := o.Add(ContextWithTx(ctx, tx), OutboxMessage{Kind: "k", EntityID: strconv.Itoa(i), Key: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	sent := map[int64]int{}
	send := func(ctx context.Context, e OutboxEntry) error {
		time.Sleep(time.Millisecond)
		mu.Lock()
		sent[e.ID]++
		mu.Unlock()
		return nil
	}
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			opts := fastRelay
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

func TestOutboxRun(t *testing.T) {
	o := NewMemoryOutbox()
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan string, 10)
	done := make(chan error)
	go func() {
		done <- o.Run(ctx, func(ctx context.Context, e OutboxEntry) error { got <- e.Key; return nil },
			RelayOptions{Interval: 5 * time.Millisecond})
	}()
	for _, k := range []string{"a", "b"} {
		o.Add(context.Background(), OutboxMessage{Kind: "k", Key: k})
		select {
		case g := <-got:
			if g != k {
				t.Errorf("delivered %q, want %q", g, k)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%q not delivered by Run", k)
		}
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v", err)
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
	send := httpSender(os.Getenv(envRelayURL))
	opts := fastRelay
	opts.Lease = time.Second
	o.RelayOnce(context.Background(), func(ctx context.Context, e OutboxEntry) error {
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
	o, db := pgOutbox(t)
	ctx := context.Background()
	var schema string
	if err := db.QueryRow(`SELECT current_schema()`).Scan(&schema); err != nil {
		t.Fatal(err)
	}
	tx, _ := db.BeginTx(ctx, nil)
	if err := o.Add(ContextWithTx(ctx, tx), OutboxMessage{Kind: "publish", EntityID: "order-9", Key: "k9", Payload: []byte("order-9 paid")}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	rcv := newReceiver()
	srv := httptest.NewServer(rcv)
	defer srv.Close()

	// The relay, in a child process: it sends, then is killed with SIGKILL before marking.
	child := childtest.Start(t, "TestOutboxRelayChild", envRelayChild+"="+withSearchPath(t, testDSN(), schema), envRelayURL+"="+srv.URL)
	sentID := child.Await("SENT ", 60*time.Second)
	child.Kill()

	e, err := o.Lookup(ctx, "publish", "order-9", "k9")
	if err != nil || e.State != OutboxPending || strconv.FormatInt(e.ID, 10) != sentID {
		t.Fatalf("after the kill: %+v, %v; want entry %s still pending", e, err, sentID)
	}
	// A restarted relay: nothing while the dead relay's lease lasts, then it delivers again.
	deadline := time.Now().Add(10 * time.Second)
	for {
		n, err := o.RelayOnce(ctx, httpSender(srv.URL), fastRelay)
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
	deliveries, effects := rcv.counts()
	if deliveries[sentID] != 2 || len(deliveries) != 1 {
		t.Errorf("deliveries %v; want entry %s twice (at least once: sent, killed, sent again)", deliveries, sentID)
	}
	if len(effects) != 1 || effects[0] != "order-9 paid" {
		t.Errorf("effects %q; want one: the receiver drops the duplicate by entry id", effects)
	}
	if ok, _ := o.Delivered(ctx, "publish", "order-9", "k9"); !ok {
		t.Error("not marked delivered after the restart")
	}
	if n, _ := o.RelayOnce(ctx, httpSender(srv.URL), fastRelay); n != 0 {
		t.Errorf("delivered again after the mark (%d)", n)
	}
}
