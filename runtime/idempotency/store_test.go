package idempotency

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/internal/reqtest"
)

func claimReq(key string, fp byte, lease, ttl time.Duration) ClaimRequest {
	return ClaimRequest{Tenant: "t", Key: key, Fingerprint: []byte{fp}, LeaseTTL: lease, TTL: ttl}
}

// Keys expire after the TTL (24 h by default): the key is absent on read,
// may be reused for another request, and the reaper removes it.
func TestExpiry(t *testing.T) {
	ctx := context.Background()
	t.Run("memory", func(t *testing.T) {
		clock := reqtest.NewClock(time.Unix(1e9, 0))
		s := NewMemoryStore(WithClock(clock.Now))
		var calls atomic.Int64
		h := Middleware(s)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			calls.Add(1)
			w.WriteHeader(201)
		}))
		reqtest.Do(t, h, "POST", "k", `{"a":1}`)
		rec, err := s.Lookup(ctx, "", "k")
		if err != nil || !rec.ExpiresAt.Equal(clock.Now().Add(DefaultTTL)) {
			t.Fatalf("Lookup = %+v, %v; want expiry in 24 h", rec, err)
		}
		clock.Add(DefaultTTL - time.Second)
		if a := reqtest.Do(t, h, "POST", "k", `{"a":1}`); a.Header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("replay before expiry missing")
		}
		clock.Add(time.Second)
		if _, err := s.Lookup(ctx, "", "k"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Lookup after expiry: %v, want ErrNotFound", err)
		}
		if n, _ := s.Reap(ctx); n != 1 || s.Len() != 0 {
			t.Fatalf("Reap = %d, Len = %d; want 1, 0", n, s.Len())
		}
		if a := reqtest.Do(t, h, "POST", "k", `{"a":2}`); a.Status != 201 || calls.Load() != 2 {
			t.Fatalf("reuse after expiry: %d, calls %d", a.Status, calls.Load())
		}
	})
}

// The memory store stays within its bound without forgetting a live key:
// it removes expired entries to make room, and refuses a new key
// (ErrStoreFull) rather than evict a completed or in-progress one.
func TestMemoryBounded(t *testing.T) {
	ctx := context.Background()
	clock := reqtest.NewClock(time.Unix(1e9, 0))
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
		clock := reqtest.NewClock(time.Unix(1e9, 0))
		s := NewMemoryStore(WithClock(clock.Now))
		s.Claim(ctx, claimReq("k", 1, time.Hour, time.Minute))
		clock.Add(2 * time.Minute)
		if r, _ := s.Claim(ctx, claimReq("k", 2, time.Hour, time.Minute)); r.Outcome != Mismatch {
			t.Fatalf("claim of an expired key with a live lease = %v, want mismatch", r.Outcome)
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
	reqtest.Do(t, opt, "POST", "", "{}")
	reqtest.Do(t, opt, "POST", "", "{}")
	reqtest.Do(t, opt, "POST", "k", "{}")
	if a := reqtest.Do(t, opt, "POST", "k", "{}"); a.Header.Get("Idempotent-Replayed") != "true" || calls.Load() != 3 {
		t.Fatalf("optional key: calls %d, replayed %q", calls.Load(), a.Header.Get("Idempotent-Replayed"))
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
	if a := reqtest.Do(t, custom, "POST", "", "{}"); a.Status != 201 { // POST no longer handled
		t.Fatalf("POST with WithMethods(PUT): %d", a.Status)
	}
	// Storable: with 201 not storable, nothing is replayed.
	calls.Store(0)
	never := h(WithStorable(func(int) bool { return false }))
	reqtest.Do(t, never, "POST", "k", "{}")
	reqtest.Do(t, never, "POST", "k", "{}")
	if calls.Load() != 2 {
		t.Fatalf("WithStorable(false): calls %d, want 2", calls.Load())
	}
	// Scope errors answer 400.
	bad := h(WithScope(func(*http.Request) (string, error) { return "", errors.New("no account") }))
	reqtest.WantProblem(t, reqtest.Do(t, bad, "POST", "k", "{}"), 400, ProblemScope)
}
