package retry

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/idemlint/idemlint/runtime/internal/defaults"
)

// Defaults used for the zero (or negative) fields of a [Policy].
const (
	DefaultMaxAttempts = 4
	DefaultBaseDelay   = 100 * time.Millisecond
	DefaultMaxDelay    = 5 * time.Second
	DefaultDeadline    = 15 * time.Second
)

// Policy says how [Do], [DoValue] and [NewTransport] retry. The zero value uses the defaults.
// A Policy is a plain value: copying it is cheap and it may be shared by concurrent calls,
// as long as its hooks are safe for concurrent use.
type Policy struct {
	// MaxAttempts is the number of attempts in all, the first included; 1 disables retries.
	// Zero or negative means DefaultMaxAttempts (4).
	MaxAttempts int
	// BaseDelay is the cap of the first wait; the cap doubles after each attempt.
	// Zero or negative means DefaultBaseDelay (100ms).
	BaseDelay time.Duration
	// MaxDelay caps any one wait, a server's Retry-After included.
	// Zero or negative means DefaultMaxDelay (5s).
	MaxDelay time.Duration
	// Deadline is the overall time budget for retrying: no wait ends past it. It is counted from the moment
	// the first attempt fails, so that a call that succeeds at once never reads the clock; the first attempt
	// itself is bounded by AttemptTimeout and the context. Zero or negative means DefaultDeadline (15s);
	// there is no "forever".
	Deadline time.Duration
	// AttemptTimeout, when positive, bounds each attempt: the operation (or round trip, until the response
	// body is closed) gets a context that expires after it. The resulting context.DeadlineExceeded is a
	// timeout and is retried. Zero means no per-attempt bound.
	AttemptTimeout time.Duration
	// Retryable decides whether an error is worth another attempt. It is not consulted for errors made by
	// Permanent nor after the caller's context is done, which always stop. Nil means DefaultRetryable.
	Retryable func(err error) bool
	// Budget, when set, is a retry budget shared by all the calls that use it: once retries exceed about
	// 10% of attempts, calls stop retrying and fail fast with ReasonBudget.
	Budget *Budget
	// Breaker, when set, is a circuit breaker for the destination, shared by all the calls to it: while it
	// is open, calls fail fast with ReasonCircuitOpen and an error matching ErrCircuitOpen. It counts the
	// same failures as Budget. Nil means no breaker.
	Breaker *Breaker
	// DeadlineHeader is the request header in which a NewTransport round trip sends the time left before
	// its context's deadline, in milliseconds, on every attempt. Empty means DeadlineHeader
	// ("X-Request-Timeout-Ms"); "-" sends none. Do ignores it.
	DeadlineHeader string
	// AllowNested lets this layer retry even when it runs inside another Do's operation. By default such a
	// nested call makes a single attempt so that layers never multiply attempts.
	AllowNested bool
	// OnRetry, when set, is called before each wait with the number of the attempt that failed (from 1),
	// its error, and the wait chosen. It runs on the calling goroutine.
	OnRetry func(attempt int, err error, wait time.Duration)
	// Observe, when set, is the one hook that sees a run's retries and its end: it is called before each
	// wait (Event.Wait set) and when the run gives up (Event.GaveUp and Event.Reason set), with the number of
	// the attempt that failed and its error; not when the first attempt succeeds. It runs on the calling
	// goroutine and must be safe for concurrent use. [SlogObserver] logs the events; a counter of retries and
	// give-ups by reason is a few lines.
	Observe func(ctx context.Context, e Event)
}

// settings is a Policy's numbers with the defaults applied.
type settings struct {
	maxAttempts int
	base, max   time.Duration
	deadline    time.Duration
	// since is the attempt after which the exponential backoff last restarted (a server's pushback).
	since int
}

func (p *Policy) settings() settings {
	return settings{
		maxAttempts: defaults.Positive(p.MaxAttempts, DefaultMaxAttempts),
		base:        defaults.Positive(p.BaseDelay, DefaultBaseDelay),
		max:         defaults.Positive(p.MaxDelay, DefaultMaxDelay),
		deadline:    defaults.Positive(p.Deadline, DefaultDeadline),
	}
}

// backoffCap is min(max, base·2^n), the upper bound of the n-th wait (n = 0 after the first attempt).
func (s *settings) backoffCap(n int) time.Duration {
	if n >= 62 {
		return s.max
	}
	c := s.base << n
	if c>>n != s.base || c <= 0 || c > s.max {
		return s.max
	}
	return c
}

// jitter draws the n-th wait uniformly from [0, backoffCap(n)).
func (s *settings) jitter(n int) time.Duration {
	c := s.backoffCap(n)
	if c <= 0 {
		return 0
	}
	return rand.N(c)
}

// Reason says why retrying stopped.
type Reason uint8

// The reasons an [*Error] can carry.
const (
	// ReasonExhausted: MaxAttempts attempts were made.
	ReasonExhausted Reason = iota + 1
	// ReasonDeadline: the next wait would have ended at or past the deadline (Policy.Deadline or the
	// context's), a server's Retry-After included; the run stops before it, and Err is the last attempt's
	// error (the cause), not a context error.
	ReasonDeadline
	// ReasonContext: the caller's context is done.
	ReasonContext
	// ReasonPermanent: the error is not retryable (made by Permanent, or so classified).
	ReasonPermanent
	// ReasonBudget: the shared retry budget is spent.
	ReasonBudget
	// ReasonCircuitOpen: the Breaker rejected the next attempt.
	ReasonCircuitOpen
)

// reasonNames are the Reasons' short descriptions.
var reasonNames = [...]string{
	ReasonExhausted:   "attempts exhausted",
	ReasonDeadline:    "deadline reached",
	ReasonContext:     "context done",
	ReasonPermanent:   "permanent error",
	ReasonBudget:      "retry budget exhausted",
	ReasonCircuitOpen: "circuit open",
}

// String returns a short description of r.
func (r Reason) String() string { return enumName(reasonNames[:], "Reason", uint64(r)) }

// Label returns r's description in snake case ("circuit_open", "attempts_exhausted"), suitable as a metric
// label or a span attribute's value.
func (r Reason) Label() string { return strings.ReplaceAll(r.String(), " ", "_") }

// enumName returns the name of the value v of the enumeration typ, names[v], or typ(v) for a value without
// a name.
func enumName(names []string, typ string, v uint64) string {
	if v < uint64(len(names)) && names[v] != "" {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, v)
}

// Error is returned by [Do] and [DoValue] when they give up, and by a [NewTransport] round trip that ends
// with a transport error. It wraps the last attempt's error and, when Reason is ReasonContext, the context's
// error and cause too, so errors.Is(err, context.Canceled) holds after a cancellation, and, when Reason is
// ReasonCircuitOpen, the breaker's [*OpenError], so errors.Is(err, ErrCircuitOpen) holds.
type Error struct {
	// Reason says why retrying stopped.
	Reason Reason
	// Attempts is the number of attempts made (0 when the context was done before the first).
	Attempts int
	// Err is the last attempt's error, or, when no attempt was made, the context's error or the
	// breaker's *OpenError.
	Err error

	// also holds, for ReasonContext, ctx.Err() and context.Cause(ctx); for ReasonCircuitOpen after at least
	// one attempt, the *OpenError.
	also [2]error
}

// Error describes the failure: why retrying stopped, after how many attempts, and the last error.
func (e *Error) Error() string {
	s := "s"
	if e.Attempts == 1 {
		s = ""
	}
	if oe, ok := e.also[0].(*OpenError); ok && e.Reason == ReasonCircuitOpen {
		return fmt.Sprintf("retry: %v, after %d attempt%s: %v", oe, e.Attempts, s, e.Err)
	}
	if _, ok := e.Err.(*OpenError); ok && e.Reason == ReasonCircuitOpen && e.Attempts == 0 {
		return fmt.Sprintf("retry: %v", e.Err)
	}
	return fmt.Sprintf("retry: %s after %d attempt%s: %v", e.Reason, e.Attempts, s, e.Err)
}

// Unwrap returns the last attempt's error and, for ReasonContext, the context's error and its cause, for
// ReasonCircuitOpen, the breaker's *OpenError.
func (e *Error) Unwrap() []error {
	errs := []error{e.Err}
	for _, c := range e.also {
		if c != nil { // duplicates are harmless; == could panic on uncomparable errors
			errs = append(errs, c)
		}
	}
	return errs
}

func stopped(reason Reason, attempts int, err error, ctx context.Context) *Error {
	e := &Error{Reason: reason, Attempts: attempts, Err: err}
	if reason == ReasonContext {
		e.also = [2]error{ctx.Err(), context.Cause(ctx)}
	}
	return e
}

// circuitOpen is the error of a run the breaker stopped: before any attempt (Err is the *OpenError) or
// after attempts (Err is the last attempt's error, and the *OpenError is wrapped too).
func circuitOpen(attempts int, last, open error) *Error {
	if attempts == 0 {
		return &Error{Reason: ReasonCircuitOpen, Err: open}
	}
	return &Error{Reason: ReasonCircuitOpen, Attempts: attempts, Err: last, also: [2]error{open}}
}

type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// Permanent marks err as not worth retrying: an operation returns Permanent(err) to make [Do] stop at once
// with ReasonPermanent. The result wraps err (errors.Is and errors.As see through it) and has the same
// message. Permanent(nil) is nil.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	var pe *permanentError
	if errors.As(err, &pe) {
		return err
	}
	return &permanentError{err}
}

// Do calls op until it succeeds or the policy says to stop, and returns nil or an [*Error] that wraps op's last
// error. The context passed to op is marked so that a Do inside op makes a single attempt (see
// Policy.AllowNested); such a nested Do returns op's error unwrapped.
func Do(ctx context.Context, p Policy, op func(ctx context.Context) error) error {
	return run(ctx, &p, op)
}

// DoValue is [Do] for an operation that returns a value. On success it returns the value of the successful
// attempt; on failure the zero value and the error.
func DoValue[T any](ctx context.Context, p Policy, op func(ctx context.Context) (T, error)) (T, error) {
	var v T
	err := run(ctx, &p, func(ctx context.Context) error {
		var err error
		v, err = op(ctx)
		return err
	})
	if err != nil {
		var zero T
		return zero, err
	}
	return v, nil
}

// run is the retry loop behind Do and DoValue. The first attempt is kept on a short path that does not
// allocate (for context.Background and already marked contexts); the rest is in retryLoop.
func run(ctx context.Context, p *Policy, op func(context.Context) error) error {
	marked := InRetry(ctx)
	if marked && !p.AllowNested {
		return once(ctx, p, op)
	}
	if ctx.Err() != nil {
		return p.gaveUp(ctx, stopped(ReasonContext, 0, context.Cause(ctx), ctx))
	}
	var pm permit
	if p.Breaker != nil {
		var open error
		if pm, open = p.Breaker.allow(); open != nil {
			return p.gaveUp(ctx, circuitOpen(0, nil, open))
		}
	}
	actx := ctx
	if !marked {
		actx = mark(ctx)
	}
	err := attempt(actx, p, op)
	if err == nil {
		if p.Budget != nil || p.Breaker != nil {
			p.observe(ctx, pm, nil, nil)
		}
		return nil
	}
	return retryLoop(ctx, actx, p, pm, err, op)
}

// once makes the single attempt of a nested call and returns its error as is (or the breaker's
// *OpenError when it rejects the attempt).
func once(ctx context.Context, p *Policy, op func(context.Context) error) error {
	var pm permit
	if p.Breaker != nil {
		var open error
		if pm, open = p.Breaker.allow(); open != nil {
			return open
		}
	}
	err := attempt(ctx, p, op)
	p.observe(ctx, pm, err, retryableFunc(p))
	return err
}

func attempt(ctx context.Context, p *Policy, op func(context.Context) error) error {
	if p.AttemptTimeout <= 0 {
		return op(ctx)
	}
	actx, cancel := context.WithTimeout(ctx, p.AttemptTimeout)
	defer cancel()
	return op(actx)
}

func retryLoop(ctx, actx context.Context, p *Policy, pm permit, err error, op func(context.Context) error) error {
	s := p.settings()
	var start time.Time // set by decide when the first attempt has failed
	var w waiter
	defer w.stop()
	rf := retryableFunc(p)
	//idemlint:ignore unboundedretry decide stops the loop at MaxAttempts and at the deadline
	for n := 1; ; n++ {
		p.observe(ctx, pm, err, rf)
		d, reason := decide(ctx, p, &s, &start, n, err, retryAfterHint(err), rf)
		if reason != 0 {
			return p.gaveUp(ctx, stopped(reason, n, err, ctx))
		}
		if p.Breaker != nil {
			if open := p.Breaker.openPast(time.Now().Add(d)); open != nil {
				return p.gaveUp(ctx, circuitOpen(n, err, open))
			}
		}
		p.retrying(ctx, n, err, d)
		if !w.wait(ctx, d) {
			return p.gaveUp(ctx, stopped(ReasonContext, n, err, ctx))
		}
		if p.Breaker != nil {
			var open error
			if pm, open = p.Breaker.allow(); open != nil {
				return p.gaveUp(ctx, circuitOpen(n, err, open))
			}
		}
		if err = attempt(actx, p, op); err == nil {
			p.observe(ctx, pm, nil, nil)
			return nil
		}
	}
}

func retryableFunc(p *Policy) func(error) bool {
	if p.Retryable != nil {
		return p.Retryable
	}
	return DefaultRetryable
}

// decide is called after attempt n (from 1) failed with err. It returns the wait before the next attempt,
// or the reason to stop. The caller has already fed the failure to the budget and the breaker (observe).
// hint is the server's Retry-After (0 for none). *start is when the deadline started
// running; decide sets it, to now, when it is zero.
func decide(ctx context.Context, p *Policy, s *settings, start *time.Time, n int, err error, hint time.Duration,
	retryable func(error) bool) (time.Duration, Reason) {
	if isPermanent(err) {
		return 0, ReasonPermanent
	}
	if ctx.Err() != nil {
		return 0, ReasonContext
	}
	if !retryable(err) {
		return 0, ReasonPermanent
	}
	pushback, pushed := pushbackOf(err)
	if pushed && pushback < 0 {
		return 0, ReasonPermanent
	}
	if n >= s.maxAttempts {
		return 0, ReasonExhausted
	}
	if p.Budget != nil && !p.Budget.allow() {
		return 0, ReasonBudget
	}
	now := time.Now()
	if start.IsZero() {
		*start = now
	}
	deadline := start.Add(s.deadline)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	wait := s.jitter(n - 1 - s.since)
	if pushed {
		// The server said exactly when: no jitter, and the backoff starts again from BaseDelay (gRPC A6).
		wait, s.since = min(pushback, s.max), n
	} else if hint > 0 {
		// Retry-After: wait at least what the server asks, but never more than MaxDelay.
		wait = min(max(wait, hint), s.max)
	}
	// Give up now, with the last error, rather than wait for an attempt that could not start before the
	// deadline (or would start at it, doomed): a Retry-After that ends past it says the same as the
	// deadline itself.
	if !now.Add(wait).Before(deadline) {
		return 0, ReasonDeadline
	}
	return wait, 0
}

type pushbackError struct {
	err  error
	wait time.Duration
}

func (e *pushbackError) Error() string { return e.err.Error() }
func (e *pushbackError) Unwrap() error { return e.err }

// Pushback marks err with a server's instruction on when to retry, as gRPC's grpc-retry-pushback-ms
// trailer gives it (proposal A6). When [Do] would retry err anyway (the classification is err's own):
// a wait of 0 or more replaces the jittered backoff before the next attempt (clamped to MaxDelay; when it
// would end at or past the deadline, Do stops with ReasonDeadline) and the backoff starts again from BaseDelay
// after it; a negative wait means "do not retry": Do stops with ReasonPermanent. The budget and the breaker
// count err as they would without the mark. The result wraps err and has its message; Pushback(nil, d) is nil.
func Pushback(err error, wait time.Duration) error {
	if err == nil {
		return nil
	}
	return &pushbackError{err, wait}
}

func pushbackOf(err error) (time.Duration, bool) {
	var pe *pushbackError
	if errors.As(err, &pe) {
		return pe.wait, true
	}
	return 0, false
}

func isPermanent(err error) bool {
	var pe *permanentError
	return errors.As(err, &pe)
}

// waiter waits on one reusable timer, interrupted by the context.
type waiter struct{ t *time.Timer }

func (w *waiter) wait(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	if w.t == nil {
		w.t = time.NewTimer(d)
	} else {
		w.t.Reset(d)
	}
	select {
	case <-w.t.C:
		return true
	case <-ctx.Done():
		w.t.Stop()
		return false
	}
}

func (w *waiter) stop() {
	if w.t != nil {
		w.t.Stop()
	}
}
