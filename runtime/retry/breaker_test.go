//go:build go1.25

package retry

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// switchable answers every request with its current status, and counts them.
type switchable struct {
	status atomic.Int64
	hits   atomic.Int64
}

func (s *switchable) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.hits.Add(1)
	w.WriteHeader(int(s.status.Load()))
}

func get(t *testing.T, c *http.Client, url string) (int, error) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

func TestBreakerOpensFailsFastProbesAndCloses(t *testing.T) {
	srv := &switchable{}
	srv.status.Store(503)
	url := serve(t, srv)
	var changes []string
	var mu sync.Mutex
	b := NewBreaker(BreakerConfig{Name: "flaky", Window: 10, MinCalls: 5, FailureRatio: 0.5,
		OpenFor: 150 * time.Millisecond, Probes: 2, OnStateChange: func(from, to BreakerState) {
			mu.Lock()
			changes = append(changes, from.String()+">"+to.String())
			mu.Unlock()
		}})
	p := fast
	p.MaxAttempts = 1
	p.Breaker = b
	c := client(p)

	for i := range 5 {
		if code, err := get(t, c, url); err != nil || code != 503 {
			t.Fatalf("call %d: %d, %v; want the 503", i+1, code, err)
		}
	}
	if b.State() != BreakerOpen {
		t.Fatalf("state after 5 failures of 5 calls = %v, want open", b.State())
	}

	// Open: fail fast, without reaching the server, saying when it probes again.
	hits := srv.hits.Load()
	start := time.Now()
	_, err := get(t, c, url)
	if el := time.Since(start); el > 50*time.Millisecond {
		t.Errorf("open breaker took %v to fail", el)
	}
	var oe *OpenError
	var re *Error
	if !errors.Is(err, ErrCircuitOpen) || !errors.As(err, &oe) || !errors.As(err, &re) || re.Reason != ReasonCircuitOpen {
		t.Fatalf("open breaker: err = %v; want an *Error with ReasonCircuitOpen matching ErrCircuitOpen", err)
	}
	if srv.hits.Load() != hits {
		t.Error("open breaker let a request reach the server")
	}
	if left := time.Until(oe.ProbeAt); left <= 0 || left > 150*time.Millisecond {
		t.Errorf("ProbeAt in %v, want within the 150ms open period", left)
	}
	if msg := err.Error(); !strings.Contains(msg, `circuit breaker "flaky" open`) || !strings.Contains(msg, "next probe in") {
		t.Errorf("message %q does not say the breaker is open and when it probes", msg)
	}

	// The server recovers; after the open period, probes go through and close the breaker.
	srv.status.Store(200)
	time.Sleep(time.Until(oe.ProbeAt) + 10*time.Millisecond)
	for i := range 2 {
		if code, err := get(t, c, url); err != nil || code != 200 {
			t.Fatalf("probe %d: %d, %v; want 200", i+1, code, err)
		}
		if want := []BreakerState{BreakerHalfOpen, BreakerClosed}[i]; b.State() != want {
			t.Errorf("after probe %d: %v, want %v", i+1, b.State(), want)
		}
	}
	if srv.hits.Load() != hits+2 {
		t.Errorf("%d requests reached the server while probing, want 2", srv.hits.Load()-hits)
	}
	// Closed again, with an empty window: a few failures do not trip it.
	srv.status.Store(503)
	for range 4 {
		get(t, c, url)
	}
	if b.State() != BreakerClosed {
		t.Errorf("4 failures after closing tripped the breaker (window not emptied)")
	}
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(changes, " "); got != "closed>open open>half-open half-open>closed" {
		t.Errorf("state changes %q", got)
	}
}

func TestBreakerProbeFailureReopens(t *testing.T) {
	b := NewBreaker(BreakerConfig{Window: 4, MinCalls: 2, OpenFor: 40 * time.Millisecond, Probes: 1})
	p := Policy{MaxAttempts: 1, Breaker: b}
	fail := func(context.Context) error { return errTransient }
	Do(context.Background(), p, fail)
	Do(context.Background(), p, fail)
	if b.State() != BreakerOpen {
		t.Fatalf("state %v, want open", b.State())
	}
	time.Sleep(50 * time.Millisecond)
	calls := 0
	err := Do(context.Background(), p, func(context.Context) error { calls++; return errTransient })
	if calls != 1 || errors.Is(err, ErrCircuitOpen) {
		t.Fatalf("probe: %d calls, %v; want one call and its error", calls, err)
	}
	err = Do(context.Background(), p, func(context.Context) error { calls++; return nil })
	var oe *OpenError
	if calls != 1 || !errors.As(err, &oe) || time.Until(oe.ProbeAt) < 20*time.Millisecond {
		t.Fatalf("after a failed probe: %d calls, %v; want a fresh open period", calls, err)
	}
}

func TestBreakerIgnores4xx(t *testing.T) {
	for _, code := range []int{400, 404, 408, 409, 422, 429} {
		srv := &switchable{}
		srv.status.Store(int64(code))
		url := serve(t, srv)
		b := NewBreaker(BreakerConfig{Window: 10, MinCalls: 5})
		budget := &Budget{}
		p := fast
		p.MaxAttempts = 1
		p.Breaker, p.Budget = b, budget
		c := client(p)
		for range 30 {
			if got, err := get(t, c, url); err != nil || got != code {
				t.Fatalf("status %d: got %d, %v", code, got, err)
			}
		}
		if b.State() != BreakerClosed || budget.Tokens() != DefaultBudgetMaxTokens {
			t.Errorf("30 × %d: breaker %v, budget %v tokens; want closed and full (4xx are not failures)",
				code, b.State(), budget.Tokens())
		}
	}
	// Permanent errors in Do are answers too.
	b := NewBreaker(BreakerConfig{Window: 10, MinCalls: 5})
	for range 30 {
		Do(context.Background(), Policy{Breaker: b}, func(context.Context) error { return Permanent(errTransient) })
	}
	if b.State() != BreakerClosed {
		t.Error("permanent errors tripped the breaker")
	}
}

func TestBreakerSharesFailuresWithBudget(t *testing.T) {
	// One failing Do with retries: every failed attempt is one failure for both.
	b := NewBreaker(BreakerConfig{Window: 10, MinCalls: 10})
	budget := &Budget{}
	p := Policy{MaxAttempts: 3, BaseDelay: time.Microsecond, Breaker: b, Budget: budget}
	Do(context.Background(), p, func(context.Context) error { return errTransient })
	if got := budget.Tokens(); got != 7 {
		t.Errorf("budget %v tokens after 3 failed attempts, want 7", got)
	}
	if got := b.pos.Load(); got != 3 {
		t.Errorf("breaker window holds %d calls after 3 attempts, want 3", got)
	}
	// A cancelled caller counts for neither.
	ctx, cancel := context.WithCancel(context.Background())
	Do(ctx, Policy{MaxAttempts: 1, Breaker: b, Budget: budget}, func(context.Context) error {
		cancel()
		return context.Canceled
	})
	if budget.Tokens() != 7 || b.pos.Load() != 3 {
		t.Errorf("a cancelled call was counted: budget %v, window %d", budget.Tokens(), b.pos.Load())
	}
}

func TestBreakerStopsRetryLoop(t *testing.T) {
	b := NewBreaker(BreakerConfig{Window: 4, MinCalls: 2, OpenFor: time.Hour})
	calls := 0
	err := Do(context.Background(), Policy{MaxAttempts: 10, BaseDelay: time.Microsecond, Breaker: b},
		func(context.Context) error { calls++; return errTransient })
	var re *Error
	if calls != 2 || !errors.As(err, &re) || re.Reason != ReasonCircuitOpen || re.Attempts != 2 ||
		!errors.Is(err, errTransient) || !errors.Is(err, ErrCircuitOpen) {
		t.Fatalf("%d calls, %v; want 2 attempts, then circuit open wrapping both errors", calls, err)
	}
	if !strings.Contains(err.Error(), "next probe in") {
		t.Errorf("message %q does not say when it probes", err)
	}
	calls = 0
	err = Do(context.Background(), Policy{Breaker: b}, func(context.Context) error { calls++; return nil })
	if calls != 0 || !errors.As(err, &re) || re.Attempts != 0 || !strings.HasPrefix(err.Error(), "retry: circuit breaker open") {
		t.Errorf("open breaker: %d calls, %v", calls, err)
	}
	// A nested Do returns the *OpenError itself.
	err = Do(mark(context.Background()), Policy{Breaker: b}, func(context.Context) error { return nil })
	if _, ok := err.(*OpenError); !ok {
		t.Errorf("nested Do on an open breaker: %T %v, want *OpenError", err, err)
	}
}

func TestBreakerHalfOpenLimitsProbes(t *testing.T) {
	b := NewBreaker(BreakerConfig{Window: 2, MinCalls: 1, OpenFor: time.Millisecond, Probes: 2})
	Do(context.Background(), Policy{MaxAttempts: 1, Breaker: b}, func(context.Context) error { return errTransient })
	time.Sleep(5 * time.Millisecond)
	release := make(chan struct{})
	started := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			Do(context.Background(), Policy{Breaker: b}, func(context.Context) error {
				started <- struct{}{}
				<-release
				return nil
			})
		})
	}
	<-started
	<-started
	err := Do(context.Background(), Policy{Breaker: b}, func(context.Context) error { return nil })
	var oe *OpenError
	if !errors.As(err, &oe) || oe.State != BreakerHalfOpen || !strings.Contains(oe.Error(), "half-open") {
		t.Errorf("third call while 2 probes run: %v; want rejected, half-open", err)
	}
	close(release)
	wg.Wait()
	if b.State() != BreakerClosed {
		t.Errorf("state after 2 successful probes: %v", b.State())
	}
}

func TestBreakerLostProbeFreesItsSlot(t *testing.T) {
	b := NewBreaker(BreakerConfig{Window: 2, MinCalls: 1, OpenFor: 20 * time.Millisecond, Probes: 1})
	p := Policy{MaxAttempts: 1, Breaker: b}
	Do(context.Background(), p, func(context.Context) error { return errTransient })
	time.Sleep(25 * time.Millisecond)
	func() {
		defer func() { recover() }()
		Do(context.Background(), p, func(context.Context) error { panic("probe lost") })
	}()
	if err := Do(context.Background(), p, func(context.Context) error { return nil }); !errors.Is(err, ErrCircuitOpen) {
		t.Errorf("second probe while the first one's slot is held: %v, want rejected", err)
	}
	time.Sleep(25 * time.Millisecond)
	if err := Do(context.Background(), p, func(context.Context) error { return nil }); err != nil || b.State() != BreakerClosed {
		t.Errorf("after OpenFor: %v, state %v; want the lost probe's slot freed and the breaker closed", err, b.State())
	}
}

func TestBreakerWindowSlides(t *testing.T) {
	b := NewBreaker(BreakerConfig{Window: 10, MinCalls: 10, FailureRatio: 0.5})
	p := Policy{MaxAttempts: 1, Breaker: b}
	ok := func(context.Context) error { return nil }
	fail := func(context.Context) error { return errTransient }
	for _, op := range []func(context.Context) error{fail, fail, fail, fail, ok, ok, ok, ok, ok, ok, ok, ok, ok, ok, fail, fail, fail, fail} {
		Do(context.Background(), p, op)
	}
	if b.State() != BreakerClosed {
		t.Fatal("failures that left the window still counted")
	}
	Do(context.Background(), p, fail) // 5 of the last 10
	if b.State() != BreakerOpen {
		t.Errorf("5 failures in the last 10 calls: %v, want open", b.State())
	}
}

func TestBreakerDefaults(t *testing.T) {
	b := NewBreaker(BreakerConfig{FailureRatio: 7})
	if b.window != 100 || b.minCalls != 20 || b.ratio != 0.5 || b.openFor != 10*time.Second || b.probes != 3 {
		t.Errorf("defaults: %+v", b)
	}
	b = NewBreaker(BreakerConfig{Window: 1 << 20, MinCalls: 1 << 30})
	if b.window != maxBreakerWindow || b.minCalls != maxBreakerWindow {
		t.Errorf("caps: window %d, min calls %d", b.window, b.minCalls)
	}
}

func TestBreakerConcurrent(t *testing.T) {
	b := NewBreaker(BreakerConfig{Window: 50, MinCalls: 20, OpenFor: time.Millisecond, Probes: 2})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 2000 {
				Do(context.Background(), Policy{MaxAttempts: 1, Breaker: b}, func(context.Context) error {
					if (i+g)%3 == 0 {
						return errTransient
					}
					return nil
				})
			}
		})
	}
	wg.Wait()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.inFlight != 0 && b.State() == BreakerHalfOpen {
		t.Errorf("%d probes still counted in flight after all calls ended", b.inFlight)
	}
}

func TestBreakerHappyPathAllocs(t *testing.T) {
	b := NewBreaker(BreakerConfig{})
	op := func(context.Context) error { return nil }
	if n := testing.AllocsPerRun(200, func() { _ = Do(context.Background(), Policy{Breaker: b}, op) }); n != 0 {
		t.Errorf("Do with a breaker allocates %v times on success, want 0", n)
	}
}

func BenchmarkBreaker(b *testing.B) {
	op := func(context.Context) error { return nil }
	b.Run("Do/none", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = Do(context.Background(), Policy{}, op)
		}
	})
	b.Run("Do/breaker", func(b *testing.B) {
		p := Policy{Breaker: NewBreaker(BreakerConfig{})}
		b.ReportAllocs()
		for b.Loop() {
			_ = Do(context.Background(), p, op)
		}
	})
	b.Run("allow+record", func(b *testing.B) {
		br := NewBreaker(BreakerConfig{})
		b.ReportAllocs()
		for b.Loop() {
			pm, _ := br.allow()
			br.record(pm, outcomeSuccess)
		}
	})
	b.Run("allow+record/parallel", func(b *testing.B) {
		br := NewBreaker(BreakerConfig{})
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				pm, _ := br.allow()
				br.record(pm, outcomeSuccess)
			}
		})
	})
}
