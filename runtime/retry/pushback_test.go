//go:build go1.25

package retry

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

var errBusy = errors.New("busy")

// A valid pushback is the exact wait before the next attempt (no jitter), clamped to MaxDelay, and the
// backoff starts again from BaseDelay after it.
func TestPushbackReplacesBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var starts []time.Time
		p := Policy{MaxAttempts: 5, BaseDelay: 10 * time.Millisecond, MaxDelay: time.Second, Deadline: time.Hour}
		err := Do(context.Background(), p, func(ctx context.Context) error {
			starts = append(starts, time.Now())
			switch len(starts) {
			case 1:
				return Pushback(errBusy, 300*time.Millisecond)
			case 2:
				return Pushback(errBusy, time.Hour) // clamped to MaxDelay
			case 3:
				return errBusy // jittered again, from BaseDelay: under 10ms
			}
			return nil
		})
		if err != nil || len(starts) != 4 {
			t.Fatalf("Do = %v after %d attempts, want success after 4", err, len(starts))
		}
		if d := starts[1].Sub(starts[0]); d != 300*time.Millisecond {
			t.Errorf("wait after a 300ms pushback = %v, want exactly 300ms", d)
		}
		if d := starts[2].Sub(starts[1]); d != time.Second {
			t.Errorf("wait after a 1h pushback = %v, want MaxDelay (1s)", d)
		}
		if d := starts[3].Sub(starts[2]); d >= 10*time.Millisecond {
			t.Errorf("wait after the pushbacks = %v, want under BaseDelay (10ms): the backoff restarts", d)
		}
	})
}

// A negative pushback stops at once, as a permanent error, and still counts as a failure for the budget.
func TestPushbackNegativeStops(t *testing.T) {
	b := &Budget{}
	calls := 0
	err := Do(context.Background(), Policy{Budget: b}, func(ctx context.Context) error {
		calls++
		return Pushback(errBusy, -1)
	})
	var re *Error
	if !errors.As(err, &re) || re.Reason != ReasonPermanent || calls != 1 || !errors.Is(err, errBusy) {
		t.Fatalf("Do = %v after %d calls, want ReasonPermanent after 1 wrapping errBusy", err, calls)
	}
	if got := b.Tokens(); got != DefaultBudgetMaxTokens-1 {
		t.Errorf("budget tokens = %v, want %v: a refused retry is a failure", got, DefaultBudgetMaxTokens-1)
	}
	if Pushback(nil, time.Second) != nil {
		t.Error("Pushback(nil) != nil")
	}
}

// A pushback that ends past the deadline stops before waiting, with the error that asked for it.
func TestPushbackPastDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		start := time.Now()
		err := Do(ctx, Policy{}, func(ctx context.Context) error { return Pushback(errBusy, 500*time.Millisecond) })
		var re *Error
		if !errors.As(err, &re) || re.Reason != ReasonDeadline || re.Attempts != 1 || time.Since(start) != 0 {
			t.Fatalf("Do = %v after %v, want ReasonDeadline at once", err, time.Since(start))
		}
	})
}

// Pushback does not make an error retryable: a permanent error stays permanent.
func TestPushbackKeepsClassification(t *testing.T) {
	calls := 0
	err := Do(context.Background(), Policy{}, func(ctx context.Context) error {
		calls++
		return Pushback(Permanent(errBusy), 0)
	})
	var re *Error
	if !errors.As(err, &re) || re.Reason != ReasonPermanent || calls != 1 {
		t.Fatalf("Do = %v after %d calls, want ReasonPermanent after 1", err, calls)
	}
}
