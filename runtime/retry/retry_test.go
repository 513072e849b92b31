//go:build go1.25

package retry

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// errTransient is an error that Classify knows to be transient.
var errTransient = &StatusError{StatusCode: 503}

// errUnknown is an error Classify knows nothing about.
var errUnknown = errors.New("something odd")

type waitRecord struct {
	attempt int
	wait    time.Duration
	at      time.Time
}

// recorder collects OnRetry calls.
type recorder struct {
	mu    sync.Mutex
	waits []waitRecord
}

func (r *recorder) hook(attempt int, _ error, wait time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.waits = append(r.waits, waitRecord{attempt, wait, time.Now()})
}

func failing(calls *int, err error) func(context.Context) error {
	return func(context.Context) error {
		*calls++
		return err
	}
}

func reasonOf(t *testing.T, err error) Reason {
	t.Helper()
	var re *Error
	if !errors.As(err, &re) {
		t.Fatalf("error %v (%T) is not a *retry.Error", err, err)
	}
	return re.Reason
}

func TestAttemptsCapped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, max := range []int{1, 2, 3, 7} {
			calls := 0
			err := Do(context.Background(), Policy{MaxAttempts: max}, failing(&calls, errTransient))
			if calls != max {
				t.Errorf("MaxAttempts %d: %d calls", max, calls)
			}
			if r := reasonOf(t, err); r != ReasonExhausted {
				t.Errorf("MaxAttempts %d: reason %v", max, r)
			}
			var re *Error
			if errors.As(err, &re); re.Attempts != max {
				t.Errorf("MaxAttempts %d: Error.Attempts = %d", max, re.Attempts)
			}
			if !errors.Is(err, errTransient) {
				t.Errorf("error %v does not wrap the last attempt's error", err)
			}
		}
	})
}

func TestSucceedsAfterFailures(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		calls := 0
		v, err := DoValue(context.Background(), Policy{}, func(context.Context) (string, error) {
			calls++
			if calls < 3 {
				return "partial", errTransient
			}
			return "done", nil
		})
		if err != nil || v != "done" || calls != 3 {
			t.Fatalf("DoValue = %q, %v after %d calls; want done, nil after 3", v, err, calls)
		}
		v, err = DoValue(context.Background(), Policy{MaxAttempts: 1}, func(context.Context) (string, error) {
			return "partial", errTransient
		})
		if err == nil || v != "" {
			t.Fatalf("failed DoValue = %q, %v; want the zero value and an error", v, err)
		}
	})
}

func TestZeroPolicyDefaults(t *testing.T) {
	want := settings{maxAttempts: 4, base: 100 * time.Millisecond, max: 5 * time.Second, deadline: 15 * time.Second}
	for _, p := range []Policy{{}, {MaxAttempts: -1, BaseDelay: -1, MaxDelay: -1, Deadline: -1}} {
		if got := p.settings(); got != want {
			t.Errorf("settings of %+v = %+v, want %+v", p, got, want)
		}
	}
	synctest.Test(t, func(t *testing.T) {
		var rec recorder
		calls := 0
		start := time.Now()
		err := Do(context.Background(), Policy{OnRetry: rec.hook}, failing(&calls, errTransient))
		if calls != 4 || reasonOf(t, err) != ReasonExhausted {
			t.Fatalf("zero policy: %d calls, %v; want 4 calls, attempts exhausted", calls, err)
		}
		for i, w := range rec.waits {
			if cap := 100 * time.Millisecond << i; w.wait < 0 || w.wait >= cap {
				t.Errorf("wait %d = %v, want within [0, %v)", i, w.wait, cap)
			}
		}
		// Three waits below 100+200+400ms: fake time makes this exact.
		if el := time.Since(start); el >= 700*time.Millisecond {
			t.Errorf("zero policy took %v, want < 700ms", el)
		}
	})
}

func TestBackoffCap(t *testing.T) {
	s := settings{maxAttempts: 100, base: 100 * time.Millisecond, max: 5 * time.Second}
	for n, want := range map[int]time.Duration{0: 100 * time.Millisecond, 1: 200 * time.Millisecond,
		5: 3200 * time.Millisecond, 6: 5 * time.Second, 40: 5 * time.Second, 62: 5 * time.Second, 1000: 5 * time.Second} {
		if got := s.backoffCap(n); got != want {
			t.Errorf("backoffCap(%d) = %v, want %v", n, got, want)
		}
	}
	huge := settings{base: math.MaxInt64 / 4, max: math.MaxInt64}
	if got := huge.backoffCap(3); got != math.MaxInt64 {
		t.Errorf("overflowing backoffCap = %v, want MaxDelay", got)
	}
}

func TestDeadlineStopsRetries(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var rec recorder
		calls := 0
		p := Policy{MaxAttempts: 1000, BaseDelay: time.Second, MaxDelay: time.Second, Deadline: 3 * time.Second,
			OnRetry: rec.hook}
		start := time.Now()
		err := Do(context.Background(), p, failing(&calls, errTransient))
		if r := reasonOf(t, err); r != ReasonDeadline {
			t.Fatalf("reason %v, want deadline (after %d calls)", r, calls)
		}
		if el := time.Since(start); el > 3*time.Second {
			t.Errorf("retried for %v, past the 3s deadline", el)
		}
		for _, w := range rec.waits {
			if end := w.at.Add(w.wait); end.After(start.Add(3 * time.Second)) {
				t.Errorf("wait after attempt %d ends %v after start", w.attempt, end.Sub(start))
			}
		}
		if calls < 3 || calls >= 1000 {
			t.Errorf("%d calls; want a few (waits average 0.5s over 3s)", calls)
		}
	})
}

func TestContextDeadlineStopsRetries(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		calls := 0
		start := time.Now()
		err := Do(ctx, Policy{MaxAttempts: 1000, BaseDelay: time.Second, MaxDelay: time.Second},
			failing(&calls, errTransient))
		if r := reasonOf(t, err); r != ReasonDeadline {
			t.Fatalf("reason %v, want deadline", r)
		}
		if el := time.Since(start); el > 2*time.Second {
			t.Errorf("retried for %v, past the context's 2s deadline", el)
		}
	})
}

// ksUniform returns the Kolmogorov-Smirnov statistic of samples against the uniform distribution on [0, hi).
func ksUniform(samples []time.Duration, hi time.Duration) float64 {
	slices.Sort(samples)
	n := float64(len(samples))
	d := 0.0
	for i, s := range samples {
		f := float64(s) / float64(hi)
		d = max(d, float64(i+1)/n-f, f-float64(i)/n)
	}
	return d
}

// ksBound is the KS critical value at a false alarm rate of 1e-12: P(D > d) <= 2 exp(-2 n d²).
func ksBound(n int) float64 { return math.Sqrt(math.Log(2e12) / (2 * float64(n))) }

func TestJitterUniform(t *testing.T) {
	s := settings{base: 10 * time.Millisecond, max: 70 * time.Millisecond}
	for _, n := range []int{0, 2, 3, 9} {
		hi := s.backoffCap(n)
		const size = 20000
		samples := make([]time.Duration, size)
		for i := range samples {
			samples[i] = s.jitter(n)
			if samples[i] < 0 || samples[i] >= hi {
				t.Fatalf("jitter(%d) = %v, outside [0, %v)", n, samples[i], hi)
			}
		}
		if d, b := ksUniform(samples, hi), ksBound(size); d > b {
			t.Errorf("jitter(%d): KS statistic %.4f > %.4f: waits are not uniform on [0, %v)", n, d, b, hi)
		}
		// The waits must use the whole range, not a corner of it.
		if lo, top := samples[size/100], samples[size-size/100]; lo > hi/20 || top < hi-hi/20 {
			t.Errorf("jitter(%d): 1st and 99th percentiles %v, %v do not span [0, %v)", n, lo, top, hi)
		}
	}
}

// TestWaitsSpread checks the waits that Do itself takes, through OnRetry.
func TestWaitsSpread(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var rec recorder
		p := Policy{MaxAttempts: 3, BaseDelay: time.Second, MaxDelay: 10 * time.Second, OnRetry: rec.hook}
		const runs = 3000
		for range runs {
			calls := 0
			_ = Do(context.Background(), p, failing(&calls, errTransient))
		}
		byAttempt := map[int][]time.Duration{}
		for _, w := range rec.waits {
			byAttempt[w.attempt] = append(byAttempt[w.attempt], w.wait)
		}
		for attempt, hi := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second} {
			ws := byAttempt[attempt]
			if len(ws) != runs {
				t.Fatalf("%d waits after attempt %d, want %d", len(ws), attempt, runs)
			}
			if d, b := ksUniform(ws, hi), ksBound(runs); d > b {
				t.Errorf("waits after attempt %d: KS %.4f > %.4f, not uniform on [0, %v)", attempt, d, b, hi)
			}
		}
	})
}

func TestPermanentStops(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		base := errors.New("bad input")
		for name, opErr := range map[string]error{
			"Permanent":  Permanent(base),
			"wrapped":    fmt.Errorf("op: %w", Permanent(base)),
			"status 404": fmt.Errorf("op: %w: %w", base, &StatusError{StatusCode: 404}),
			"canceled":   fmt.Errorf("op: %w: %w", base, context.Canceled),
		} {
			calls := 0
			err := Do(context.Background(), Policy{MaxAttempts: 5}, failing(&calls, opErr))
			if calls != 1 {
				t.Errorf("%s: %d calls, want 1", name, calls)
			}
			if r := reasonOf(t, err); r != ReasonPermanent {
				t.Errorf("%s: reason %v, want permanent", name, r)
			}
			if !errors.Is(err, base) {
				t.Errorf("%s: %v does not wrap the operation's error", name, err)
			}
		}
		if Permanent(nil) != nil {
			t.Error("Permanent(nil) != nil")
		}
		if p := Permanent(base); Permanent(p) != p || p.Error() != base.Error() {
			t.Error("Permanent wraps twice or changes the message")
		}
	})
}

func TestUnknownErrors(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		calls := 0
		err := Do(context.Background(), Policy{MaxAttempts: 3}, failing(&calls, errUnknown))
		if calls != 3 || reasonOf(t, err) != ReasonExhausted {
			t.Errorf("unknown error: %d calls, %v; want 3 calls (retried by default)", calls, err)
		}
		strict := Policy{MaxAttempts: 3, Retryable: func(err error) bool { return Classify(err) == ClassTransient }}
		calls = 0
		err = Do(context.Background(), strict, failing(&calls, errUnknown))
		if calls != 1 || reasonOf(t, err) != ReasonPermanent {
			t.Errorf("strict Retryable, unknown error: %d calls, %v; want 1 call", calls, err)
		}
		calls = 0
		err = Do(context.Background(), strict, failing(&calls, errTransient))
		if calls != 3 || reasonOf(t, err) != ReasonExhausted {
			t.Errorf("strict Retryable, transient error: %d calls, want 3", calls)
		}
		// Retryable never overrides Permanent.
		calls = 0
		always := Policy{MaxAttempts: 3, Retryable: func(error) bool { return true }}
		_ = Do(context.Background(), always, failing(&calls, Permanent(errUnknown)))
		if calls != 1 {
			t.Errorf("Retryable overrode Permanent: %d calls", calls)
		}
	})
}

func TestCancelInterruptsWait(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	waiting := make(chan struct{})
	p := Policy{BaseDelay: time.Minute, MaxDelay: time.Minute, Deadline: time.Hour,
		OnRetry: func(int, error, time.Duration) { close(waiting) }}
	done := make(chan error)
	go func() {
		done <- Do(ctx, p, func(context.Context) error {
			// Retry-After makes the wait a full minute.
			return &StatusError{StatusCode: 503, RetryAfter: time.Minute}
		})
	}()
	<-waiting
	time.Sleep(5 * time.Millisecond) // let Do enter the wait
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		el := time.Since(start)
		if el > 100*time.Millisecond {
			t.Errorf("Do returned %v after cancel, want within milliseconds", el)
		}
		t.Logf("Do returned %v after cancel", el)
		var se *StatusError
		if reasonOf(t, err) != ReasonContext || !errors.Is(err, context.Canceled) || !errors.As(err, &se) {
			t.Errorf("err = %v; want reason context, wrapping context.Canceled and the last error", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("cancel did not interrupt the wait")
	}
}

func TestContextDoneBeforeFirstAttempt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls := 0
	err := Do(ctx, Policy{}, failing(&calls, nil))
	var re *Error
	if calls != 0 || !errors.As(err, &re) || re.Reason != ReasonContext || re.Attempts != 0 ||
		!errors.Is(err, context.Canceled) {
		t.Errorf("done context: %d calls, %v; want no call and a context error", calls, err)
	}
}

func TestAttemptTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		calls := 0
		p := Policy{MaxAttempts: 3, BaseDelay: time.Millisecond, AttemptTimeout: 50 * time.Millisecond}
		err := Do(context.Background(), p, func(ctx context.Context) error {
			calls++
			if calls < 3 {
				<-ctx.Done() // hang until the attempt times out
				return ctx.Err()
			}
			return nil
		})
		if err != nil || calls != 3 {
			t.Fatalf("attempt timeouts: %d calls, %v; want success on the 3rd", calls, err)
		}
		calls = 0
		err = Do(context.Background(), p, func(ctx context.Context) error {
			calls++
			<-ctx.Done()
			return ctx.Err()
		})
		if calls != 3 || reasonOf(t, err) != ReasonExhausted || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("hanging operation: %d calls, %v", calls, err)
		}
	})
}

func TestNestedIsOneLayer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fast := Policy{BaseDelay: time.Millisecond}
		for _, tc := range []struct {
			allow bool
			want  int
		}{{false, 3}, {true, 15}} {
			inner := 0
			outer := Policy{MaxAttempts: 3, BaseDelay: time.Millisecond}
			err := Do(context.Background(), outer, func(ctx context.Context) error {
				if !InRetry(ctx) {
					t.Error("InRetry is false inside the operation")
				}
				p := fast
				p.MaxAttempts, p.AllowNested = 5, tc.allow
				err := Do(ctx, p, failing(&inner, errTransient))
				var re *Error
				if isre := errors.As(err, &re); isre == tc.allow {
					// Nested: the raw error. Allowed: a full retry run of its own.
				} else {
					t.Errorf("AllowNested %v: inner error %v", tc.allow, err)
				}
				return err
			})
			if inner != tc.want {
				t.Errorf("AllowNested %v: inner operation ran %d times, want %d", tc.allow, inner, tc.want)
			}
			if !errors.Is(err, errTransient) {
				t.Errorf("outer error %v lost the inner one", err)
			}
		}
		if InRetry(context.Background()) {
			t.Error("InRetry(Background) is true")
		}
		// A context derived inside the operation keeps the mark.
		_ = Do(context.Background(), fast, func(ctx context.Context) error {
			c, cancel := context.WithTimeout(ctx, time.Second)
			defer cancel()
			if !InRetry(c) || c.Value("other") != nil {
				t.Error("derived context lost the mark")
			}
			return nil
		})
		// Permanent in a nested operation stops the outer layer too.
		calls := 0
		_ = Do(context.Background(), fast, func(ctx context.Context) error {
			calls++
			return Do(ctx, fast, func(context.Context) error { return Permanent(errUnknown) })
		})
		if calls != 1 {
			t.Errorf("nested Permanent: outer made %d attempts, want 1", calls)
		}
	})
}

func TestMarkedContextValues(t *testing.T) {
	type key struct{}
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), key{}, "v"))
	m := mark(ctx)
	if m.Value(key{}) != "v" || !InRetry(m) || InRetry(ctx) {
		t.Fatal("mark lost values or marked its parent")
	}
	child, cancelChild := context.WithCancel(m)
	defer cancelChild()
	cancel()
	select {
	case <-child.Done():
	case <-time.After(time.Second):
		t.Fatal("cancelling the parent did not reach a child of the marked context")
	}
	if !strings.Contains(fmt.Sprint(m), "retry.mark(") {
		t.Errorf("String() = %q", fmt.Sprint(m))
	}
}

func TestBudgetFailsFast(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := &Budget{}
		p := Policy{MaxAttempts: 100, BaseDelay: time.Millisecond, Budget: b}
		calls := 0
		err := Do(context.Background(), p, failing(&calls, errTransient))
		// 10 tokens, retries only above 5: the 5th failure leaves 5 and stops the run.
		if calls != 5 || reasonOf(t, err) != ReasonBudget {
			t.Fatalf("first run: %d calls, %v; want 5 calls then budget exhausted", calls, err)
		}
		calls = 0
		err = Do(context.Background(), p, failing(&calls, errTransient))
		if calls != 1 || reasonOf(t, err) != ReasonBudget {
			t.Fatalf("spent budget: %d calls, %v; want 1 call, failing fast", calls, err)
		}
		if got := b.Tokens(); got != 4 {
			t.Errorf("tokens = %v, want 4", got)
		}
		// Non-retryable failures take nothing.
		_ = Do(context.Background(), p, failing(&calls, Permanent(errUnknown)))
		if got := b.Tokens(); got != 4 {
			t.Errorf("tokens after a permanent error = %v, want 4", got)
		}
		// Successes give back 0.1 each: 11 of them bring 4 above 5 again.
		for range 11 {
			if err := Do(context.Background(), p, func(context.Context) error { return nil }); err != nil {
				t.Fatal(err)
			}
		}
		if got := b.Tokens(); math.Abs(got-5.1) > 1e-9 {
			t.Errorf("tokens after 11 successes = %v, want 5.1", got)
		}
		calls = 0
		_ = Do(context.Background(), p, func(context.Context) error {
			calls++
			if calls == 1 {
				return errTransient
			}
			return nil
		})
		if calls != 1 {
			t.Errorf("4.1 tokens left after a failure: %d calls, want 1 (no retry)", calls)
		}
	})
}

func TestBudgetSettings(t *testing.T) {
	if _, err := NewBudget(0, 0.1); err == nil {
		t.Error("NewBudget(0, 0.1) accepted")
	}
	if _, err := NewBudget(10, 0); err == nil {
		t.Error("NewBudget(10, 0) accepted")
	}
	if _, err := NewBudget(math.NaN(), 0.1); err == nil {
		t.Error("NewBudget(NaN, 0.1) accepted")
	}
	b, err := NewBudget(4, 1)
	if err != nil {
		t.Fatal(err)
	}
	b.failure()
	if !b.allow() {
		t.Error("3 of 4 tokens: retry refused")
	}
	b.failure()
	if b.allow() {
		t.Error("2 of 4 tokens: retry allowed")
	}
	for range 10 {
		b.failure()
	}
	if b.Tokens() != 0 {
		t.Errorf("tokens = %v, want floor 0", b.Tokens())
	}
	for range 10 {
		b.success()
	}
	if b.Tokens() != 4 {
		t.Errorf("tokens = %v, want cap 4", b.Tokens())
	}
	if n := testing.AllocsPerRun(100, func() { b.failure(); b.success(); _ = b.allow() }); n != 0 {
		t.Errorf("budget allocates %v times per use", n)
	}
}

func TestBudgetConcurrent(t *testing.T) {
	b := &Budget{}
	var wg sync.WaitGroup
	var fails atomic.Int64
	for g := range 8 {
		wg.Go(func() {
			for i := range 2000 {
				if (i+g)%7 == 0 {
					b.failure()
					fails.Add(1)
				} else {
					b.success()
				}
				if tk := b.Tokens(); tk < 0 || tk > 10 {
					t.Errorf("tokens %v out of [0, 10]", tk)
					return
				}
				_ = b.allow()
			}
		})
	}
	wg.Wait()
	if fails.Load() == 0 {
		t.Fatal("no failures recorded")
	}
	// Failures at ~14% of calls are above the 10% the bucket refills: it must end below half.
	if b.allow() {
		t.Errorf("tokens %v after ~14%% failures; want retries throttled", b.Tokens())
	}
}

func TestHappyPathAllocs(t *testing.T) {
	op := func(context.Context) error { return nil }
	if n := testing.AllocsPerRun(200, func() { _ = Do(context.Background(), Policy{}, op) }); n != 0 {
		t.Errorf("Do(Background) allocates %v times on success, want 0", n)
	}
	b := &Budget{}
	if n := testing.AllocsPerRun(200, func() { _ = Do(context.Background(), Policy{Budget: b}, op) }); n != 0 {
		t.Errorf("Do with a budget allocates %v times on success, want 0", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if n := testing.AllocsPerRun(200, func() { _ = Do(ctx, Policy{}, op) }); n > 1 {
		t.Errorf("Do(cancelable ctx) allocates %v times on success, want at most 1 (the mark)", n)
	}
	m := mark(ctx)
	if n := testing.AllocsPerRun(200, func() { _ = Do(m, Policy{}, op) }); n != 0 {
		t.Errorf("nested Do allocates %v times on success, want 0", n)
	}
	fn := func(context.Context) (int, error) { return 7, nil }
	if n := testing.AllocsPerRun(200, func() { _, _ = DoValue(context.Background(), Policy{}, fn) }); n != 0 {
		t.Errorf("DoValue(Background) allocates %v times on success, want 0", n)
	}
}

func TestErrorMessage(t *testing.T) {
	e := &Error{Reason: ReasonDeadline, Attempts: 3, Err: errUnknown}
	if got, want := e.Error(), "retry: deadline reached after 3 attempts: something odd"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	e = &Error{Reason: ReasonPermanent, Attempts: 1, Err: errUnknown}
	if got, want := e.Error(), "retry: permanent error after 1 attempt: something odd"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	for r := ReasonExhausted; r <= ReasonBudget; r++ {
		if strings.HasPrefix(r.String(), "Reason(") {
			t.Errorf("reason %d has no name", r)
		}
	}
	if Reason(99).String() != "Reason(99)" {
		t.Error("unknown reason string")
	}
	if got := ReasonCircuitOpen.Label(); got != "circuit_open" {
		t.Errorf("ReasonCircuitOpen.Label() = %q, want circuit_open", got)
	}
	if got := ReasonBudget.Label(); got != "retry_budget_exhausted" {
		t.Errorf("ReasonBudget.Label() = %q, want retry_budget_exhausted", got)
	}
}

// TestDeadlineStartsAtFirstFailure pins the documented rule: the deadline runs from the moment the first
// attempt fails, so a slow first attempt does not use it up.
func TestDeadlineStartsAtFirstFailure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		calls := 0
		var failedAt time.Time
		p := Policy{MaxAttempts: 1000, BaseDelay: time.Second, MaxDelay: time.Second, Deadline: 3 * time.Second}
		err := Do(context.Background(), p, func(context.Context) error {
			calls++
			if calls == 1 {
				time.Sleep(10 * time.Second)
				failedAt = time.Now()
			}
			return errTransient
		})
		if reasonOf(t, err) != ReasonDeadline || calls < 2 {
			t.Fatalf("%d calls, %v; want retries after a slow first attempt, then the deadline", calls, err)
		}
		if el := time.Since(failedAt); el > 3*time.Second {
			t.Errorf("retried for %v after the first failure, past the 3s deadline", el)
		}
	})
}

func TestContextCauseWrapped(t *testing.T) {
	errShutdown := errors.New("shutting down")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errShutdown)
	err := Do(ctx, Policy{}, func(context.Context) error { return nil })
	if !errors.Is(err, context.Canceled) || !errors.Is(err, errShutdown) || reasonOf(t, err) != ReasonContext {
		t.Errorf("err = %v; want it to wrap context.Canceled and the cause", err)
	}
}

// TestDecideBounds checks, over random policies, hints and elapsed times, that a wait is never negative,
// never above MaxDelay, and never ends past the deadline.
func TestDecideBounds(t *testing.T) {
	ms := func(n int64) time.Duration { return time.Duration(rand.Int64N(n)+1) * time.Millisecond }
	for range 20000 {
		p := &Policy{MaxAttempts: 50, BaseDelay: ms(1000), MaxDelay: ms(10000), Deadline: ms(20000)}
		s := p.settings()
		start := time.Now().Add(-ms(25000))
		n := rand.IntN(49) + 1
		var hint time.Duration
		if rand.IntN(2) == 0 {
			hint = ms(100000)
		}
		before := time.Now() // decide's clock reads no earlier: before+d must not pass the deadline either
		d, reason := decide(context.Background(), p, &s, &start, n, errTransient, hint, DefaultRetryable)
		deadline := start.Add(s.deadline)
		switch {
		case reason == ReasonDeadline:
			// The longest wait decide could have drawn fits: it must not have stopped.
			if longest := min(max(hint, s.backoffCap(n-1)), s.max); before.Add(longest).Before(deadline.Add(-time.Millisecond)) {
				t.Fatalf("every wait up to %v (Retry-After %v) fits before the deadline: stopped instead of waiting", longest, hint)
			}
		case reason != 0:
			t.Fatalf("unexpected reason %v", reason)
		case d < 0 || d > s.max:
			t.Fatalf("wait %v outside [0, MaxDelay %v]", d, s.max)
		case !before.Add(d).Before(deadline):
			t.Fatalf("wait %v ends at or past the deadline", d)
		case hint > 0 && d < min(hint, s.max):
			t.Fatalf("wait %v shorter than Retry-After %v allows (MaxDelay %v)", d, hint, s.max)
		}
	}
}
