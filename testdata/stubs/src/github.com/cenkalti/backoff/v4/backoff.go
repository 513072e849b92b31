// Package backoff is a test stub of github.com/cenkalti/backoff/v4@v4.3.0: signatures only.
package backoff

import (
	"context"
	"time"
)

// ---- backoff.go

// BackOff is a backoff policy for retrying an operation.
type BackOff interface {
	NextBackOff() time.Duration

	Reset()
}

// Stop indicates that no more retries should be made for use in NextBackOff().
const Stop time.Duration = -1

// ZeroBackOff is a fixed backoff policy whose backoff time is always zero, meaning that the operation is retried immediately without waiting, indefinitely.
type ZeroBackOff struct {
}

func (b *ZeroBackOff) Reset() {}

func (b *ZeroBackOff) NextBackOff() time.Duration { panic("stub") }

// StopBackOff is a fixed backoff policy that always returns backoff.Stop for NextBackOff(), meaning that the operation should never be retried.
type StopBackOff struct {
}

func (b *StopBackOff) Reset() {}

func (b *StopBackOff) NextBackOff() time.Duration { panic("stub") }

// ConstantBackOff is a backoff policy that always returns the same backoff delay.
type ConstantBackOff struct {
	Interval time.Duration
}

func (b *ConstantBackOff) Reset() {}

func (b *ConstantBackOff) NextBackOff() time.Duration { panic("stub") }

func NewConstantBackOff(d time.Duration) *ConstantBackOff { panic("stub") }

// ---- context.go

// BackOffContext is a backoff policy that stops retrying after the context is canceled.
type BackOffContext interface {
	BackOff
	Context() context.Context
}

// WithContext returns a BackOffContext with context ctx
func WithContext(b BackOff, ctx context.Context) BackOffContext { panic("stub") }

// ---- exponential.go

// ExponentialBackOff is a backoff implementation that increases the backoff period for each retry attempt using a randomization function that grows exponentially.
// A struct literal leaves MaxElapsedTime at 0 and RandomizationFactor at 0;
// NewExponentialBackOff fills in the Default* values below.
type ExponentialBackOff struct {
	InitialInterval     time.Duration // NewExponentialBackOff: 500ms
	RandomizationFactor float64       // NewExponentialBackOff: 0.5 (±50% jitter); 0 = no randomness
	Multiplier          float64       // NewExponentialBackOff: 1.5
	MaxInterval         time.Duration // NewExponentialBackOff: 60s (caps the un-randomized interval)

	// After MaxElapsedTime the ExponentialBackOff returns Stop.
	// It never stops if MaxElapsedTime == 0. NewExponentialBackOff: 15m.
	MaxElapsedTime time.Duration
	Stop           time.Duration // NewExponentialBackOff: backoff.Stop
	Clock          Clock         // NewExponentialBackOff: SystemClock
}

// Clock is an interface that returns current time for BackOff.
type Clock interface {
	Now() time.Time
}

// ExponentialBackOffOpts is a function type used to configure ExponentialBackOff options.
type ExponentialBackOffOpts func(*ExponentialBackOff)

const (
	DefaultInitialInterval     = 500 * time.Millisecond
	DefaultRandomizationFactor = 0.5
	DefaultMultiplier          = 1.5
	DefaultMaxInterval         = 60 * time.Second
	DefaultMaxElapsedTime      = 15 * time.Minute
)

// NewExponentialBackOff creates an instance of ExponentialBackOff using default values.
// Defaults: 500ms initial, factor 1.5, ±50% jitter, 60s max interval, 15m MaxElapsedTime.
func NewExponentialBackOff(opts ...ExponentialBackOffOpts) *ExponentialBackOff { panic("stub") }

// WithInitialInterval sets the initial interval between retries.
func WithInitialInterval(duration time.Duration) ExponentialBackOffOpts { panic("stub") }

// WithRandomizationFactor sets the randomization factor to add jitter to intervals.
func WithRandomizationFactor(randomizationFactor float64) ExponentialBackOffOpts { panic("stub") }

// WithMultiplier sets the multiplier for increasing the interval after each retry.
func WithMultiplier(multiplier float64) ExponentialBackOffOpts { panic("stub") }

// WithMaxInterval sets the maximum interval between retries.
func WithMaxInterval(duration time.Duration) ExponentialBackOffOpts { panic("stub") }

// WithMaxElapsedTime sets the maximum total time for retries.
func WithMaxElapsedTime(duration time.Duration) ExponentialBackOffOpts { panic("stub") }

// WithRetryStopDuration sets the duration after which retries should stop.
func WithRetryStopDuration(duration time.Duration) ExponentialBackOffOpts { panic("stub") }

// WithClockProvider sets the clock used to measure time.
func WithClockProvider(clock Clock) ExponentialBackOffOpts { panic("stub") }

type systemClock struct{}

func (t systemClock) Now() time.Time { return time.Time{} }

// SystemClock implements Clock interface that uses time.Now().
var SystemClock = systemClock{}

// Reset the interval back to the initial retry interval and restarts the timer.
func (b *ExponentialBackOff) Reset() {}

// NextBackOff calculates the next backoff interval using the formula: Randomized interval = RetryInterval * (1 ± RandomizationFactor)
func (b *ExponentialBackOff) NextBackOff() time.Duration { panic("stub") }

// GetElapsedTime returns the elapsed time since an ExponentialBackOff instance is created and is reset when Reset() is called.
func (b *ExponentialBackOff) GetElapsedTime() time.Duration { panic("stub") }

// ---- retry.go

// An OperationWithData is executing by RetryWithData() or RetryNotifyWithData().
type OperationWithData[T any] func() (T, error)

// An Operation is executing by Retry() or RetryNotify().
type Operation func() error

// Notify is a notify-on-error function.
type Notify func(error, time.Duration)

// Retry the operation o until it does not return error or BackOff stops.
// No attempt cap of its own: bounded only by b (Stop) or Permanent errors.
func Retry(o Operation, b BackOff) error { panic("stub") }

// RetryWithData is like Retry but returns data in the response too.
func RetryWithData[T any](o OperationWithData[T], b BackOff) (T, error) { panic("stub") }

// RetryNotify calls notify function with the error and wait duration for each failed attempt before sleep.
func RetryNotify(operation Operation, b BackOff, notify Notify) error { panic("stub") }

// RetryNotifyWithData is like RetryNotify but returns data in the response too.
func RetryNotifyWithData[T any](operation OperationWithData[T], b BackOff, notify Notify) (T, error) {
	panic("stub")
}

// RetryNotifyWithTimer calls notify function with the error and wait duration using the given Timer for each failed attempt before sleep.
func RetryNotifyWithTimer(operation Operation, b BackOff, notify Notify, t Timer) error {
	panic("stub")
}

// RetryNotifyWithTimerAndData is like RetryNotifyWithTimer but returns data in the response too.
func RetryNotifyWithTimerAndData[T any](operation OperationWithData[T], b BackOff, notify Notify, t Timer) (T, error) {
	panic("stub")
}

// PermanentError signals that the operation should not be retried.
type PermanentError struct {
	Err error
}

func (e *PermanentError) Error() string { panic("stub") }

func (e *PermanentError) Unwrap() error { panic("stub") }

func (e *PermanentError) Is(target error) bool { panic("stub") }

// Permanent wraps the given err in a *PermanentError.
func Permanent(err error) error { panic("stub") }

// ---- ticker.go

// Ticker holds a channel that delivers `ticks' of a clock at times reported by a BackOff.
type Ticker struct {
	C <-chan time.Time
}

// NewTicker returns a new Ticker containing a channel that will send the time at times specified by the BackOff argument.
func NewTicker(b BackOff) *Ticker { panic("stub") }

// NewTickerWithTimer returns a new Ticker with a custom timer.
func NewTickerWithTimer(b BackOff, timer Timer) *Ticker { panic("stub") }

// Stop turns off a ticker.
func (t *Ticker) Stop() {}

// ---- timer.go

type Timer interface {
	Start(duration time.Duration)
	Stop()
	C() <-chan time.Time
}

// ---- tries.go

// WithMaxRetries creates a wrapper around another BackOff, which will return Stop if NextBackOff() has been called too many times since the last time Reset() w...
// max counts retries: max+1 calls in total; 0 means exactly one call.
func WithMaxRetries(b BackOff, max uint64) BackOff { panic("stub") }
