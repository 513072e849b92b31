package retry

import (
	"context"
	"errors"
	"log/slog"
	"time"
)

// Event is one step of a retry run, as given to Policy.Observe: a retry about to wait, or the run giving up.
type Event struct {
	// Attempt is the number of the attempt that failed, from 1 (0 when the run gave up before its first
	// attempt: a done context, an open breaker).
	Attempt int
	// Err is that attempt's error (a [*StatusError] for a retried status of the transport).
	Err error
	// Wait is the wait before the next attempt; 0 when GaveUp.
	Wait time.Duration
	// GaveUp is true when the run stops; Reason then says why.
	GaveUp bool
	// Reason is why the run stopped, when GaveUp.
	Reason Reason
}

// retrying reports a retry to OnRetry and Observe.
func (p *Policy) retrying(ctx context.Context, n int, err error, wait time.Duration) {
	if p.OnRetry != nil {
		p.OnRetry(n, err, wait)
	}
	if p.Observe != nil {
		p.Observe(ctx, Event{Attempt: n, Err: err, Wait: wait})
	}
}

// gaveUp reports the end of a run to Observe and returns e.
func (p *Policy) gaveUp(ctx context.Context, e *Error) *Error {
	if p.Observe != nil {
		p.Observe(ctx, Event{Attempt: e.Attempts, Err: e.Err, GaveUp: true, Reason: e.Reason})
	}
	return e
}

// SlogObserver returns a Policy.Observe hook that logs to l: each retry at level Info ("retry", with
// attempt, wait and error), each give-up at Warn ("retry gave up", with attempt, reason and error), and, for
// a status the transport retried, its status code.
func SlogObserver(l *slog.Logger) func(context.Context, Event) {
	return func(ctx context.Context, e Event) {
		level, msg := slog.LevelInfo, "retry"
		if e.GaveUp {
			level, msg = slog.LevelWarn, "retry gave up"
		}
		if !l.Enabled(ctx, level) {
			return
		}
		attrs := []slog.Attr{slog.Int("attempt", e.Attempt)}
		if e.GaveUp {
			attrs = append(attrs, slog.String("reason", e.Reason.String()))
		} else {
			attrs = append(attrs, slog.Duration("wait", e.Wait))
		}
		var se *StatusError
		if errors.As(e.Err, &se) {
			attrs = append(attrs, slog.Int("status", se.StatusCode))
		}
		if e.Err != nil {
			attrs = append(attrs, slog.String("error", e.Err.Error()))
		}
		l.LogAttrs(ctx, level, msg, attrs...)
	}
}
