package idempotency

import (
	"context"
	"encoding/hex"
	"log/slog"
	"time"
)

// EventOutcome is what Middleware did with a request, as reported to the
// observer (see WithObserver).
type EventOutcome uint8

// The outcomes of a request handled by Middleware.
const (
	// OutcomeExecuted: the handler ran and its response was stored.
	OutcomeExecuted EventOutcome = iota + 1
	// OutcomeReplayed: the stored response was replayed; the handler did
	// not run.
	OutcomeReplayed
	// OutcomeInProgress: 409, another attempt holds the key.
	OutcomeInProgress
	// OutcomeMismatch: 422, the key was used with a different request.
	OutcomeMismatch
	// OutcomeBadRequest: 400 or 413, the key, scope or body was refused
	// before the store was asked.
	OutcomeBadRequest
	// OutcomeFailed: the handler ran but nothing was stored (a 5xx, a
	// non-storable status, a panic, a response too large); the key was
	// released.
	OutcomeFailed
	// OutcomeLeaseLost: 409, the attempt outlived its lease; its work was
	// rolled back.
	OutcomeLeaseLost
	// OutcomeStoreFull: 503, the store had no room (ErrStoreFull).
	OutcomeStoreFull
	// OutcomeStoreRejected: the store rejected the request's data
	// (ErrStoreRejected): 400 on the claim, 500 on the completion.
	OutcomeStoreRejected
	// OutcomeStoreUnavailable: 503, the store failed otherwise.
	OutcomeStoreUnavailable
	// OutcomeUnkeyed: no key under WithOptionalKey; the handler ran
	// without idempotency.
	OutcomeUnkeyed
)

// EventOutcomes lists every EventOutcome, in order, for exporters that
// declare their series up front.
var EventOutcomes = [...]EventOutcome{OutcomeExecuted, OutcomeReplayed, OutcomeInProgress, OutcomeMismatch,
	OutcomeBadRequest, OutcomeFailed, OutcomeLeaseLost, OutcomeStoreFull, OutcomeStoreRejected,
	OutcomeStoreUnavailable, OutcomeUnkeyed}

// String returns the outcome's name, a lowercase word suitable as a metric
// label.
func (o EventOutcome) String() string {
	switch o {
	case OutcomeExecuted:
		return "executed"
	case OutcomeReplayed:
		return "replayed"
	case OutcomeInProgress:
		return "in_progress"
	case OutcomeMismatch:
		return "mismatch"
	case OutcomeBadRequest:
		return "bad_request"
	case OutcomeFailed:
		return "failed"
	case OutcomeLeaseLost:
		return "lease_lost"
	case OutcomeStoreFull:
		return "store_full"
	case OutcomeStoreRejected:
		return "store_rejected"
	case OutcomeStoreUnavailable:
		return "store_unavailable"
	case OutcomeUnkeyed:
		return "unkeyed"
	}
	return "unknown"
}

// Event is one request's outcome, as given to the observer.
type Event struct {
	// Outcome says what happened.
	Outcome EventOutcome
	// Scope is the request's tenant (empty before the scope is known).
	Scope string
	// KeyHash is KeyHash(Scope, key), empty before the key and scope are
	// known: it correlates the attempts of one operation without putting
	// the key itself in logs.
	KeyHash string
	// Status is the status code answered.
	Status int
	// Duration is the time spent in the middleware, handler included.
	Duration time.Duration
	// StoreDuration is the time spent in the store's claim and completion.
	StoreDuration time.Duration
	// Err is the store error behind a store outcome (or a lost lease).
	Err error

	start time.Time
}

func (e *Event) set(o EventOutcome, status int, err error) {
	if e != nil {
		e.Outcome, e.Status, e.Err = o, status, err
	}
}

// clock returns the time when e is recorded, else the zero time (no clock
// read without an observer).
func (e *Event) clock() time.Time {
	if e == nil {
		return time.Time{}
	}
	return time.Now()
}

func (e *Event) storeTime(since time.Time) {
	if e != nil {
		e.StoreDuration += time.Since(since)
	}
}

// KeyHash returns 16 hexadecimal characters that identify (tenant, key)
// without revealing the key: the first 8 bytes of a SHA-256 of both.
func KeyHash(tenant, key string) string {
	return hex.EncodeToString(hashParts("idemlint-keyhash-v1", tenant, key)[:8])
}

// SlogObserver returns an observer (for WithObserver) that logs each event
// to l: at level Warn for the store outcomes and lost leases, Debug for the
// rest, with the attributes outcome, scope, key_hash, status, duration,
// store_duration and, when set, error.
func SlogObserver(l *slog.Logger) func(context.Context, Event) {
	return func(ctx context.Context, e Event) {
		level := slog.LevelDebug
		switch e.Outcome {
		case OutcomeStoreFull, OutcomeStoreRejected, OutcomeStoreUnavailable, OutcomeLeaseLost:
			level = slog.LevelWarn
		}
		if !l.Enabled(ctx, level) {
			return
		}
		attrs := []slog.Attr{
			slog.String("outcome", e.Outcome.String()),
			slog.String("scope", e.Scope),
			slog.String("key_hash", e.KeyHash),
			slog.Int("status", e.Status),
			slog.Duration("duration", e.Duration),
			slog.Duration("store_duration", e.StoreDuration),
		}
		if e.Err != nil {
			attrs = append(attrs, slog.String("error", e.Err.Error()))
		}
		l.LogAttrs(ctx, level, "idempotency", attrs...)
	}
}
