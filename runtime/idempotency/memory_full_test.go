package idempotency

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/internal/reqtest"
)

// A memory store filled past its capacity never forgets a completed key
// inside its TTL: every keyed request that ran is replayed, never run a
// second time, and the requests beyond the capacity are refused with 503,
// Retry-After and ProblemStoreFull (the handler not run) until keys
// expire. The store used to evict the oldest completed keys, so their
// retries charged again.
func TestMemoryFullNeverRerunsCompletedKey(t *testing.T) {
	const capacity = 1000
	clock := reqtest.NewClock(time.Unix(1e9, 0))
	s := NewMemoryStore(WithMaxEntries(capacity), WithShards(4), WithClock(clock.Now))
	var runs atomic.Int64
	var full atomic.Int64
	h := Middleware(s, WithTTL(time.Hour), WithObserver(func(_ context.Context, e Event) {
		if e.Outcome == OutcomeStoreFull {
			full.Add(1)
		}
	}))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		runs.Add(1)
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, "payment %d", runs.Load())
	}))
	key := func(i int) string { return "key-" + strconv.Itoa(i) }
	done := map[int]string{} // key index -> first answer's body
	refused := 0
	for i := range 2 * capacity {
		a := reqtest.Do(t, h, "POST", key(i), `{}`)
		switch a.Status {
		case http.StatusCreated:
			done[i] = a.Body
		case http.StatusServiceUnavailable:
			reqtest.WantProblem(t, a, 503, ProblemStoreFull)
			if ra, err := strconv.Atoi(a.Header.Get("Retry-After")); err != nil || ra < 1 || ra > 60 {
				t.Fatalf("Retry-After %q, want 1 to 60 seconds", a.Header.Get("Retry-After"))
			}
			refused++
		default:
			t.Fatalf("request %d: %d %s", i, a.Status, a.Body)
		}
	}
	if len(done) > capacity || len(done) < capacity*9/10 || refused != 2*capacity-len(done) {
		t.Fatalf("%d requests ran, %d refused; want at most %d and nearly that many run", len(done), refused, capacity)
	}
	if runs.Load() != int64(len(done)) || full.Load() != int64(refused) {
		t.Fatalf("handler ran %d times, %d store-full events; want %d, %d", runs.Load(), full.Load(), len(done), refused)
	}
	// Retries of every completed key, inside the TTL, after the store
	// filled: replayed, not run.
	clock.Add(59 * time.Minute)
	for i, body := range done {
		a := reqtest.Do(t, h, "POST", key(i), `{}`)
		if a.Status != http.StatusCreated || a.Body != body || a.Header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("retry of completed key %d = %d %q (replayed %q); want the replay of %q", i, a.Status, a.Body,
				a.Header.Get("Idempotent-Replayed"), body)
		}
	}
	if runs.Load() != int64(len(done)) {
		t.Fatalf("a completed key ran again: %d runs for %d keys", runs.Load(), len(done))
	}
	// Past the TTL the keys expire and make room again.
	clock.Add(2 * time.Minute)
	if a := reqtest.Do(t, h, "POST", "after-expiry", `{}`); a.Status != http.StatusCreated {
		t.Fatalf("claim after expiry = %d %s, want 201", a.Status, a.Body)
	}
}
