package storetest

import (
	"context"
	"errors"
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
	"github.com/idemlint/idemlint/runtime/retry"
)

// flakyStore fails its first n claims, as an unreachable store does: the
// middleware answers them 503 with Retry-After.
type flakyStore struct {
	idempotency.Store
	fails atomic.Int64
}

func (s *flakyStore) Claim(ctx context.Context, req idempotency.ClaimRequest) (idempotency.ClaimResult, error) {
	if s.fails.Add(-1) >= 0 {
		return idempotency.ClaimResult{}, errors.New("store unreachable (injected)")
	}
	return s.Store.Claim(ctx, req)
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// keyLog records the key and arrival time of every request.
type keyLog struct {
	mu    sync.Mutex
	keys  []string
	times []time.Time
}

func (l *keyLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.keys = append(l.keys, r.Header.Get("Idempotency-Key"))
		l.times = append(l.times, time.Now())
		l.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

func (l *keyLog) distinct() (n int, attempts int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	seen := map[string]bool{}
	for _, k := range l.keys {
		seen[k] = true
	}
	return len(seen), len(l.keys)
}

// of repeating them, and the downstream key is the same on every attempt.
func testStepsResume(t *testing.T, b *Backend) {
	var charges atomic.Int64
	var keys sync.Map
	var failAfterCharge atomic.Bool
	failAfterCharge.Store(true)
	h := idempotency.Middleware(b.Store)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		id, err := idempotency.StepValue(ctx, "charge", func(ctx context.Context) (string, error) {
			charges.Add(1)
			keys.Store(idempotency.StepKey(ctx), true)
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
		if err := idempotency.Step(ctx, "email", func(ctx context.Context) error {
			keys.Store(idempotency.StepKey(ctx), true)
			return nil
		}); err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		b.AddPayment(ctx, 1)
		w.WriteHeader(201)
		w.Write([]byte(id))
	}))
	key := idempotency.NewKey()
	if a := reqtest.Do(t, h, "POST", key, `{}`); a.Status != 502 {
		t.Fatalf("first attempt: %d", a.Status)
	}
	// Other request, same key: the recorded step binds the key.
	reqtest.WantProblem(t, reqtest.Do(t, h, "POST", key, `{"other":1}`), 422, idempotency.ProblemKeyReused)
	a := reqtest.Do(t, h, "POST", key, `{}`)
	if a.Status != 201 || a.Body != "ch_1" {
		t.Fatalf("retry: %d %q", a.Status, a.Body)
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
	if b.Payments(t) != 1 {
		t.Fatalf("payments = %d", b.Payments(t))
	}
	rec, err := b.Store.Lookup(context.Background(), "", key)
	if err != nil || len(rec.Steps) != 2 || string(rec.Steps["charge"]) != `"ch_1"` {
		t.Fatalf("Lookup = %+v, %v", rec, err)
	}
}

// Verification 5: a client on runtime/retry.NewTransport against a server
// injecting 503s retries with bounded, jittered waits, stops at its
// deadline, and sends one key throughout, so the payment is made once.
func testRetryClientAgainstInjected503(t *testing.T, b *Backend) {
	// post sends a payment with no key (the transport mints one before
	// the first attempt) and checks the answer's status.
	post := func(t *testing.T, client *http.Client, url string, want int) {
		t.Helper()
		resp, err := client.Post(url+"/payments", "application/json", strings.NewReader(`{"amount":9}`))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Fatalf("status %d, want %d", resp.StatusCode, want)
		}
	}

	t.Run("recovers", func(t *testing.T) {
		store := &flakyStore{Store: b.Store}
		store.fails.Store(3)
		var log keyLog
		srv := httptest.NewServer(log.wrap(idempotency.Middleware(store)(PaymentHandler(b, 0))))
		defer srv.Close()
		var waits []time.Duration
		client := &http.Client{Transport: retry.NewTransport(srv.Client().Transport, retry.Policy{
			MaxAttempts: 6, BaseDelay: 20 * time.Millisecond, MaxDelay: 100 * time.Millisecond, Deadline: 5 * time.Second,
			OnRetry: func(_ int, _ error, w time.Duration) { waits = append(waits, w) },
		})}
		post(t, client, srv.URL, 201) // after the injected 503s
		keys, attempts := log.distinct()
		if attempts != 4 || keys != 1 || log.keys[0] == "" {
			t.Fatalf("%d attempts with %d distinct keys (%q), want 4 with 1", attempts, keys, log.keys)
		}
		// The middleware's Retry-After (1 s) is clamped to MaxDelay.
		for _, w := range waits {
			if w < 0 || w > 100*time.Millisecond {
				t.Fatalf("wait %v outside [0, MaxDelay]", w)
			}
		}
		if b.Payments(t) != 1 {
			t.Fatalf("payments = %d, want 1", b.Payments(t))
		}
	})

	t.Run("bounded and jittered", func(t *testing.T) {
		var log keyLog
		srv := httptest.NewServer(log.wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusServiceUnavailable) // always down, no Retry-After
		})))
		defer srv.Close()
		var mu sync.Mutex
		var waits []time.Duration
		client := &http.Client{Transport: retry.NewTransport(srv.Client().Transport, retry.Policy{
			MaxAttempts: 5, BaseDelay: 10 * time.Millisecond, MaxDelay: 40 * time.Millisecond, Deadline: 5 * time.Second,
			OnRetry: func(_ int, _ error, w time.Duration) { mu.Lock(); waits = append(waits, w); mu.Unlock() },
		})}
		for range 4 {
			post(t, client, srv.URL, 503) // the last 503
		}
		keys, attempts := log.distinct()
		if attempts != 4*5 || keys != 4 {
			t.Fatalf("%d attempts with %d keys, want 20 with 4 (one per call)", attempts, keys)
		}
		distinct := map[time.Duration]bool{}
		for i, w := range waits {
			capN := min(10*time.Millisecond<<(i%4), 40*time.Millisecond)
			if w < 0 || w > capN {
				t.Fatalf("wait %d = %v outside the full-jitter range [0, %v]", i, w, capN)
			}
			distinct[w] = true
		}
		if len(waits) != 16 || len(distinct) < 8 {
			t.Fatalf("waits %v: want 16 waits, mostly distinct (jitter)", waits)
		}
	})

	t.Run("stops at the deadline", func(t *testing.T) {
		var log keyLog
		srv := httptest.NewServer(log.wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable)
		})))
		defer srv.Close()
		// The deadline runs from the first failure: note when the first
		// response came back.
		var firstAnswer atomic.Int64
		base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
			resp, err := srv.Client().Transport.RoundTrip(r)
			firstAnswer.CompareAndSwap(0, time.Now().UnixNano())
			return resp, err
		})
		const deadline = 300 * time.Millisecond
		client := &http.Client{Transport: retry.NewTransport(base, retry.Policy{
			MaxAttempts: 1000, BaseDelay: 10 * time.Millisecond, MaxDelay: 50 * time.Millisecond, Deadline: deadline,
		})}
		start := time.Now()
		post(t, client, srv.URL, 503) // the last 503
		elapsed := time.Since(start)
		keys, attempts := log.distinct()
		if keys != 1 || attempts < 3 || attempts > 1+int(deadline/(10*time.Millisecond)) {
			t.Fatalf("%d attempts, %d keys; want a few attempts with one key", attempts, keys)
		}
		log.mu.Lock()
		lastStart := log.times[len(log.times)-1]
		log.mu.Unlock()
		if late := lastStart.Sub(time.Unix(0, firstAnswer.Load())); late > deadline+100*time.Millisecond {
			t.Fatalf("an attempt started %v after the first failure, past the %v deadline", late, deadline)
		}
		if elapsed > deadline+2*time.Second {
			t.Fatalf("retrying took %v with a %v deadline", elapsed, deadline)
		}
	})
}
