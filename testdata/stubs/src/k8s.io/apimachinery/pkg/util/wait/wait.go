// Package wait is a test stub of k8s.io/apimachinery@v0.37.2: signatures only.
package wait

import (
	"context"
	"k8s.io/utils/clock"
	"time"
)

// ---- backoff.go

// Backoff holds parameters applied to a Backoff function.
// The zero value has Steps 0: ExponentialBackoff never calls the condition.
type Backoff struct {
	// The initial duration.
	Duration time.Duration
	// Duration is multiplied by factor each iteration, if factor is not zero
	// and the limits imposed by Steps and Cap have not been reached.
	Factor float64
	// The sleep at each iteration is the duration plus an additional amount
	// chosen uniformly at random from [0, Jitter*Duration]. Default 0: no jitter.
	Jitter float64
	// The remaining number of iterations (attempts, for ExponentialBackoff).
	Steps int
	// A limit on revised values of the duration parameter. Reaching it sets
	// Steps to 0, so ExponentialBackoff ends after that sleep.
	Cap time.Duration
}

// Step returns an amount of time to sleep determined by the original Duration and Jitter.
func (b *Backoff) Step() time.Duration { panic("stub") }

// DelayFunc returns a function that will compute the next interval to wait given the arguments in b.
func (b Backoff) DelayFunc() DelayFunc { panic("stub") }

// Timer returns a timer implementation appropriate to this backoff's parameters for use with wait functions.
func (b Backoff) Timer() Timer { panic("stub") }

// DelayWithReset returns a DelayFunc that will return the appropriate next interval to wait.
func (b Backoff) DelayWithReset(c clock.Clock, resetInterval time.Duration) DelayFunc { panic("stub") }

// Until loops until stop channel is closed, running f every period.
func Until(f func(), period time.Duration, stopCh <-chan struct{}) {}

// UntilWithContext loops until context is done, running f every period.
func UntilWithContext(ctx context.Context, f func(context.Context), period time.Duration) {}

// NonSlidingUntil loops until stop channel is closed, running f every period.
func NonSlidingUntil(f func(), period time.Duration, stopCh <-chan struct{}) {}

// NonSlidingUntilWithContext loops until context is done, running f every period.
func NonSlidingUntilWithContext(ctx context.Context, f func(context.Context), period time.Duration) {}

// JitterUntil loops until stop channel is closed, running f every period.
func JitterUntil(f func(), period time.Duration, jitterFactor float64, sliding bool, stopCh <-chan struct{}) {
}

// JitterUntilWithContext loops until context is done, running f every period.
func JitterUntilWithContext(ctx context.Context, f func(context.Context), period time.Duration, jitterFactor float64, sliding bool) {
}

// BackoffUntil loops until stop channel is closed, run f every duration given by BackoffManager.
func BackoffUntil(f func(), backoff BackoffManager, sliding bool, stopCh <-chan struct{}) {}

// BackoffUntilWithContext loops until context is done, run f every duration given by BackoffManager.
func BackoffUntilWithContext(ctx context.Context, f func(ctx context.Context), backoff BackoffManager, sliding bool) {
}

// BackoffManager manages backoff with a particular scheme based on its underlying implementation.
type BackoffManager interface {
	Backoff() clock.Timer
}

// NewExponentialBackoffManager returns a manager for managing exponential backoff.
//
// Deprecated: see upstream.
func NewExponentialBackoffManager(initBackoff, maxBackoff, resetDuration time.Duration, backoffFactor, jitter float64, c clock.Clock) BackoffManager {
	panic("stub")
}

// NewJitteredBackoffManager returns a BackoffManager that backoffs with given duration plus given jitter.
//
// Deprecated: see upstream.
func NewJitteredBackoffManager(duration time.Duration, jitter float64, c clock.Clock) BackoffManager {
	panic("stub")
}

// ExponentialBackoff repeats a condition check with exponential backoff.
// Condition: (true, nil) done, (false, nil) retry, (_, err) abort. Returns ErrWaitTimeout
// after backoff.Steps attempts.
func ExponentialBackoff(backoff Backoff, condition ConditionFunc) error { panic("stub") }

// ExponentialBackoffWithContext repeats a condition check with exponential backoff.
func ExponentialBackoffWithContext(ctx context.Context, backoff Backoff, condition ConditionWithContextFunc) error {
	panic("stub")
}

// ---- delay.go

// DelayFunc returns the next time interval to wait.
type DelayFunc func() time.Duration

// Timer takes an arbitrary delay function and returns a timer that can handle arbitrary interval changes.
func (fn DelayFunc) Timer(c clock.Clock) Timer { panic("stub") }

// Until takes an arbitrary delay function and runs until cancelled or the condition indicates exit.
func (fn DelayFunc) Until(ctx context.Context, immediate, sliding bool, condition ConditionWithContextFunc) error {
	panic("stub")
}

// Concurrent returns a version of this DelayFunc that is safe for use by multiple goroutines that wish to share a single delay timer.
func (fn DelayFunc) Concurrent() DelayFunc { panic("stub") }

// ---- error.go

// ErrWaitTimeout is returned when the condition was not satisfied in time.
//
// Deprecated: see upstream.
var ErrWaitTimeout error // = ErrorInterrupted(errors.New("timed out waiting for the condition"))

// Interrupted returns true if the error indicates a Poll, ExponentialBackoff, or Until loop exited for any reason besides the condition returning true or an er...
func Interrupted(err error) bool { panic("stub") }

// ErrorInterrupted returns an error that indicates the wait was ended early for a given reason.
func ErrorInterrupted(cause error) error { panic("stub") }

// ---- poll.go

// PollUntilContextCancel tries a condition func until it returns true, an error, or the context is cancelled or hits a deadline.
func PollUntilContextCancel(ctx context.Context, interval time.Duration, immediate bool, condition ConditionWithContextFunc) error {
	panic("stub")
}

// PollUntilContextTimeout will terminate polling after timeout duration by setting a context timeout.
func PollUntilContextTimeout(ctx context.Context, interval, timeout time.Duration, immediate bool, condition ConditionWithContextFunc) error {
	panic("stub")
}

// The deprecated Poll, PollImmediate and their Until, Infinite and
// WithContext variants are left out: no test uses them.

// ---- timer.go

// Timer abstracts how wait functions interact with time runtime efficiently.
type Timer interface {
	C() <-chan time.Time

	Next()

	Stop()
}

// RealTimer can be passed to methods that need a clock.Timer.
var RealTimer = clock.RealClock{}.NewTimer

// ---- wait.go

// For any test of the style:
var ForeverTestTimeout = time.Second * 30

// NeverStop may be passed to Until to make it never stop.
var NeverStop <-chan struct{} = make(chan struct{})

// Group allows to start a group of goroutines and wait for their completion.
type Group struct {
}

func (g *Group) Wait() {}

// StartWithChannel starts f in a new goroutine in the group.
func (g *Group) StartWithChannel(stopCh <-chan struct{}, f func(stopCh <-chan struct{})) {}

// StartWithContext starts f in a new goroutine in the group.
func (g *Group) StartWithContext(ctx context.Context, f func(context.Context)) {}

// Start starts f in a new goroutine in the group.
func (g *Group) Start(f func()) {}

// Forever calls f every period for ever.
// Unbounded: Until(f, period, NeverStop), no jitter.
func Forever(f func(), period time.Duration) {}

// Jitter returns a time.Duration between duration and duration + maxFactor * duration.
func Jitter(duration time.Duration, maxFactor float64) time.Duration { panic("stub") }

// ConditionFunc returns true if the condition is satisfied, or an error if the loop should be aborted.
type ConditionFunc func() (done bool, err error)

// ConditionWithContextFunc returns true if the condition is satisfied, or an error if the loop should be aborted.
type ConditionWithContextFunc func(context.Context) (done bool, err error)

// WithContext converts a ConditionFunc into a ConditionWithContextFunc
func (cf ConditionFunc) WithContext() ConditionWithContextFunc { panic("stub") }

// ContextForChannel provides a context that will be treated as cancelled when the provided parentCh is closed.
func ContextForChannel(parentCh <-chan struct{}) context.Context { panic("stub") }
