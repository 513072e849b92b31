package idempotency

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeClock is a settable clock for the memory store.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func claimReq(key string, fp byte, lease, ttl time.Duration) ClaimRequest {
	return ClaimRequest{Tenant: "t", Key: key, Fingerprint: []byte{fp}, LeaseTTL: lease, TTL: ttl}
}

// A crashed attempt's key is taken over after its lease with a newer fence;
// the crashed owner can then neither complete nor save a step, and its
// release does not disturb the new owner.
func TestTakeoverFencesStaleOwner(t *testing.T) {
	ctx := context.Background()
	clock := &fakeClock{now: time.Unix(1e9, 0)}
	stores := map[string]func(t *testing.T) (Store, func(time.Duration)){
		"memory": func(t *testing.T) (Store, func(time.Duration)) {
			return NewMemoryStore(WithClock(clock.Now)), clock.Add
		},
		"postgres": func(t *testing.T) (Store, func(time.Duration)) {
			s, err := NewPostgresStore(ctx, schemaDB(t))
			if err != nil {
				t.Fatal(err)
			}
			return s, func(d time.Duration) { time.Sleep(d) }
		},
		"redis": func(t *testing.T) (Store, func(time.Duration)) {
			s, _ := redisStore(t)
			return s, func(d time.Duration) { time.Sleep(d) }
		},
	}
	for name, mk := range stores {
		t.Run(name, func(t *testing.T) {
			s, wait := mk(t)
			const lease = 500 * time.Millisecond
			old, err := s.Claim(ctx, claimReq("k", 1, lease, time.Hour))
			if err != nil || old.Outcome != Acquired {
				t.Fatalf("claim = %+v, %v", old, err)
			}
			if r, _ := s.Claim(ctx, claimReq("k", 1, lease, time.Hour)); r.Outcome != InProgress || r.RetryAfter <= 0 || r.RetryAfter > lease {
				t.Fatalf("second claim = %v retry-after %v, want in-progress", r.Outcome, r.RetryAfter)
			}
			if r, _ := s.Claim(ctx, claimReq("k", 2, lease, time.Hour)); r.Outcome != Mismatch {
				t.Fatalf("other fingerprint = %v, want mismatch", r.Outcome)
			}
			wait(lease + 50*time.Millisecond)
			if r, _ := s.Claim(ctx, claimReq("k", 2, lease, time.Hour)); r.Outcome != Mismatch {
				t.Fatalf("takeover with another fingerprint = %v, want mismatch", r.Outcome)
			}
			nw, err := s.Claim(ctx, claimReq("k", 1, time.Minute, time.Hour))
			if err != nil || nw.Outcome != TakenOver || nw.Lease.Fence <= old.Lease.Fence {
				t.Fatalf("takeover = %+v, %v; want a newer fence than %d", nw, err, old.Lease.Fence)
			}
			if err := s.SaveStep(ctx, old.Lease, "x", json.RawMessage(`1`)); !errors.Is(err, ErrLeaseLost) {
				t.Fatalf("stale SaveStep: %v, want ErrLeaseLost", err)
			}
			w, err := s.Begin(ctx, old.Lease)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Complete(ctx, &Response{Status: 201}); !errors.Is(err, ErrLeaseLost) {
				t.Fatalf("stale Complete: %v, want ErrLeaseLost", err)
			}
			if err := s.Release(ctx, old.Lease); err != nil {
				t.Fatalf("stale Release: %v", err)
			}
			if r, _ := s.Claim(ctx, claimReq("k", 1, time.Minute, time.Hour)); r.Outcome != InProgress {
				t.Fatalf("after stale release = %v, want in-progress (new owner kept)", r.Outcome)
			}
			w, err = s.Begin(ctx, nw.Lease)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Complete(ctx, &Response{Status: 201, Body: []byte("ok")}); err != nil {
				t.Fatalf("new owner Complete: %v", err)
			}
			r, err := s.Claim(ctx, claimReq("k", 1, time.Minute, time.Hour))
			if err != nil || r.Outcome != Completed || r.Response.Status != 201 || string(r.Response.Body) != "ok" {
				t.Fatalf("after completion = %+v, %v", r, err)
			}
			rec, err := s.Lookup(ctx, "t", "k")
			if err != nil || !rec.Completed || rec.Fence != nw.Lease.Fence {
				t.Fatalf("Lookup = %+v, %v", rec, err)
			}
			// A release after a release-and-reclaim must not touch the new
			// claim: fences are never reused.
			a, _ := s.Claim(ctx, claimReq("k2", 1, time.Minute, time.Hour))
			s.Release(ctx, a.Lease)
			b, _ := s.Claim(ctx, claimReq("k2", 1, time.Minute, time.Hour))
			if b.Outcome != Acquired || b.Lease.Fence == a.Lease.Fence {
				t.Fatalf("reclaim after release = %+v (first fence %d)", b, a.Lease.Fence)
			}
			w, _ = s.Begin(ctx, a.Lease)
			if err := w.Complete(ctx, &Response{Status: 200}); !errors.Is(err, ErrLeaseLost) {
				t.Fatalf("complete with released fence: %v, want ErrLeaseLost", err)
			}
		})
	}
}

// Keys expire after the TTL (24 h by default): the key is absent on read,
// may be reused for another request, and the reaper removes it.
func TestExpiry(t *testing.T) {
	ctx := context.Background()
	t.Run("memory", func(t *testing.T) {
		clock := &fakeClock{now: time.Unix(1e9, 0)}
		s := NewMemoryStore(WithClock(clock.Now))
		var calls atomic.Int64
		h := Middleware(s)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			calls.Add(1)
			w.WriteHeader(201)
		}))
		do(t, h, "POST", "k", `{"a":1}`)
		rec, err := s.Lookup(ctx, "", "k")
		if err != nil || !rec.ExpiresAt.Equal(clock.Now().Add(DefaultTTL)) {
			t.Fatalf("Lookup = %+v, %v; want expiry in 24 h", rec, err)
		}
		clock.Add(DefaultTTL - time.Second)
		if a := do(t, h, "POST", "k", `{"a":1}`); a.header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("replay before expiry missing")
		}
		clock.Add(time.Second)
		if _, err := s.Lookup(ctx, "", "k"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Lookup after expiry: %v, want ErrNotFound", err)
		}
		if n, _ := s.Reap(ctx); n != 1 || s.Len() != 0 {
			t.Fatalf("Reap = %d, Len = %d; want 1, 0", n, s.Len())
		}
		if a := do(t, h, "POST", "k", `{"a":2}`); a.status != 201 || calls.Load() != 2 {
			t.Fatalf("reuse after expiry: %d, calls %d", a.status, calls.Load())
		}
	})
	t.Run("postgres", func(t *testing.T) {
		db := schemaDB(t)
		s, err := NewPostgresStore(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		var calls atomic.Int64
		mk := createdWithTTL(s, &calls)
		do(t, mk(DefaultTTL), "POST", "day", `{}`)
		var hours float64
		if err := db.QueryRow(`SELECT extract(epoch FROM expires_at - created_at) / 3600 FROM idempotency_keys`).Scan(&hours); err != nil || hours != 24 {
			t.Fatalf("default TTL = %v h, %v; want 24", hours, err)
		}
		h := mk(time.Second)
		for i := range 5 {
			do(t, h, "POST", "short"+string(rune('0'+i)), `{"a":1}`)
		}
		if a := do(t, h, "POST", "short0", `{"a":1}`); a.header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("replay before expiry missing")
		}
		time.Sleep(1100 * time.Millisecond)
		if _, err := s.Lookup(ctx, "", "short1"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Lookup after expiry: %v, want ErrNotFound", err)
		}
		if a := do(t, h, "POST", "short0", `{"a":2}`); a.status != 201 || a.header.Get("Idempotent-Replayed") != "" {
			t.Fatalf("reuse after expiry: %d %q", a.status, a.header.Get("Idempotent-Replayed"))
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
	})
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

// The memory store stays within its bound without forgetting a live key:
// it removes expired entries to make room, and refuses a new key
// (ErrStoreFull) rather than evict a completed or in-progress one.
func TestMemoryBounded(t *testing.T) {
	ctx := context.Background()
	clock := &fakeClock{now: time.Unix(1e9, 0)}
	s := NewMemoryStore(WithMaxEntries(4), WithShards(1), WithClock(clock.Now))
	claim := func(k string, ttl time.Duration) (ClaimResult, error) {
		return s.Claim(ctx, ClaimRequest{Key: k, Fingerprint: []byte{1}, LeaseTTL: time.Hour, TTL: ttl})
	}
	mustClaim := func(k string, ttl time.Duration) ClaimResult {
		t.Helper()
		r, err := claim(k, ttl)
		if err != nil {
			t.Fatalf("claim %s: %v", k, err)
		}
		return r
	}
	complete := func(r ClaimResult) {
		w, _ := s.Begin(ctx, r.Lease)
		if err := w.Complete(ctx, &Response{Status: 200}); err != nil {
			t.Fatal(err)
		}
	}
	complete(mustClaim("done1", 2*time.Hour))
	mustClaim("busy", 2*time.Hour)
	complete(mustClaim("short", time.Minute))
	complete(mustClaim("done2", 2*time.Hour))
	clock.Add(2 * time.Minute) // "short" expired
	mustClaim("new1", 2*time.Hour)
	if _, err := s.Lookup(ctx, "", "short"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("expired entry not removed")
	}
	_, err := claim("new2", 2*time.Hour)
	var ra interface{ RetryAfter() time.Duration }
	if !errors.Is(err, ErrStoreFull) || !errors.As(err, &ra) || ra.RetryAfter() != time.Minute {
		t.Fatalf("claim in a store full of live keys: %v, want ErrStoreFull with Retry-After 1m", err)
	}
	for _, k := range []string{"done1", "busy", "done2", "new1"} {
		if _, err := s.Lookup(ctx, "", k); err != nil {
			t.Fatalf("live key %s removed: %v", k, err)
		}
	}
	if s.Len() != 4 {
		t.Fatalf("Len = %d, want 4", s.Len())
	}
	clock.Add(2*time.Hour - time.Minute) // done1, busy's TTL and done2 expire; busy's lease too
	complete(mustClaim("new2", 2*time.Hour))
	if r := mustClaim("done1", 2*time.Hour); r.Outcome != Acquired {
		t.Fatalf("expired done1 = %v, want acquired anew", r.Outcome)
	}
}

// Steps: a retry after a failure resumes after the recorded steps instead
// of repeating them, and the downstream key is the same on every attempt.
func TestStepsResume(t *testing.T) {
	eachStore(t, func(t *testing.T, b *backend) {
		var charges atomic.Int64
		var keys sync.Map
		var failAfterCharge atomic.Bool
		failAfterCharge.Store(true)
		h := Middleware(b.store)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ctx := r.Context()
			id, err := StepValue(ctx, "charge", func(ctx context.Context) (string, error) {
				charges.Add(1)
				keys.Store(StepKey(ctx), true)
				return "ch_1", nil
			})
			if err != nil {
				http.Error(w, err.Error(), 500)
				return
			}
			if failAfterCharge.Swap(false) {
				http.Error(w, "crash after the charge", http.StatusBadGateway)
				return
			}
			if err := Step(ctx, "email", func(ctx context.Context) error {
				keys.Store(StepKey(ctx), true)
				return nil
			}); err != nil {
				http.Error(w, err.Error(), 500)
				return
			}
			b.addPayment(ctx, 1)
			w.WriteHeader(201)
			w.Write([]byte(id))
		}))
		key := NewKey()
		if a := do(t, h, "POST", key, `{}`); a.status != 502 {
			t.Fatalf("first attempt: %d", a.status)
		}
		// Other request, same key: the recorded step binds the key.
		wantProblem(t, do(t, h, "POST", key, `{"other":1}`), 422, ProblemKeyReused)
		a := do(t, h, "POST", key, `{}`)
		if a.status != 201 || a.body != "ch_1" {
			t.Fatalf("retry: %d %q", a.status, a.body)
		}
		if charges.Load() != 1 {
			t.Fatalf("charged %d times, want 1", charges.Load())
		}
		n := 0
		keys.Range(func(k, _ any) bool {
			n++
			if k == "" || k == key {
				t.Errorf("step key %q", k)
			}
			return true
		})
		if n != 2 {
			t.Fatalf("%d distinct step keys, want 2 (charge, email)", n)
		}
		if b.payments(t) != 1 {
			t.Fatalf("payments = %d", b.payments(t))
		}
		rec, err := b.store.Lookup(context.Background(), "", key)
		if err != nil || len(rec.Steps) != 2 || string(rec.Steps["charge"]) != `"ch_1"` {
			t.Fatalf("Lookup = %+v, %v", rec, err)
		}
	})
}

// Keys whose hashes collide are kept apart (the memory store chains them).
func TestMemoryHashCollisions(t *testing.T) {
	ctx := context.Background()
	s := NewMemoryStore(WithShards(1), WithMaxEntries(3))
	s.mask = 0 // every key hashes to 0
	claim := func(k string) ClaimResult {
		r, err := s.Claim(ctx, ClaimRequest{Key: k, Fingerprint: []byte(k), LeaseTTL: time.Hour, TTL: time.Hour})
		if err != nil {
			t.Fatalf("claim %s: %v", k, err)
		}
		return r
	}
	a, b, c := claim("a"), claim("b"), claim("c")
	if a.Outcome != Acquired || b.Outcome != Acquired || c.Outcome != Acquired {
		t.Fatalf("outcomes %v %v %v", a.Outcome, b.Outcome, c.Outcome)
	}
	w, _ := s.Begin(ctx, b.Lease)
	if err := w.Complete(ctx, &Response{Status: 201, Body: []byte("b")}); err != nil {
		t.Fatal(err)
	}
	if r := claim("b"); r.Outcome != Completed || string(r.Response.Body) != "b" {
		t.Fatalf("b = %+v", r)
	}
	if r := claim("a"); r.Outcome != InProgress {
		t.Fatalf("a = %v, want in-progress", r.Outcome)
	}
	if err := s.Release(ctx, c.Lease); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Lookup(ctx, "", "c"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("c after release: %v", err)
	}
	claim("d")
	if _, err := s.Claim(ctx, ClaimRequest{Key: "e", Fingerprint: []byte("e"), LeaseTTL: time.Hour, TTL: time.Hour}); !errors.Is(err, ErrStoreFull) {
		t.Fatalf("claim e in a full store: %v, want ErrStoreFull", err)
	}
	for _, k := range []string{"a", "b", "d"} {
		if r, err := s.Lookup(ctx, "", k); err != nil || r.Key != k {
			t.Fatalf("Lookup(%s) = %+v, %v", k, r, err)
		}
	}
	if s.Len() != 3 {
		t.Fatalf("Len = %d, want 3", s.Len())
	}
}

// An expired key whose attempt still holds a valid lease is neither
// recycled by a claim nor removed by the reaper.
func TestExpiryKeepsLiveLease(t *testing.T) {
	ctx := context.Background()
	t.Run("memory", func(t *testing.T) {
		clock := &fakeClock{now: time.Unix(1e9, 0)}
		s := NewMemoryStore(WithClock(clock.Now))
		s.Claim(ctx, claimReq("k", 1, time.Hour, time.Minute))
		clock.Add(2 * time.Minute)
		if r, _ := s.Claim(ctx, claimReq("k", 2, time.Hour, time.Minute)); r.Outcome != Mismatch {
			t.Fatalf("claim of an expired key with a live lease = %v, want mismatch", r.Outcome)
		}
	})
	t.Run("postgres", func(t *testing.T) {
		s, err := NewPostgresStore(ctx, schemaDB(t))
		if err != nil {
			t.Fatal(err)
		}
		s.Claim(ctx, claimReq("k", 1, time.Hour, 100*time.Millisecond))
		time.Sleep(200 * time.Millisecond)
		if r, err := s.Claim(ctx, claimReq("k", 1, time.Hour, time.Minute)); err != nil || r.Outcome != InProgress {
			t.Fatalf("claim of an expired key with a live lease = %v, %v; want in-progress", r.Outcome, err)
		}
		if n, err := s.Reap(ctx, 10); err != nil || n != 0 {
			t.Fatalf("Reap = %d, %v; want 0", n, err)
		}
	})
}

func TestMiddlewareOptions(t *testing.T) {
	var calls atomic.Int64
	h := func(opts ...Option) http.Handler {
		return Middleware(NewMemoryStore(), opts...)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			calls.Add(1)
			w.WriteHeader(201)
		}))
	}
	// Optional key: no key passes through (no idempotency), a key is honoured.
	opt := h(WithOptionalKey())
	do(t, opt, "POST", "", "{}")
	do(t, opt, "POST", "", "{}")
	do(t, opt, "POST", "k", "{}")
	if a := do(t, opt, "POST", "k", "{}"); a.header.Get("Idempotent-Replayed") != "true" || calls.Load() != 3 {
		t.Fatalf("optional key: calls %d, replayed %q", calls.Load(), a.header.Get("Idempotent-Replayed"))
	}
	// Other header and methods.
	calls.Store(0)
	custom := h(WithHeader("X-Request-Id"), WithMethods("PUT"))
	r := httptest.NewRequest("PUT", "/x", strings.NewReader("{}"))
	r.Header.Set("X-Request-Id", "abc")
	custom.ServeHTTP(httptest.NewRecorder(), r)
	w := httptest.NewRecorder()
	custom.ServeHTTP(w, r.Clone(context.Background()))
	if w.Header().Get("Idempotent-Replayed") != "true" || calls.Load() != 1 {
		t.Fatalf("custom header: calls %d", calls.Load())
	}
	if a := do(t, custom, "POST", "", "{}"); a.status != 201 { // POST no longer handled
		t.Fatalf("POST with WithMethods(PUT): %d", a.status)
	}
	// Storable: with 201 not storable, nothing is replayed.
	calls.Store(0)
	never := h(WithStorable(func(int) bool { return false }))
	do(t, never, "POST", "k", "{}")
	do(t, never, "POST", "k", "{}")
	if calls.Load() != 2 {
		t.Fatalf("WithStorable(false): calls %d, want 2", calls.Load())
	}
	// Scope errors answer 400.
	bad := h(WithScope(func(*http.Request) (string, error) { return "", errors.New("no account") }))
	wantProblem(t, do(t, bad, "POST", "k", "{}"), 400, ProblemScope)
}

// createdWithTTL returns, for a TTL, the middleware over s with that TTL
// around a handler that answers 201 and counts its runs in calls.
func createdWithTTL(s Store, calls *atomic.Int64) func(ttl time.Duration) http.Handler {
	return func(ttl time.Duration) http.Handler {
		return Middleware(s, WithTTL(ttl))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			calls.Add(1)
			w.WriteHeader(201)
		}))
	}
}
