package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

// ClaimRequest is a claim of key in tenant "t" with a one-byte fingerprint.
func ClaimRequest(key string, fp byte, lease, ttl time.Duration) idempotency.ClaimRequest {
	return idempotency.ClaimRequest{Tenant: "t", Key: key, Fingerprint: []byte{fp}, LeaseTTL: lease, TTL: ttl}
}

// CreatedWithTTL returns, for a TTL, the middleware over s with that TTL
// around a handler that answers 201 and counts its runs in calls.
func CreatedWithTTL(s idempotency.Store, calls *atomic.Int64) func(ttl time.Duration) http.Handler {
	return func(ttl time.Duration) http.Handler {
		return idempotency.Middleware(s, idempotency.WithTTL(ttl))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			calls.Add(1)
			w.WriteHeader(201)
		}))
	}
}

// Takeover checks, on the store mk makes (with the function that lets time
// pass on that store's clock), that a crashed attempt's key is taken over
// after its lease with a newer fence; that the crashed owner can then
// neither complete nor save a step; and that its release does not disturb
// the new owner.
func Takeover(t *testing.T, mk func(t *testing.T) (idempotency.Store, func(time.Duration))) {
	ctx := context.Background()
	s, wait := mk(t)
	const lease = 500 * time.Millisecond
	old, err := s.Claim(ctx, ClaimRequest("k", 1, lease, time.Hour))
	if err != nil || old.Outcome != idempotency.Acquired {
		t.Fatalf("claim = %+v, %v", old, err)
	}
	if r, _ := s.Claim(ctx, ClaimRequest("k", 1, lease, time.Hour)); r.Outcome != idempotency.InProgress || r.RetryAfter <= 0 || r.RetryAfter > lease {
		t.Fatalf("second claim = %v retry-after %v, want in-progress", r.Outcome, r.RetryAfter)
	}
	if r, _ := s.Claim(ctx, ClaimRequest("k", 2, lease, time.Hour)); r.Outcome != idempotency.Mismatch {
		t.Fatalf("other fingerprint = %v, want mismatch", r.Outcome)
	}
	wait(lease + 50*time.Millisecond)
	if r, _ := s.Claim(ctx, ClaimRequest("k", 2, lease, time.Hour)); r.Outcome != idempotency.Mismatch {
		t.Fatalf("takeover with another fingerprint = %v, want mismatch", r.Outcome)
	}
	nw, err := s.Claim(ctx, ClaimRequest("k", 1, time.Minute, time.Hour))
	if err != nil || nw.Outcome != idempotency.TakenOver || nw.Lease.Fence <= old.Lease.Fence {
		t.Fatalf("takeover = %+v, %v; want a newer fence than %d", nw, err, old.Lease.Fence)
	}
	if err := s.SaveStep(ctx, old.Lease, "x", json.RawMessage(`1`)); !errors.Is(err, idempotency.ErrLeaseLost) {
		t.Fatalf("stale SaveStep: %v, want ErrLeaseLost", err)
	}
	w, err := s.Begin(ctx, old.Lease)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Complete(ctx, &idempotency.Response{Status: 201}); !errors.Is(err, idempotency.ErrLeaseLost) {
		t.Fatalf("stale Complete: %v, want ErrLeaseLost", err)
	}
	if err := s.Release(ctx, old.Lease); err != nil {
		t.Fatalf("stale Release: %v", err)
	}
	if r, _ := s.Claim(ctx, ClaimRequest("k", 1, time.Minute, time.Hour)); r.Outcome != idempotency.InProgress {
		t.Fatalf("after stale release = %v, want in-progress (new owner kept)", r.Outcome)
	}
	w, err = s.Begin(ctx, nw.Lease)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Complete(ctx, &idempotency.Response{Status: 201, Body: []byte("ok")}); err != nil {
		t.Fatalf("new owner Complete: %v", err)
	}
	r, err := s.Claim(ctx, ClaimRequest("k", 1, time.Minute, time.Hour))
	if err != nil || r.Outcome != idempotency.Completed || r.Response.Status != 201 || string(r.Response.Body) != "ok" {
		t.Fatalf("after completion = %+v, %v", r, err)
	}
	rec, err := s.Lookup(ctx, "t", "k")
	if err != nil || !rec.Completed || rec.Fence != nw.Lease.Fence {
		t.Fatalf("Lookup = %+v, %v", rec, err)
	}
	// A release after a release-and-reclaim must not touch the new
	// claim: fences are never reused.
	a, _ := s.Claim(ctx, ClaimRequest("k2", 1, time.Minute, time.Hour))
	s.Release(ctx, a.Lease)
	b, _ := s.Claim(ctx, ClaimRequest("k2", 1, time.Minute, time.Hour))
	if b.Outcome != idempotency.Acquired || b.Lease.Fence == a.Lease.Fence {
		t.Fatalf("reclaim after release = %+v (first fence %d)", b, a.Lease.Fence)
	}
	w, _ = s.Begin(ctx, a.Lease)
	if err := w.Complete(ctx, &idempotency.Response{Status: 200}); !errors.Is(err, idempotency.ErrLeaseLost) {
		t.Fatalf("complete with released fence: %v, want ErrLeaseLost", err)
	}
}
