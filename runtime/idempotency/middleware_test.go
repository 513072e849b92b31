package idempotency

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
	"testing/iotest"
	"time"
)

// backend is a store plus a payments ledger that joins the store's unit of
// work, as an application would.
type backend struct {
	name  string
	store Store
	db    *sql.DB // nil for memory
	mem   atomic.Int64
	calls atomic.Int64 // handler runs
}

func (b *backend) addPayment(ctx context.Context, amount int64) (int64, error) {
	if tx := Tx(ctx); tx != nil {
		var id int64
		err := tx.QueryRowContext(ctx, `INSERT INTO payments (amount) VALUES ($1) RETURNING id`, amount).Scan(&id)
		return id, err
	}
	if b.db != nil {
		return 0, errors.New("no transaction in context")
	}
	OnCommit(ctx, func() { b.mem.Add(1) })
	return 0, nil
}

func (b *backend) payments(t *testing.T) int64 {
	t.Helper()
	if b.db == nil {
		return b.mem.Load()
	}
	var n int64
	if err := b.db.QueryRow(`SELECT count(*) FROM payments`).Scan(&n); err != nil {
		t.Fatalf("count payments: %v", err)
	}
	return n
}

// wantOnce fails t unless the handler ran once and made one payment.
func (b *backend) wantOnce(t *testing.T) {
	t.Helper()
	if n := b.payments(t); n != 1 {
		t.Fatalf("payments = %d, want 1", n)
	}
	if n := b.calls.Load(); n != 1 {
		t.Fatalf("handler ran %d times, want 1", n)
	}
}

func newMemoryBackend(t *testing.T, opts ...MemoryOption) *backend {
	return &backend{name: "memory", store: NewMemoryStore(opts...)}
}

func newPostgresBackend(t *testing.T) *backend {
	db := schemaDB(t)
	s, err := NewPostgresStore(context.Background(), db)
	if err != nil {
		t.Fatalf("NewPostgresStore: %v", err)
	}
	if _, err := db.Exec(`CREATE TABLE payments (id bigserial PRIMARY KEY, amount bigint NOT NULL)`); err != nil {
		t.Fatalf("create payments: %v", err)
	}
	return &backend{name: "postgres", store: s, db: db}
}

// eachStore runs f as parallel subtests on the memory, the Postgres and
// the Redis store.
func eachStore(t *testing.T, f func(t *testing.T, b *backend)) {
	t.Run("memory", func(t *testing.T) {
		t.Parallel()
		f(t, newMemoryBackend(t))
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		f(t, newPostgresBackend(t))
	})
	t.Run("redis", func(t *testing.T) {
		t.Parallel()
		f(t, newRedisBackend(t))
	})
}

// paymentHandler creates one payment per run, after delay.
func paymentHandler(b *backend, delay time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.calls.Add(1)
		var in struct{ Amount int64 }
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Amount <= 0 {
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"title":"bad payment"}`)
			return
		}
		id, err := b.addPayment(r.Context(), in.Amount)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		time.Sleep(delay)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Location", fmt.Sprintf("/payments/%d", id))
		w.Header().Set("X-Not-Replayed", "1")
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"id":%d,"amount":%d,"nonce":%q}`, id, in.Amount, NewKey())
	})
}

type answer struct {
	status int
	header http.Header
	body   string
}

func do(t *testing.T, h http.Handler, method, key, body string, hdr ...string) answer {
	t.Helper()
	r := httptest.NewRequest(method, "/payments", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	if key != "" {
		r.Header.Set("Idempotency-Key", key)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return answer{w.Code, w.Header(), w.Body.String()}
}

func wantProblem(t *testing.T, a answer, status int, typ string) {
	t.Helper()
	if a.status != status {
		t.Fatalf("status = %d, want %d (body %s)", a.status, status, a.body)
	}
	if ct := a.header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("Content-Type = %q, want application/problem+json", ct)
	}
	if l := a.header.Get("Link"); l != "<"+typ+`>; rel="describedby"` {
		t.Fatalf("Link = %q", l)
	}
	var p struct {
		Type   string
		Status int
		Title  string
	}
	if err := json.Unmarshal([]byte(a.body), &p); err != nil {
		t.Fatalf("problem body %q: %v", a.body, err)
	}
	if p.Type != typ || p.Status != status || p.Title == "" {
		t.Fatalf("problem = %+v, want type %s status %d", p, typ, status)
	}
}

func tenantScope(r *http.Request) (string, error) { return r.Header.Get("X-Account"), nil }

// Verification 1: the same key twice in sequence makes one payment and the
// same answer.
func TestSameKeyTwiceInSequence(t *testing.T) {
	eachStore(t, func(t *testing.T, b *backend) {
		h := Middleware(b.store)(paymentHandler(b, 0))
		key := NewKey()
		first := do(t, h, "POST", key, `{"amount": 100}`)
		second := do(t, h, "POST", key, `{"amount":100}`) // same JSON, other spacing
		if first.status != http.StatusCreated || second.status != http.StatusCreated {
			t.Fatalf("statuses %d, %d; want 201, 201", first.status, second.status)
		}
		if first.body != second.body {
			t.Fatalf("bodies differ:\n%s\n%s", first.body, second.body)
		}
		if first.header.Get("Idempotent-Replayed") != "" || second.header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("Idempotent-Replayed = %q, %q; want \"\", \"true\"",
				first.header.Get("Idempotent-Replayed"), second.header.Get("Idempotent-Replayed"))
		}
		if got := second.header.Get("Location"); got != first.header.Get("Location") || got == "" {
			t.Fatalf("replayed Location = %q, want %q", got, first.header.Get("Location"))
		}
		if second.header.Get("X-Not-Replayed") != "" {
			t.Fatalf("header outside the allow-list was replayed")
		}
		b.wantOnce(t)
	})
}

// Verification 2: 50 concurrent requests with one key make one payment; the
// others get 409 or the replay.
func TestConcurrentSameKey(t *testing.T) {
	eachStore(t, func(t *testing.T, b *backend) {
		srv := httptest.NewServer(Middleware(b.store)(paymentHandler(b, 50*time.Millisecond)))
		defer srv.Close()
		key := NewKey()
		const n = 50
		answers := make([]answer, n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range n {
			wg.Go(func() {
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
				answers[i] = answer{resp.StatusCode, resp.Header, string(body)}
			})
		}
		close(start)
		wg.Wait()
		created, conflicts, fresh := 0, 0, 0
		var createdBody string
		for _, a := range answers {
			switch a.status {
			case http.StatusCreated:
				created++
				if a.header.Get("Idempotent-Replayed") != "true" {
					fresh++
				}
				if createdBody != "" && a.body != createdBody {
					t.Errorf("201 bodies differ: %s vs %s", a.body, createdBody)
				}
				createdBody = a.body
			case http.StatusConflict:
				conflicts++
				if a.header.Get("Retry-After") == "" {
					t.Errorf("409 without Retry-After")
				}
			default:
				t.Errorf("unexpected answer %d %s", a.status, a.body)
			}
		}
		if fresh != 1 || created+conflicts != n {
			t.Fatalf("fresh 201 = %d (want 1), 201 = %d, 409 = %d", fresh, created, conflicts)
		}
		b.wantOnce(t)
	})
}

// Verification 3: the same key with another body answers 422.
func TestSameKeyOtherBody(t *testing.T) {
	eachStore(t, func(t *testing.T, b *backend) {
		h := Middleware(b.store)(paymentHandler(b, 0))
		key := NewKey()
		if a := do(t, h, "POST", key, `{"amount":100}`); a.status != http.StatusCreated {
			t.Fatalf("first status %d", a.status)
		}
		wantProblem(t, do(t, h, "POST", key, `{"amount":101}`), http.StatusUnprocessableEntity, ProblemKeyReused)
		if n := b.payments(t); n != 1 {
			t.Fatalf("payments = %d, want 1", n)
		}
	})
}

func TestKeyValidation(t *testing.T) {
	b := newMemoryBackend(t)
	h := Middleware(b.store, WithMaxBodyBytes(64))(paymentHandler(b, 0))
	wantProblem(t, do(t, h, "POST", "", `{"amount":1}`), 400, ProblemKeyMissing)
	// "a, b" is what two header lines become once an intermediary joins them.
	for _, k := range []string{`""`, "  ", strings.Repeat("k", 256), "caf\u00e9", "a\x01b", `"unterminated`, `"a";p=1`,
		"a, b", "a,b", `"a", "b"`} {
		r := httptest.NewRequest("POST", "/payments", strings.NewReader(`{"amount":1}`))
		r.Header["Idempotency-Key"] = []string{k}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		wantProblem(t, answer{w.Code, w.Header(), w.Body.String()}, 400, ProblemKeyInvalid)
	}
	// Two headers are ambiguous.
	r := httptest.NewRequest("POST", "/payments", strings.NewReader(`{"amount":1}`))
	r.Header["Idempotency-Key"] = []string{"a", "b"}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	wantProblem(t, answer{w.Code, w.Header(), w.Body.String()}, 400, ProblemKeyInvalid)
	// 255 characters is the limit, accepted.
	if a := do(t, h, "POST", strings.Repeat("k", 255), `{"amount":1}`); a.status != 201 {
		t.Fatalf("255-character key: status %d", a.status)
	}
	wantProblem(t, do(t, h, "POST", NewKey(), `{"amount":1,"pad":"`+strings.Repeat("x", 64)+`"}`), 413, ProblemBodyTooLarge)
	// A body that fails mid-read.
	r = httptest.NewRequest("POST", "/payments", io.MultiReader(strings.NewReader(`{"am`), iotest.ErrReader(errors.New("reset"))))
	r.Header.Set("Idempotency-Key", NewKey())
	w = httptest.NewRecorder()
	h.ServeHTTP(w, r)
	wantProblem(t, answer{w.Code, w.Header(), w.Body.String()}, 400, ProblemBodyUnreadable)
	// GET passes through without a key; PATCH needs one.
	if a := do(t, h, "GET", "", ""); a.status != 400 || a.body != `{"title":"bad payment"}` {
		t.Fatalf("GET went through the middleware: %d %s", a.status, a.body)
	}
	wantProblem(t, do(t, h, "PATCH", "", `{}`), 400, ProblemKeyMissing)
	if n := b.calls.Load(); n != 2 {
		t.Fatalf("handler ran %d times, want 2 (valid key, GET)", n)
	}
}

func TestTwoTenantsSameKey(t *testing.T) {
	eachStore(t, func(t *testing.T, b *backend) {
		h := Middleware(b.store, WithScope(tenantScope))(paymentHandler(b, 0))
		key := NewKey()
		a1 := do(t, h, "POST", key, `{"amount":5}`, "X-Account", "alice")
		a2 := do(t, h, "POST", key, `{"amount":5}`, "X-Account", "bob")
		if a1.status != 201 || a2.status != 201 || a2.header.Get("Idempotent-Replayed") != "" {
			t.Fatalf("answers %d, %d (replayed %q)", a1.status, a2.status, a2.header.Get("Idempotent-Replayed"))
		}
		if n := b.payments(t); n != 2 {
			t.Fatalf("payments = %d, want 2", n)
		}
	})
}

// A 5xx is not stored: the retry runs the handler again and succeeds.
func TestServerErrorNotReplayed(t *testing.T) {
	eachStore(t, func(t *testing.T, b *backend) {
		var fail atomic.Bool
		fail.Store(true)
		inner := paymentHandler(b, 0)
		h := Middleware(b.store)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if fail.Swap(false) {
				// Business write first, then failure: it must be rolled back.
				if _, err := b.addPayment(r.Context(), 1); err != nil {
					t.Errorf("addPayment: %v", err)
				}
				http.Error(w, "boom", http.StatusInternalServerError)
				return
			}
			inner.ServeHTTP(w, r)
		}))
		key := NewKey()
		if a := do(t, h, "POST", key, `{"amount":3}`); a.status != 500 {
			t.Fatalf("first status %d, want 500", a.status)
		}
		if n := b.payments(t); n != 0 {
			t.Fatalf("payments after 500 = %d, want 0 (rolled back)", n)
		}
		a := do(t, h, "POST", key, `{"amount":3}`)
		if a.status != 201 || a.header.Get("Idempotent-Replayed") != "" {
			t.Fatalf("retry: %d replayed=%q, want a fresh 201", a.status, a.header.Get("Idempotent-Replayed"))
		}
		if n := b.payments(t); n != 1 {
			t.Fatalf("payments = %d, want 1", n)
		}
	})
}

// A panicking handler releases the key, stores nothing and re-panics.
func TestPanicReleases(t *testing.T) {
	eachStore(t, func(t *testing.T, b *backend) {
		var panicked atomic.Bool
		inner := paymentHandler(b, 0)
		h := Middleware(b.store)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !panicked.Swap(true) {
				b.addPayment(r.Context(), 1)
				panic("handler bug")
			}
			inner.ServeHTTP(w, r)
		}))
		key := NewKey()
		func() {
			defer func() {
				if v := recover(); v != "handler bug" {
					t.Fatalf("recovered %v, want the handler's panic", v)
				}
			}()
			do(t, h, "POST", key, `{"amount":3}`)
		}()
		if _, err := b.store.Lookup(context.Background(), "", key); !errors.Is(err, ErrNotFound) {
			t.Fatalf("key after panic: %v, want ErrNotFound", err)
		}
		if a := do(t, h, "POST", key, `{"amount":3}`); a.status != 201 {
			t.Fatalf("retry after panic: %d", a.status)
		}
		if n := b.payments(t); n != 1 {
			t.Fatalf("payments = %d, want 1", n)
		}
	})
}

// A deterministic 4xx is stored and replayed; a transient one (429) is not.
func TestClientErrorsStored(t *testing.T) {
	eachStore(t, func(t *testing.T, b *backend) {
		h := Middleware(b.store)(paymentHandler(b, 0))
		key := NewKey()
		do(t, h, "POST", key, `{"amount":-1}`)
		a := do(t, h, "POST", key, `{"amount":-1}`)
		if a.status != 400 || a.header.Get("Idempotent-Replayed") != "true" || b.calls.Load() != 1 {
			t.Fatalf("400 not replayed: %d %q calls=%d", a.status, a.header.Get("Idempotent-Replayed"), b.calls.Load())
		}
		var n atomic.Int64
		h429 := Middleware(b.store)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n.Add(1)
			w.WriteHeader(http.StatusTooManyRequests)
		}))
		key = NewKey()
		do(t, h429, "POST", key, `{}`)
		do(t, h429, "POST", key, `{}`)
		if n.Load() != 2 {
			t.Fatalf("429 handler ran %d times, want 2", n.Load())
		}
	})
}

// failingStore is a store whose every call fails, as when it is
// unreachable.
type failingStore struct{ Store }

var errDown = errors.New("connection refused")

func (failingStore) Claim(context.Context, ClaimRequest) (ClaimResult, error) {
	return ClaimResult{}, fmt.Errorf("claim: %w", errDown)
}

func TestStoreDown(t *testing.T) {
	check := func(t *testing.T, s Store) {
		var calls atomic.Int64
		var logged atomic.Int64
		h := Middleware(s, WithErrorHandler(func(*http.Request, error) { logged.Add(1) }))(
			http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1) }))
		a := do(t, h, "POST", NewKey(), `{"amount":1}`)
		wantProblem(t, a, http.StatusServiceUnavailable, ProblemStoreUnavailable)
		if a.header.Get("Retry-After") == "" {
			t.Fatalf("503 without Retry-After")
		}
		if calls.Load() != 0 {
			t.Fatalf("handler ran with the store down")
		}
		if logged.Load() != 1 {
			t.Fatalf("error handler called %d times, want 1", logged.Load())
		}
	}
	t.Run("memory", func(t *testing.T) { check(t, failingStore{NewMemoryStore()}) })
	t.Run("postgres", func(t *testing.T) {
		db := schemaDB(t)
		s, err := NewPostgresStore(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		db.Close() // the database goes away
		check(t, s)
	})
}

// A stale owner (its lease passed, the key was taken over and completed)
// cannot complete: its work is rolled back and it answers 409 lease-lost.
func TestStaleOwnerRejected(t *testing.T) {
	eachStore(t, func(t *testing.T, b *backend) {
		release := make(chan struct{})
		entered := make(chan struct{}, 1)
		var first atomic.Bool
		first.Store(true)
		inner := paymentHandler(b, 0)
		h := Middleware(b.store, WithLease(time.Second))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if first.Swap(false) {
				if _, err := b.addPayment(r.Context(), 1); err != nil {
					t.Errorf("addPayment: %v", err)
				}
				entered <- struct{}{}
				<-release // outlive the lease
				w.WriteHeader(http.StatusCreated)
				return
			}
			inner.ServeHTTP(w, r)
		}))
		key := NewKey()
		stale := make(chan answer)
		go func() { stale <- do(t, h, "POST", key, `{"amount":1}`) }()
		<-entered
		if a := do(t, h, "POST", key, `{"amount":1}`); a.status != http.StatusConflict {
			t.Fatalf("during lease: %d, want 409", a.status)
		}
		time.Sleep(1100 * time.Millisecond)
		fresh := do(t, h, "POST", key, `{"amount":1}`)
		if fresh.status != 201 {
			t.Fatalf("takeover: %d %s", fresh.status, fresh.body)
		}
		close(release)
		wantProblem(t, <-stale, http.StatusConflict, ProblemLeaseLost)
		if n := b.payments(t); n != 1 {
			t.Fatalf("payments = %d, want 1", n)
		}
		if a := do(t, h, "POST", key, `{"amount":1}`); a.body != fresh.body || a.header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("replay after takeover: %d %s, want %s", a.status, a.body, fresh.body)
		}
	})
}

func TestReplayBodyAndStatusExact(t *testing.T) {
	eachStore(t, func(t *testing.T, b *backend) {
		h := Middleware(b.store)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/octet-stream")
			w.WriteHeader(http.StatusAccepted)
			w.Write([]byte{0, 1, 2, 0xff})
		}))
		key := NewKey()
		do(t, h, "POST", key, "x")
		a := do(t, h, "POST", key, "x")
		if a.status != http.StatusAccepted || !bytes.Equal([]byte(a.body), []byte{0, 1, 2, 0xff}) ||
			a.header.Get("Content-Type") != "application/octet-stream" {
			t.Fatalf("replay = %d %q %q", a.status, a.body, a.header.Get("Content-Type"))
		}
	})
}

func TestResponseTooLarge(t *testing.T) {
	eachStore(t, func(t *testing.T, b *backend) {
		h := Middleware(b.store, WithMaxResponseBytes(10))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b.addPayment(r.Context(), 1)
			w.Write([]byte(strings.Repeat("x", 11)))
		}))
		wantProblem(t, do(t, h, "POST", NewKey(), "{}"), 500, ProblemResponseTooLarge)
		if n := b.payments(t); n != 0 {
			t.Fatalf("payments = %d, want 0", n)
		}
	})
}

// A handler whose transaction failed (it ignored the error and answered
// 201) cannot complete: nothing is stored, the key is released, 503.
func TestFailedTransactionReleases(t *testing.T) {
	b := newPostgresBackend(t)
	var fail atomic.Bool
	fail.Store(true)
	inner := paymentHandler(b, 0)
	h := Middleware(b.store)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if fail.Swap(false) {
			b.addPayment(r.Context(), 1)
			Tx(r.Context()).ExecContext(r.Context(), `INSERT INTO no_such_table VALUES (1)`) // error ignored
			w.WriteHeader(http.StatusCreated)
			return
		}
		inner.ServeHTTP(w, r)
	}))
	key := NewKey()
	wantProblem(t, do(t, h, "POST", key, `{"amount":2}`), http.StatusServiceUnavailable, ProblemStoreUnavailable)
	if _, err := b.store.Lookup(context.Background(), "", key); !errors.Is(err, ErrNotFound) {
		t.Fatalf("key after failed transaction: %v, want ErrNotFound", err)
	}
	if n := b.payments(t); n != 0 {
		t.Fatalf("payments = %d, want 0", n)
	}
	if a := do(t, h, "POST", key, `{"amount":2}`); a.status != 201 || b.payments(t) != 1 {
		t.Fatalf("retry: %d, payments %d", a.status, b.payments(t))
	}
}
