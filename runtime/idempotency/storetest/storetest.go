// Package storetest is the conformance suite of idempotency.Store
// implementations under idempotency.Middleware, and of the Inbox and Outbox
// backends: the memory store runs it in the core module, the PostgreSQL and
// Redis stores (github.com/idemlint/idemlint/runtime/pgstore,
// .../runtime/redisstore) in theirs. It also holds what the stores' own
// tests share with it: a payment handler, a claim request, an outbox
// receiver and sender.
package storetest

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/internal/reqtest"
)

// Backend is a store plus a payments ledger that joins the store's unit of
// work, as an application would.
type Backend struct {
	// Name names the store in failures.
	Name string
	// Store is the store under test.
	Store idempotency.Store
	// DB, for a store whose Work carries a transaction (idempotency.Tx),
	// holds the table payments (id bigserial PRIMARY KEY, amount bigint NOT
	// NULL), which the handlers write in that transaction; nil for a store
	// without one, whose payments are counted in memory at OnCommit.
	DB *sql.DB
	// Calls counts the handler's runs.
	Calls atomic.Int64

	mem atomic.Int64
}

// AddPayment records one payment in the request's unit of work: a row in
// the attempt's transaction, or a count at OnCommit.
func (b *Backend) AddPayment(ctx context.Context, amount int64) (int64, error) {
	if tx := idempotency.Tx(ctx); tx != nil {
		var id int64
		err := tx.QueryRowContext(ctx, `INSERT INTO payments (amount) VALUES ($1) RETURNING id`, amount).Scan(&id)
		return id, err
	}
	if b.DB != nil {
		return 0, errors.New("no transaction in context")
	}
	idempotency.OnCommit(ctx, func() { b.mem.Add(1) })
	return 0, nil
}

// Payments returns how many payments committed.
func (b *Backend) Payments(t testing.TB) int64 {
	t.Helper()
	if b.DB == nil {
		return b.mem.Load()
	}
	var n int64
	if err := b.DB.QueryRow(`SELECT count(*) FROM payments`).Scan(&n); err != nil {
		t.Fatalf("count payments: %v", err)
	}
	return n
}

// WantOnce fails t unless the handler ran once and made one payment.
func (b *Backend) WantOnce(t testing.TB) {
	t.Helper()
	if n := b.Payments(t); n != 1 {
		t.Fatalf("payments = %d, want 1", n)
	}
	if n := b.Calls.Load(); n != 1 {
		t.Fatalf("handler ran %d times, want 1", n)
	}
}

// Middleware runs the middleware's conformance tests as parallel subtests,
// each on a Backend newBackend makes for it.
func Middleware(t *testing.T, newBackend func(t *testing.T) *Backend) {
	for _, c := range []struct {
		name string
		f    func(t *testing.T, b *Backend)
	}{
		{"SameKeyTwiceInSequence", testSameKeyTwiceInSequence},
		{"ConcurrentSameKey", testConcurrentSameKey},
		{"SameKeyOtherBody", testSameKeyOtherBody},
		{"TwoTenantsSameKey", testTwoTenantsSameKey},
		{"ServerErrorNotReplayed", testServerErrorNotReplayed},
		{"PanicReleases", testPanicReleases},
		{"ClientErrorsStored", testClientErrorsStored},
		{"StaleOwnerRejected", testStaleOwnerRejected},
		{"ReplayBodyAndStatusExact", testReplayBodyAndStatusExact},
		{"ResponseTooLarge", testResponseTooLarge},
		{"StepsResume", testStepsResume},
		{"RetryClientAgainstInjected503", testRetryClientAgainstInjected503},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.f(t, newBackend(t))
		})
	}
}

// PaymentHandler creates one payment per run, after delay.
func PaymentHandler(b *Backend, delay time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.Calls.Add(1)
		var in struct{ Amount int64 }
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Amount <= 0 {
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"title":"bad payment"}`)
			return
		}
		id, err := b.AddPayment(r.Context(), in.Amount)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		time.Sleep(delay)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Location", fmt.Sprintf("/payments/%d", id))
		w.Header().Set("X-Not-Replayed", "1")
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"id":%d,"amount":%d,"nonce":%q}`, id, in.Amount, idempotency.NewKey())
	})
}

// TenantScope is a WithScope function: the tenant is the X-Account header.
func TenantScope(r *http.Request) (string, error) { return r.Header.Get("X-Account"), nil }

// Verification 1: the same key twice in sequence makes one payment and the
// same Answer.
func testSameKeyTwiceInSequence(t *testing.T, b *Backend) {
	h := idempotency.Middleware(b.Store)(PaymentHandler(b, 0))
	key := idempotency.NewKey()
	first := reqtest.Do(t, h, "POST", key, `{"amount": 100}`)
	second := reqtest.Do(t, h, "POST", key, `{"amount":100}`) // same JSON, other spacing
	if first.Status != http.StatusCreated || second.Status != http.StatusCreated {
		t.Fatalf("statuses %d, %d; want 201, 201", first.Status, second.Status)
	}
	if first.Body != second.Body {
		t.Fatalf("bodies differ:\n%s\n%s", first.Body, second.Body)
	}
	if first.Header.Get("Idempotent-Replayed") != "" || second.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("Idempotent-Replayed = %q, %q; want \"\", \"true\"",
			first.Header.Get("Idempotent-Replayed"), second.Header.Get("Idempotent-Replayed"))
	}
	if got := second.Header.Get("Location"); got != first.Header.Get("Location") || got == "" {
		t.Fatalf("replayed Location = %q, want %q", got, first.Header.Get("Location"))
	}
	if second.Header.Get("X-Not-Replayed") != "" {
		t.Fatalf("header outside the allow-list was replayed")
	}
	b.WantOnce(t)
}

// Verification 2: 50 concurrent requests with one key make one payment; the
// others get 409 or the replay.
func testConcurrentSameKey(t *testing.T, b *Backend) {
	srv := httptest.NewServer(idempotency.Middleware(b.Store)(PaymentHandler(b, 50*time.Millisecond)))
	defer srv.Close()
	key := idempotency.NewKey()
	const n = 50
	answers := make([]reqtest.Answer, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			req, _ := http.NewRequest("POST", srv.URL+"/payments", strings.NewReader(`{"amount":7}`))
			req.Header.Set("Idempotency-Key", key)
			req.Header.Set("Content-Type", "application/json")
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Errorf("request %d: %v", i, err)
				return
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			answers[i] = reqtest.Answer{Status: resp.StatusCode, Header: resp.Header, Body: string(body)}
		}()
	}
	close(start)
	wg.Wait()
	created, conflicts, fresh := 0, 0, 0
	var createdBody string
	for _, a := range answers {
		switch a.Status {
		case http.StatusCreated:
			created++
			if a.Header.Get("Idempotent-Replayed") != "true" {
				fresh++
			}
			if createdBody != "" && a.Body != createdBody {
				t.Errorf("201 bodies differ: %s vs %s", a.Body, createdBody)
			}
			createdBody = a.Body
		case http.StatusConflict:
			conflicts++
			if a.Header.Get("Retry-After") == "" {
				t.Errorf("409 without Retry-After")
			}
		default:
			t.Errorf("unexpected answer %d %s", a.Status, a.Body)
		}
	}
	if fresh != 1 || created+conflicts != n {
		t.Fatalf("fresh 201 = %d (want 1), 201 = %d, 409 = %d", fresh, created, conflicts)
	}
	b.WantOnce(t)
}

// Verification 3: the same key with another body answers 422.
func testSameKeyOtherBody(t *testing.T, b *Backend) {
	h := idempotency.Middleware(b.Store)(PaymentHandler(b, 0))
	key := idempotency.NewKey()
	if a := reqtest.Do(t, h, "POST", key, `{"amount":100}`); a.Status != http.StatusCreated {
		t.Fatalf("first status %d", a.Status)
	}
	reqtest.WantProblem(t, reqtest.Do(t, h, "POST", key, `{"amount":101}`), http.StatusUnprocessableEntity, idempotency.ProblemKeyReused)
	if n := b.Payments(t); n != 1 {
		t.Fatalf("payments = %d, want 1", n)
	}
}

func testTwoTenantsSameKey(t *testing.T, b *Backend) {
	h := idempotency.Middleware(b.Store, idempotency.WithScope(TenantScope))(PaymentHandler(b, 0))
	key := idempotency.NewKey()
	a1 := reqtest.Do(t, h, "POST", key, `{"amount":5}`, "X-Account", "alice")
	a2 := reqtest.Do(t, h, "POST", key, `{"amount":5}`, "X-Account", "bob")
	if a1.Status != 201 || a2.Status != 201 || a2.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("answers %d, %d (replayed %q)", a1.Status, a2.Status, a2.Header.Get("Idempotent-Replayed"))
	}
	if n := b.Payments(t); n != 2 {
		t.Fatalf("payments = %d, want 2", n)
	}
}

// A 5xx is not stored: the retry runs the handler again and succeeds.
func testServerErrorNotReplayed(t *testing.T, b *Backend) {
	var fail atomic.Bool
	fail.Store(true)
	inner := PaymentHandler(b, 0)
	h := idempotency.Middleware(b.Store)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if fail.Swap(false) {
			// Business write first, then failure: it must be rolled back.
			if _, err := b.AddPayment(r.Context(), 1); err != nil {
				t.Errorf("addPayment: %v", err)
			}
			http.Error(w, "boom", http.StatusInternalServerError)
			return
		}
		inner.ServeHTTP(w, r)
	}))
	key := idempotency.NewKey()
	if a := reqtest.Do(t, h, "POST", key, `{"amount":3}`); a.Status != 500 {
		t.Fatalf("first status %d, want 500", a.Status)
	}
	if n := b.Payments(t); n != 0 {
		t.Fatalf("payments after 500 = %d, want 0 (rolled back)", n)
	}
	a := reqtest.Do(t, h, "POST", key, `{"amount":3}`)
	if a.Status != 201 || a.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("retry: %d replayed=%q, want a fresh 201", a.Status, a.Header.Get("Idempotent-Replayed"))
	}
	if n := b.Payments(t); n != 1 {
		t.Fatalf("payments = %d, want 1", n)
	}
}

// A panicking handler releases the key, stores nothing and re-panics.
func testPanicReleases(t *testing.T, b *Backend) {
	var panicked atomic.Bool
	inner := PaymentHandler(b, 0)
	h := idempotency.Middleware(b.Store)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !panicked.Swap(true) {
			b.AddPayment(r.Context(), 1)
			panic("handler bug")
		}
		inner.ServeHTTP(w, r)
	}))
	key := idempotency.NewKey()
	func() {
		defer func() {
			if v := recover(); v != "handler bug" {
				t.Fatalf("recovered %v, want the handler's panic", v)
			}
		}()
		reqtest.Do(t, h, "POST", key, `{"amount":3}`)
	}()
	if _, err := b.Store.Lookup(context.Background(), "", key); !errors.Is(err, idempotency.ErrNotFound) {
		t.Fatalf("key after panic: %v, want ErrNotFound", err)
	}
	if a := reqtest.Do(t, h, "POST", key, `{"amount":3}`); a.Status != 201 {
		t.Fatalf("retry after panic: %d", a.Status)
	}
	if n := b.Payments(t); n != 1 {
		t.Fatalf("payments = %d, want 1", n)
	}
}

// A deterministic 4xx is stored and replayed; a transient one (429) is not.
func testClientErrorsStored(t *testing.T, b *Backend) {
	h := idempotency.Middleware(b.Store)(PaymentHandler(b, 0))
	key := idempotency.NewKey()
	reqtest.Do(t, h, "POST", key, `{"amount":-1}`)
	a := reqtest.Do(t, h, "POST", key, `{"amount":-1}`)
	if a.Status != 400 || a.Header.Get("Idempotent-Replayed") != "true" || b.Calls.Load() != 1 {
		t.Fatalf("400 not replayed: %d %q calls=%d", a.Status, a.Header.Get("Idempotent-Replayed"), b.Calls.Load())
	}
	var n atomic.Int64
	h429 := idempotency.Middleware(b.Store)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	key = idempotency.NewKey()
	reqtest.Do(t, h429, "POST", key, `{}`)
	reqtest.Do(t, h429, "POST", key, `{}`)
	if n.Load() != 2 {
		t.Fatalf("429 handler ran %d times, want 2", n.Load())
	}
}

// A stale owner (its lease passed, the key was taken over and completed)
// cannot complete: its work is rolled back and it answers 409 lease-lost.
func testStaleOwnerRejected(t *testing.T, b *Backend) {
	release := make(chan struct{})
	entered := make(chan struct{}, 1)
	var first atomic.Bool
	first.Store(true)
	inner := PaymentHandler(b, 0)
	h := idempotency.Middleware(b.Store, idempotency.WithLease(time.Second))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if first.Swap(false) {
			if _, err := b.AddPayment(r.Context(), 1); err != nil {
				t.Errorf("addPayment: %v", err)
			}
			entered <- struct{}{}
			<-release // outlive the lease
			w.WriteHeader(http.StatusCreated)
			return
		}
		inner.ServeHTTP(w, r)
	}))
	key := idempotency.NewKey()
	stale := make(chan reqtest.Answer)
	go func() { stale <- reqtest.Do(t, h, "POST", key, `{"amount":1}`) }()
	<-entered
	if a := reqtest.Do(t, h, "POST", key, `{"amount":1}`); a.Status != http.StatusConflict {
		t.Fatalf("during lease: %d, want 409", a.Status)
	}
	time.Sleep(1100 * time.Millisecond)
	fresh := reqtest.Do(t, h, "POST", key, `{"amount":1}`)
	if fresh.Status != 201 {
		t.Fatalf("takeover: %d %s", fresh.Status, fresh.Body)
	}
	close(release)
	reqtest.WantProblem(t, <-stale, http.StatusConflict, idempotency.ProblemLeaseLost)
	if n := b.Payments(t); n != 1 {
		t.Fatalf("payments = %d, want 1", n)
	}
	if a := reqtest.Do(t, h, "POST", key, `{"amount":1}`); a.Body != fresh.Body || a.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("replay after takeover: %d %s, want %s", a.Status, a.Body, fresh.Body)
	}
}

func testReplayBodyAndStatusExact(t *testing.T, b *Backend) {
	h := idempotency.Middleware(b.Store)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.WriteHeader(http.StatusAccepted)
		w.Write([]byte{0, 1, 2, 0xff})
	}))
	key := idempotency.NewKey()
	reqtest.Do(t, h, "POST", key, "x")
	a := reqtest.Do(t, h, "POST", key, "x")
	if a.Status != http.StatusAccepted || !bytes.Equal([]byte(a.Body), []byte{0, 1, 2, 0xff}) ||
		a.Header.Get("Content-Type") != "application/octet-stream" {
		t.Fatalf("replay = %d %q %q", a.Status, a.Body, a.Header.Get("Content-Type"))
	}
}

func testResponseTooLarge(t *testing.T, b *Backend) {
	h := idempotency.Middleware(b.Store, idempotency.WithMaxResponseBytes(10))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.AddPayment(r.Context(), 1)
		w.Write([]byte(strings.Repeat("x", 11)))
	}))
	reqtest.WantProblem(t, reqtest.Do(t, h, "POST", idempotency.NewKey(), "{}"), 500, idempotency.ProblemResponseTooLarge)
	if n := b.Payments(t); n != 0 {
		t.Fatalf("payments = %d, want 0", n)
	}
}

// Steps: a retry after a failure resumes after the recorded steps instead
