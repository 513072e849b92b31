// Package retry is a test stub of github.com/avast/retry-go/v5@v5.1.1: signatures only.
package retry

import (
	"context"
	"errors"
	"time"
)

// ---- options.go

// Function signature of retry if function
type RetryIfFunc func(error) bool

// Function signature of OnRetry function
type OnRetryFunc func(attempt uint, err error)

// DelayContext provides configuration values needed for delay calculation.
type DelayContext interface {
	Delay() time.Duration
	MaxJitter() time.Duration
	MaxBackOffN() uint
	MaxDelay() time.Duration
}

// DelayTypeFunc is called to return the next delay to wait after the retriable function fails on `err` after `n` attempts.
type DelayTypeFunc func(n uint, err error, config DelayContext) time.Duration

// Timer represents the timer used to track time for a retry.
type Timer interface {
	After(time.Duration) <-chan time.Time
}

// retrierCore holds the configuration (fields omitted in the stub). Real defaults
// (newRetrierCore): attempts 10, delay 100ms, maxJitter 100ms, maxDelay unset,
// delayType CombineDelay(BackOffDelay, RandomDelay), retryIf IsRecoverable,
// context Background.
type retrierCore struct{}

// Delay implements DelayContext.
func (r *retrierCore) Delay() time.Duration { return 0 }

// MaxJitter implements DelayContext.
func (r *retrierCore) MaxJitter() time.Duration { return 0 }

// MaxBackOffN implements DelayContext.
func (r *retrierCore) MaxBackOffN() uint { return 0 }

// MaxDelay implements DelayContext.
func (r *retrierCore) MaxDelay() time.Duration { return 0 }

// Retrier is for retry operations that return only an error.
type Retrier struct {
	*retrierCore
}

// RetrierWithData is for retry operations that return data and an error.
type RetrierWithData[T any] struct {
	*retrierCore
}

// Option represents an option for retry.
type Option func(*retrierCore)

// New creates a new Retrier with the given options.
func New(opts ...Option) *Retrier { panic("stub") }

// NewWithData creates a new RetrierWithData[T] with the given options.
func NewWithData[T any](opts ...Option) *RetrierWithData[T] { panic("stub") }

// LastErrorOnly, AttemptsForError and MaxDelay are left out: no test uses
// them.

// Attempts set count of retry.
// Counts total attempts; default 10; 0 means retry forever.
func Attempts(attempts uint) Option { panic("stub") }

// UntilSucceeded will retry until the retried function succeeds.
func UntilSucceeded() Option { panic("stub") }

// Delay set delay between retry default is 100ms
func Delay(delay time.Duration) Option { panic("stub") }

// MaxJitter sets the maximum random Jitter between retries for RandomDelay
// Default 100ms; MaxJitter(0) is guarded in v5 (RandomDelay returns 0).
func MaxJitter(maxJitter time.Duration) Option { panic("stub") }

// DelayType set type of the delay between retries default is a combination of BackOffDelay and RandomDelay for exponential backoff with jitter
func DelayType(delayType DelayTypeFunc) Option { panic("stub") }

// BackOffDelay is a DelayType which increases delay between consecutive retries
func BackOffDelay(n uint, _ error, config DelayContext) time.Duration { panic("stub") }

// FixedDelay is a DelayType which keeps delay the same through all iterations
func FixedDelay(_ uint, _ error, config DelayContext) time.Duration { panic("stub") }

// RandomDelay is a DelayType which picks a random delay up to maxJitter
func RandomDelay(_ uint, _ error, config DelayContext) time.Duration { panic("stub") }

// CombineDelay is a DelayType the combines all of the specified delays into a new DelayTypeFunc
func CombineDelay(delays ...DelayTypeFunc) DelayTypeFunc { panic("stub") }

// FullJitterBackoffDelay is a DelayTypeFunc that calculates delay using exponential backoff with full jitter.
func FullJitterBackoffDelay(n uint, err error, config DelayContext) time.Duration { panic("stub") }

// OnRetry function callback are called each retry
func OnRetry(onRetry OnRetryFunc) Option { panic("stub") }

// RetryIf controls whether a retry should be attempted after an error (assuming there are any retry attempts remaining)
func RetryIf(retryIf RetryIfFunc) Option { panic("stub") }

// Context allow to set context of retry default are Background context
func Context(ctx context.Context) Option { panic("stub") }

// WithTimer provides a way to swap out timer module implementations.
func WithTimer(t Timer) Option { panic("stub") }

// WrapContextErrorWithLastError allows the context error to be returned wrapped with the last error that the retried function returned.
func WrapContextErrorWithLastError(wrapContextErrorWithLastError bool) Option { panic("stub") }

// WithThrottle limits retries with the given ThrottleManager.
func WithThrottle(manager ThrottleManager) Option { panic("stub") }

// WithFixedTokenBucketThrottle is a shortcut for WithThrottle(NewFixedTokenBucketThrottle(config)).
func WithFixedTokenBucketThrottle(config FixedTokenBucketThrottleConfig) Option { panic("stub") }

// ---- retry.go

// Function signature of retryable function
type RetryableFunc func() error

// Function signature of retryable function with data
type RetryableFuncWithData[T any] func() (T, error)

// Do executes the retryable function using this Retrier's configuration.
func (r *Retrier) Do(retryableFunc RetryableFunc) error { panic("stub") }

// Do executes the retryable function using this RetrierWithData's configuration.
func (r *RetrierWithData[T]) Do(retryableFunc RetryableFuncWithData[T]) (T, error) { panic("stub") }

// Error type represents list of errors in retry
type Error []error

// Error method return string representation of Error It is an implementation of error interface
func (e Error) Error() string { panic("stub") }

func (e Error) Is(target error) bool { panic("stub") }

func (e Error) As(target interface{}) bool { panic("stub") }

// Unwrap returns the list of errors that this Error is wrapping.
func (e Error) Unwrap() []error { panic("stub") }

// WrappedErrors returns the list of errors that this Error is wrapping.
func (e Error) WrappedErrors() []error { panic("stub") }

// LastError returns the last error in the error list.
func (e Error) LastError() error { panic("stub") }

// Unrecoverable wraps an error in `unrecoverableError` struct
func Unrecoverable(err error) error { panic("stub") }

// IsRecoverable checks if error is an instance of `unrecoverableError`
func IsRecoverable(err error) bool { panic("stub") }

// ---- throttle.go

// ErrThrottled is part of the error returned when a ThrottleManager denies a retry, alongside the attempt errors.
var ErrThrottled = errors.New("retry throttled")

// ThrottleManager limits retries across calls, see WithThrottle.
type ThrottleManager interface {
	AllowRetry(attempt uint, err error) bool

	OnSuccess(attempt uint)
}

// FixedTokenBucketThrottleConfig configures a FixedTokenBucketThrottleManager.
type FixedTokenBucketThrottleConfig struct {
	MaxCapacity int64

	ThrottleCost int64

	SuccessReleaseCost int64

	FirstSuccessReleaseCost int64
}

// FixedTokenBucketThrottleManager is a ThrottleManager backed by a fixed-size token bucket: retries take tokens, successes return them (capped at MaxCapacity).
type FixedTokenBucketThrottleManager struct {
}

// NewFixedTokenBucketThrottle creates a FixedTokenBucketThrottleManager with a full bucket.
func NewFixedTokenBucketThrottle(config FixedTokenBucketThrottleConfig) *FixedTokenBucketThrottleManager {
	panic("stub")
}

// AllowRetry takes ThrottleCost tokens, or returns false if not enough are left.
func (m *FixedTokenBucketThrottleManager) AllowRetry(_ uint, _ error) bool { panic("stub") }

// OnSuccess returns FirstSuccessReleaseCost tokens when attempt is 0, SuccessReleaseCost otherwise.
func (m *FixedTokenBucketThrottleManager) OnSuccess(attempt uint) {}
