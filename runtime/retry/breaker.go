package retry

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"
	"time"

	"github.com/idemlint/idemlint/runtime/internal/defaults"
)

// Defaults used for the zero (or out of range) fields of a [BreakerConfig].
const (
	DefaultBreakerWindow       = 100
	DefaultBreakerMinCalls     = 20
	DefaultBreakerFailureRatio = 0.5
	DefaultBreakerOpenFor      = 10 * time.Second
	DefaultBreakerProbes       = 3
)

// maxBreakerWindow bounds BreakerConfig.Window (64 words of failure bits).
const maxBreakerWindow = 4096

// ErrCircuitOpen is the errors.Is target of the error returned while a [Breaker] rejects calls: [Do],
// [DoValue] and a [NewTransport] round trip then fail fast, without calling the destination.
var ErrCircuitOpen = errors.New("circuit breaker open")

// BreakerState is the state of a [Breaker].
type BreakerState uint32

// The states of a [Breaker].
const (
	// BreakerClosed lets every call through and counts failures.
	BreakerClosed BreakerState = iota
	// BreakerOpen rejects every call until its open period ends.
	BreakerOpen
	// BreakerHalfOpen lets a limited number of probe calls through: enough successes close the breaker,
	// one failure opens it again.
	BreakerHalfOpen
)

// breakerStateNames are the BreakerStates' names.
var breakerStateNames = [...]string{BreakerClosed: "closed", BreakerOpen: "open", BreakerHalfOpen: "half-open"}

// String returns "closed", "open" or "half-open".
func (s BreakerState) String() string {
	return enumName(breakerStateNames[:], "BreakerState", uint64(s))
}

// BreakerConfig configures a [Breaker]. The zero value gives the defaults:
//
//	Window        100   the last 100 calls form the sliding window
//	MinCalls      20    no trip before 20 calls are in the window
//	FailureRatio  0.5   trips when half the calls in the window failed
//	OpenFor       10s   rejects calls for 10s, then probes
//	Probes        3     half-open: 3 probes at a time, 3 successes close it
type BreakerConfig struct {
	// Name names the destination in error messages ("" for none).
	Name string
	// Window is the number of most recent calls over which the failure ratio is computed.
	// Zero or negative means DefaultBreakerWindow (100); at most 4096.
	Window int
	// MinCalls is the number of calls the window must hold before the breaker may trip.
	// Zero or negative means DefaultBreakerMinCalls (20); it is capped at Window.
	MinCalls int
	// FailureRatio trips the breaker when failures/calls in the window reach it. Values outside (0, 1] mean
	// DefaultBreakerFailureRatio (0.5).
	FailureRatio float64
	// OpenFor is how long an open breaker rejects calls before it lets probes through.
	// Zero or negative means DefaultBreakerOpenFor (10s).
	OpenFor time.Duration
	// Probes is how many calls a half-open breaker lets through at a time, and how many of them must
	// succeed to close it. Zero or negative means DefaultBreakerProbes (3).
	Probes int
	// OnStateChange, when set, is called on every state change. It runs under the breaker's lock: keep it
	// short and do not call the breaker from it.
	OnStateChange func(from, to BreakerState)
}

// Breaker is a circuit breaker for one destination (a downstream service): share one Breaker between all
// the calls to that destination, through Policy.Breaker, and use another for another destination.
//
// Closed, it counts the outcome of each attempt over a sliding window of the last Window calls; once the
// window holds at least MinCalls calls and the failures reach FailureRatio of them, it opens. Open, it
// rejects every attempt at once with an error matching [ErrCircuitOpen] (an [*OpenError] that says when it
// will probe again) for OpenFor. Then it is half-open: up to Probes attempts at a time go through; Probes
// successes close it with an empty window, and a single failure opens it again for OpenFor. A probe that
// never reports (its operation panicked) frees its slot after OpenFor.
//
// Failures are what the retry [Budget] counts as failures, decided at one place for both: an attempt that
// failed with an error the policy retries, while the caller's context is alive. Statuses 400 to 499 (429
// and 408 included) never count as failures, nor do permanent errors: the destination answered, and these
// count as successful calls. An attempt ended by the caller's own context does not count at all.
//
// The window counts calls, not time: a success on a closed breaker costs two atomic operations and reads
// no clock, so the breaker adds a few nanoseconds to a call that succeeds.
//
// A Breaker is safe for concurrent use. Make it with [NewBreaker]; it must not be copied.
type Breaker struct {
	name     string
	window   uint64
	minCalls uint64
	ratio    float64
	openFor  time.Duration
	probes   int
	onChange func(from, to BreakerState)

	state atomic.Uint32 // a BreakerState
	// pos counts the calls recorded since the window was last emptied; call i goes to slot i % window.
	pos atomic.Uint64
	// failed holds one bit per slot of the window: set when that call failed.
	failed []atomic.Uint64

	mu        sync.Mutex // guards the fields below and every state change
	openUntil time.Time
	inFlight  int       // half-open: probes running
	succeeded int       // half-open: probes that succeeded
	probedAt  time.Time // half-open: when the last probe was let through
}

// NewBreaker returns a closed Breaker with the given configuration; its zero fields mean the defaults
// (see [BreakerConfig]).
func NewBreaker(cfg BreakerConfig) *Breaker {
	w := min(defaults.Positive(cfg.Window, DefaultBreakerWindow), maxBreakerWindow)
	mc := min(defaults.Positive(cfg.MinCalls, DefaultBreakerMinCalls), w)
	r := cfg.FailureRatio
	if !(r > 0 && r <= 1) {
		r = DefaultBreakerFailureRatio
	}
	of := defaults.Positive(cfg.OpenFor, DefaultBreakerOpenFor)
	pr := defaults.Positive(cfg.Probes, DefaultBreakerProbes)
	return &Breaker{
		name: cfg.Name, window: uint64(w), minCalls: uint64(mc), ratio: r, openFor: of, probes: pr,
		onChange: cfg.OnStateChange,
		failed:   make([]atomic.Uint64, (w+63)/64),
	}
}

// State returns the breaker's state. An open breaker whose open period has ended reports BreakerOpen
// until the next call turns it half-open.
func (b *Breaker) State() BreakerState { return BreakerState(b.state.Load()) }

// OpenError is the error of a call the [Breaker] rejected. It matches [ErrCircuitOpen] with errors.Is.
type OpenError struct {
	// Name is the breaker's BreakerConfig.Name.
	Name string
	// State is BreakerOpen, or BreakerHalfOpen when all the probe slots are taken.
	State BreakerState
	// ProbeAt is when the breaker will let a probe through: the end of the open period. It is zero in the
	// half-open state, where a probe slot frees as soon as a running probe ends.
	ProbeAt time.Time
}

// Error says that the breaker is open and when it will probe again.
func (e *OpenError) Error() string {
	name := "circuit breaker"
	if e.Name != "" {
		name += " " + fmt.Sprintf("%q", e.Name)
	}
	if e.State == BreakerHalfOpen {
		return name + " half-open: failing fast while its probes run"
	}
	in := max(time.Until(e.ProbeAt), 0).Round(time.Millisecond)
	return fmt.Sprintf("%s open: failing fast, next probe in %v (at %s)", name, in,
		e.ProbeAt.UTC().Format("15:04:05.000Z07:00"))
}

// Is reports whether target is ErrCircuitOpen.
func (e *OpenError) Is(target error) bool { return target == ErrCircuitOpen }

// permit is what allow grants: a call on a closed breaker, or a probe.
type permit uint8

const (
	permitNone permit = iota // no breaker
	permitCall
	permitProbe
)

// allow asks for one attempt. It returns an *OpenError when the breaker rejects it.
func (b *Breaker) allow() (permit, error) {
	if BreakerState(b.state.Load()) == BreakerClosed {
		return permitCall, nil
	}
	return b.allowSlow(time.Now())
}

func (b *Breaker) allowSlow(now time.Time) (permit, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch BreakerState(b.state.Load()) {
	case BreakerClosed:
		return permitCall, nil
	case BreakerOpen:
		if now.Before(b.openUntil) {
			return permitNone, &OpenError{Name: b.name, State: BreakerOpen, ProbeAt: b.openUntil}
		}
		b.setState(BreakerHalfOpen)
		b.inFlight, b.succeeded = 0, 0
	}
	if b.inFlight >= b.probes {
		if now.Sub(b.probedAt) < b.openFor {
			return permitNone, &OpenError{Name: b.name, State: BreakerHalfOpen}
		}
		// No probe has ended for OpenFor: they were lost (an operation that panicked never reports).
		// Let new ones through rather than stay half-open forever.
		b.inFlight = 0
	}
	b.inFlight++
	b.probedAt = now
	return permitProbe, nil
}

// openPast returns an *OpenError when the breaker is open and stays open at least until t; a retry that
// would start then fails fast instead of waiting.
func (b *Breaker) openPast(t time.Time) error {
	if BreakerState(b.state.Load()) != BreakerOpen {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if BreakerState(b.state.Load()) == BreakerOpen && t.Before(b.openUntil) {
		return &OpenError{Name: b.name, State: BreakerOpen, ProbeAt: b.openUntil}
	}
	return nil
}

// setState changes the state; b.mu is held.
func (b *Breaker) setState(to BreakerState) {
	from := BreakerState(b.state.Load())
	if from == to {
		return
	}
	b.state.Store(uint32(to))
	if b.onChange != nil {
		b.onChange(from, to)
	}
}

// trip opens the breaker for openFor from now; b.mu is held.
func (b *Breaker) trip() {
	b.openUntil = time.Now().Add(b.openFor)
	b.setState(BreakerOpen)
}

// reset empties the window; b.mu is held.
func (b *Breaker) reset() {
	for i := range b.failed {
		b.failed[i].Store(0)
	}
	b.pos.Store(0)
}

// record counts the outcome of an attempt made under pm.
func (b *Breaker) record(pm permit, o outcome) {
	switch pm {
	case permitCall:
		if o == outcomeIgnored || BreakerState(b.state.Load()) != BreakerClosed {
			return // the caller gave up, or the breaker tripped while the call ran
		}
		i := b.pos.Add(1) - 1
		slot := i % b.window
		w, bit := &b.failed[slot>>6], uint64(1)<<(slot&63)
		if o != outcomeFailure {
			if w.Load()&bit != 0 {
				w.And(^bit)
			}
			return
		}
		w.Or(bit)
		b.failedCall(min(i+1, b.window))
	case permitProbe:
		b.mu.Lock()
		defer b.mu.Unlock()
		b.inFlight = max(b.inFlight-1, 0)
		if BreakerState(b.state.Load()) != BreakerHalfOpen {
			return
		}
		switch o {
		case outcomeFailure:
			b.trip()
		case outcomeSuccess, outcomeAnswered:
			if b.succeeded++; b.succeeded >= b.probes {
				b.reset()
				b.setState(BreakerClosed)
			}
		}
	}
}

// failedCall checks, after a failure, whether the window's failures reach the ratio.
func (b *Breaker) failedCall(calls uint64) {
	if calls < b.minCalls {
		return
	}
	n := 0
	for i := range b.failed {
		n += bits.OnesCount64(b.failed[i].Load())
	}
	if float64(n) < b.ratio*float64(calls) {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if BreakerState(b.state.Load()) == BreakerClosed {
		b.reset()
		b.trip()
	}
}

// outcome is what an attempt says about the destination's health, for the budget and the breaker.
type outcome uint8

const (
	// outcomeSuccess: the attempt succeeded.
	outcomeSuccess outcome = iota
	// outcomeFailure: it failed with an error the policy retries (not a 4xx), the caller's context alive.
	outcomeFailure
	// outcomeAnswered: it failed, but the destination answered: a 4xx status, or a permanent error.
	outcomeAnswered
	// outcomeIgnored: the caller's context ended.
	outcomeIgnored
)

// outcomeOf classifies the error of an attempt made under the caller's context ctx. It is the one
// definition of a failure that the budget and the breaker share.
func outcomeOf(ctx context.Context, err error, retryable func(error) bool) outcome {
	if err == nil {
		return outcomeSuccess
	}
	if ctx.Err() != nil {
		return outcomeIgnored
	}
	if isPermanent(err) {
		return outcomeAnswered
	}
	var se *StatusError
	if errors.As(err, &se) && se.StatusCode >= 400 && se.StatusCode < 500 {
		return outcomeAnswered
	}
	if !retryable(err) {
		return outcomeAnswered
	}
	return outcomeFailure
}

// observe feeds the outcome of one attempt to the policy's budget and breaker.
func (p *Policy) observe(ctx context.Context, pm permit, err error, retryable func(error) bool) {
	if p.Budget == nil && p.Breaker == nil {
		return
	}
	o := outcomeOf(ctx, err, retryable)
	if p.Budget != nil {
		switch o {
		case outcomeSuccess:
			p.Budget.success()
		case outcomeFailure:
			p.Budget.failure()
		}
	}
	if p.Breaker != nil {
		p.Breaker.record(pm, o)
	}
}
