//go:build go1.25

package retry

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// A Retry-After that ends past the caller's deadline stops Do at once,
// with the 429 that asked for it: no sleep to the deadline, no attempt
// bound to fail, no bare "context deadline exceeded".
func TestDoGivesUpEarlyWithCause(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		calls := 0
		start := time.Now()
		err := Do(ctx, Policy{MaxDelay: 10 * time.Second}, func(ctx context.Context) error {
			calls++
			return &StatusError{StatusCode: http.StatusTooManyRequests, RetryAfter: 2 * time.Second}
		})
		var re *Error
		var se *StatusError
		if !errors.As(err, &re) || re.Reason != ReasonDeadline || re.Attempts != 1 {
			t.Fatalf("err = %v, want ReasonDeadline after 1 attempt", err)
		}
		if !errors.As(err, &se) || se.StatusCode != 429 || errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want the 429 as the cause, not the context's error", err)
		}
		if calls != 1 || time.Since(start) != 0 {
			t.Fatalf("%d calls in %v; want 1, and no wait", calls, time.Since(start))
		}
	})
}

// The policy's deadline does the same: a wait that would end past it is
// not started.
func TestDoGivesUpBeforePolicyDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		calls := 0
		var waits []time.Duration
		p := Policy{MaxDelay: time.Minute, Deadline: 5 * time.Second,
			OnRetry: func(_ int, _ error, d time.Duration) { waits = append(waits, d) }}
		start := time.Now()
		err := Do(context.Background(), p, func(ctx context.Context) error {
			calls++
			return &StatusError{StatusCode: http.StatusServiceUnavailable, RetryAfter: 3 * time.Second}
		})
		if r := reasonOf(t, err); r != ReasonDeadline || calls != 2 || len(waits) != 1 || time.Since(start) != 3*time.Second {
			t.Fatalf("reason %v, %d calls, waits %v, %v elapsed; want deadline after 2 calls and one 3s wait", r, calls,
				waits, time.Since(start))
		}
	})
}

// The transport gives up as early: a 429 whose Retry-After ends past the
// request's deadline is returned at once, instead of a context error after
// a doomed attempt.
func TestTransportGivesUpEarlyWithCause(t *testing.T) {
	f := &flaky{statuses: []int{429, 429}, header: http.Header{"Retry-After": {"2"}}}
	url := serve(t, f)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	start := time.Now()
	resp, err := client(Policy{MaxDelay: 10 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("err = %v, want the 429 response", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 429 || len(f.seen()) != 1 || time.Since(start) > 300*time.Millisecond {
		t.Fatalf("status %d after %d attempts in %v; want the first 429 at once", resp.StatusCode, len(f.seen()), time.Since(start))
	}
}

// Observe sees each retry with its wait and the give-up with its reason,
// from Do and from the transport alike.
func TestObserveRetriesAndGiveUp(t *testing.T) {
	var events []Event
	p := Policy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond,
		Observe: func(_ context.Context, e Event) { events = append(events, e) }}
	calls := 0
	err := Do(context.Background(), p, failing(&calls, errTransient))
	check := func(what string) {
		t.Helper()
		if len(events) != 3 || events[0].Attempt != 1 || events[0].GaveUp || events[1].Attempt != 2 ||
			!events[2].GaveUp || events[2].Reason != ReasonExhausted || events[2].Attempt != 3 || events[2].Wait != 0 {
			t.Fatalf("%s: events %+v; want two retries, then a give-up after attempt 3", what, events)
		}
		var se *StatusError
		if !errors.As(events[2].Err, &se) || se.StatusCode != 503 {
			t.Fatalf("%s: give-up error %v, want the 503", what, events[2].Err)
		}
	}
	if reasonOf(t, err) != ReasonExhausted {
		t.Fatal(err)
	}
	check("Do")
	events = nil
	f := &flaky{statuses: []int{503, 503, 503}}
	resp, err := client(p).Get(serve(t, f))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	check("transport")
	// A first success reports nothing.
	events = nil
	if err := Do(context.Background(), p, func(context.Context) error { return nil }); err != nil || len(events) != 0 {
		t.Fatalf("success: %v, events %+v", err, events)
	}
}

func TestSlogObserver(t *testing.T) {
	var buf bytes.Buffer
	obs := SlogObserver(slog.New(slog.NewTextHandler(&buf, nil)))
	obs(context.Background(), Event{Attempt: 1, Err: &StatusError{StatusCode: 429}, Wait: time.Second})
	obs(context.Background(), Event{Attempt: 2, Err: errors.New("reset"), GaveUp: true, Reason: ReasonDeadline})
	out := buf.String()
	for _, want := range []string{"level=INFO msg=retry attempt=1 wait=1s status=429", "level=WARN", `msg="retry gave up" attempt=2 reason="deadline reached" error=reset`} {
		if !strings.Contains(out, want) {
			t.Fatalf("log %q lacks %q", out, want)
		}
	}
}
