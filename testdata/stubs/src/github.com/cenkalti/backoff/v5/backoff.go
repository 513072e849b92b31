// Package backoff is a test stub of github.com/cenkalti/backoff/v5@v5.0.3: signatures only.
package backoff

import (
	"context"
	"time"

	backoff4 "github.com/cenkalti/backoff/v4"
)

// ---- backoff.go

// The policy types v5 keeps from v4 unchanged are v4's here (aliases): the
// model treats both versions' types alike, and the stub declares them once.

// BackOff is a backoff policy for retrying an operation.
type BackOff = backoff4.BackOff

// Stop indicates that no more retries should be made for use in NextBackOff().
const Stop time.Duration = -1

// ZeroBackOff is a fixed backoff policy whose backoff time is always zero.
type ZeroBackOff = backoff4.ZeroBackOff

// StopBackOff is a fixed backoff policy that always returns backoff.Stop.
type StopBackOff = backoff4.StopBackOff

// ConstantBackOff is a backoff policy that always returns the same backoff delay.
type ConstantBackOff = backoff4.ConstantBackOff

func NewConstantBackOff(d time.Duration) *ConstantBackOff { panic("stub") }

// ---- error.go

// PermanentError signals that the operation should not be retried.
type PermanentError struct {
	Err error
}

// Permanent wraps the given err in a *PermanentError.
func Permanent(err error) error { panic("stub") }

// Error returns a string representation of the Permanent error.
func (e *PermanentError) Error() string { panic("stub") }

// Unwrap returns the wrapped error.
func (e *PermanentError) Unwrap() error { panic("stub") }

// RetryAfterError signals that the operation should be retried after the given duration.
type RetryAfterError struct {
	Duration time.Duration
}

// RetryAfter returns a RetryAfter error that specifies how long to wait before retrying.
func RetryAfter(seconds int) error { panic("stub") }

// Error returns a string representation of the RetryAfter error.
func (e *RetryAfterError) Error() string { panic("stub") }

// ---- exponential.go

// ExponentialBackOff is a backoff implementation that increases the backoff period for each retry attempt using a randomization function that grows exponentially.
// v5 has no MaxElapsedTime or Clock field (moved to WithMaxElapsedTime).
type ExponentialBackOff struct {
	InitialInterval     time.Duration // NewExponentialBackOff: 500ms
	RandomizationFactor float64       // NewExponentialBackOff: 0.5 (±50% jitter)
	Multiplier          float64       // NewExponentialBackOff: 1.5
	MaxInterval         time.Duration // NewExponentialBackOff: 60s
}

const (
	DefaultInitialInterval     = 500 * time.Millisecond
	DefaultRandomizationFactor = 0.5
	DefaultMultiplier          = 1.5
	DefaultMaxInterval         = 60 * time.Second
)

// NewExponentialBackOff creates an instance of ExponentialBackOff using default values.
func NewExponentialBackOff() *ExponentialBackOff { panic("stub") }

// Reset the interval back to the initial retry interval and restarts the timer.
func (b *ExponentialBackOff) Reset() {}

// NextBackOff calculates the next backoff interval using the formula:
func (b *ExponentialBackOff) NextBackOff() time.Duration { panic("stub") }

// ---- retry.go

// DefaultMaxElapsedTime sets a default limit for the total retry duration.
const DefaultMaxElapsedTime = 15 * time.Minute

// Operation is a function that attempts an operation and may be retried.
type Operation[T any] func() (T, error)

// Notify is a function called on operation error with the error and backoff duration.
type Notify func(error, time.Duration)

// retryOptions mirrors the real unexported option struct (its timer field omitted).
type retryOptions struct {
	BackOff        BackOff       // default NewExponentialBackOff()
	Notify         Notify        // default nil
	MaxTries       uint          // default 0 = unlimited
	MaxElapsedTime time.Duration // default DefaultMaxElapsedTime (15m); 0 = unbounded
}

// RetryOption configures Retry. (The timer option, withTimer, is unexported in v5.0.3.)
type RetryOption func(*retryOptions)

// WithBackOff configures a custom backoff strategy.
func WithBackOff(b BackOff) RetryOption { panic("stub") }

// WithNotify sets a notification function to handle retry errors.
func WithNotify(n Notify) RetryOption { panic("stub") }

// WithMaxTries limits the number of all attempts.
// n counts attempts (not retries); default 0 = unlimited.
func WithMaxTries(n uint) RetryOption { panic("stub") }

// WithMaxElapsedTime limits the total duration for retry attempts.
// Default DefaultMaxElapsedTime (15m), applied to any BackOff; 0 = unbounded.
func WithMaxElapsedTime(d time.Duration) RetryOption { panic("stub") }

// Retry attempts the operation until success, a permanent error, or backoff completion.
func Retry[T any](ctx context.Context, operation Operation[T], opts ...RetryOption) (T, error) {
	panic("stub")
}

// ---- ticker.go

// Ticker holds a channel that delivers `ticks' of a clock at times reported by a BackOff.
type Ticker struct {
	C <-chan time.Time
}

// NewTicker returns a new Ticker containing a channel that will send the time at times specified by the BackOff argument.
func NewTicker(b BackOff) *Ticker { panic("stub") }

// Stop turns off a ticker.
func (t *Ticker) Stop() {}
