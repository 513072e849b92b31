package storetest

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/retry"
)

// Outbox runs the conformance tests of an idempotency.Outbox backend as
// subtests, each on the outbox newOutbox makes for it with a store to run
// Middleware on. For a backend with transactions, newOutbox also returns its
// database (entries are added in a transaction of it); nil otherwise.
func Outbox(t *testing.T, newOutbox func(t *testing.T) (*idempotency.Outbox, idempotency.Store, *sql.DB)) {
	for _, c := range []struct {
		name string
		f    func(t *testing.T, o *idempotency.Outbox, store idempotency.Store, db *sql.DB)
	}{
		{"UnderMiddleware", testOutboxUnderMiddleware},
		{"RelayRetries", testOutboxRelayRetries},
		{"Prune", testOutboxPrune},
	} {
		t.Run(c.name, func(t *testing.T) {
			o, store, db := newOutbox(t)
			c.f(t, o, store, db)
		})
	}
}

// FastRelay is a relay configuration that retries quickly.
var FastRelay = idempotency.RelayOptions{Policy: retry.Policy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond},
	Backoff: 20 * time.Millisecond}

// Receiver is the receiving side of a relay: it drops duplicates by the entry id it is sent (the
// Idempotency-Key of HTTPSender).
type Receiver struct {
	mu         sync.Mutex
	deliveries map[string]int // by entry id
	effects    []string       // payloads acted upon, once per entry id
	fail       int            // answer this many requests with 503 first
}

// NewReceiver returns a Receiver that has seen nothing.
func NewReceiver() *Receiver { return &Receiver{deliveries: map[string]int{}} }

func (r *Receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
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

// Counts returns the deliveries by entry id and the payloads acted upon, once per entry id.
func (r *Receiver) Counts() (map[string]int, []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	d := map[string]int{}
	for k, v := range r.deliveries {
		d[k] = v
	}
	return d, append([]string(nil), r.effects...)
}

// HTTPSender posts an entry's payload to url, keyed by the entry id.
func HTTPSender(url string) func(ctx context.Context, e idempotency.OutboxEntry) error {
	client := &http.Client{Transport: retry.NewTransport(nil, retry.Policy{})}
	return func(ctx context.Context, e idempotency.OutboxEntry) error {
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

// addCommitted adds m to o, in a committed transaction of its own on db
// when o has one.
func addCommitted(t *testing.T, o *idempotency.Outbox, db *sql.DB, m idempotency.OutboxMessage) {
	t.Helper()
	ctx := context.Background()
	if db == nil {
		if err := o.Add(ctx, m); err != nil {
			t.Fatal(err)
		}
		return
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Add(idempotency.ContextWithTx(ctx, tx), m); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func testOutboxUnderMiddleware(t *testing.T, o *idempotency.Outbox, store idempotency.Store, _ *sql.DB) {
	h := idempotency.Middleware(store)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.Header.Get("Idempotency-Key")
		if err := o.Add(r.Context(), idempotency.OutboxMessage{Kind: "email.receipt", EntityID: r.URL.Path, Key: key,
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
	n, err := o.RelayOnce(context.Background(), func(ctx context.Context, e idempotency.OutboxEntry) error {
		sent = append(sent, string(e.Payload))
		return nil
	}, FastRelay)
	if err != nil || n != 1 || len(sent) != 1 || sent[0] != "/orders/1" {
		t.Errorf("relay delivered %d %q, %v; want /orders/1 only", n, sent, err)
	}
	if ok, _ := o.Delivered(context.Background(), "email.receipt", "/orders/2/fail", "key-2"); ok {
		t.Error("the failed attempt's entry was delivered")
	}
}

func testOutboxRelayRetries(t *testing.T, o *idempotency.Outbox, _ idempotency.Store, db *sql.DB) {
	ctx := context.Background()
	for _, key := range []string{"flaky", "bad", "down"} {
		addCommitted(t, o, db, idempotency.OutboxMessage{Kind: "notify", EntityID: "e", Key: key, Payload: []byte(key)})
	}
	calls := map[string]int{}
	var reported []string
	opts := FastRelay
	opts.Backoff = 400 * time.Millisecond // waits of 200 to 400ms
	opts.OnError = func(e *idempotency.OutboxEntry, err error) { reported = append(reported, e.Key) }
	send := func(ctx context.Context, e idempotency.OutboxEntry) error {
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
	if bad.State != idempotency.OutboxFailed || !strings.Contains(bad.LastError, "invalid address") {
		t.Errorf("permanent failure: %+v", bad)
	}
	if down.State != idempotency.OutboxPending || !strings.Contains(down.LastError, "unavailable") || down.Attempts != 1 {
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
	if down, _ := o.Lookup(ctx, "notify", "e", "down"); down.State != idempotency.OutboxDelivered || down.Attempts != 2 || down.LastError != "" {
		t.Errorf("down after delivery: %+v", down)
	}
}

func testOutboxPrune(t *testing.T, o *idempotency.Outbox, _ idempotency.Store, db *sql.DB) {
	ctx := context.Background()
	addCommitted(t, o, db, idempotency.OutboxMessage{Kind: "k", Key: "a"})
	addCommitted(t, o, db, idempotency.OutboxMessage{Kind: "k", Key: "b"})
	o.RelayOnce(ctx, func(context.Context, idempotency.OutboxEntry) error { return nil }, FastRelay)
	addCommitted(t, o, db, idempotency.OutboxMessage{Kind: "k", Key: "c"}) // pending
	if n, err := o.Prune(ctx, time.Hour); n != 0 || err != nil {
		t.Errorf("Prune(1h) = %d, %v", n, err)
	}
	time.Sleep(5 * time.Millisecond)
	if n, err := o.Prune(ctx, time.Millisecond); n != 2 || err != nil {
		t.Errorf("Prune(1ms) = %d, %v; want the 2 delivered entries", n, err)
	}
	if _, err := o.Lookup(ctx, "k", "", "a"); !errors.Is(err, idempotency.ErrNotFound) {
		t.Errorf("pruned entry still there: %v", err)
	}
	if e, err := o.Lookup(ctx, "k", "", "c"); err != nil || e.State != idempotency.OutboxPending {
		t.Errorf("pending entry: %+v, %v", e, err)
	}
}
