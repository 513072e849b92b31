// Package retry is a test stub of github.com/avast/retry-go@v3.0.0+incompatible: signatures only.
package retry

import (
	"context"
	"time"
)

// ---- options.go

// Function signature of retry if function
type RetryIfFunc func(error) bool

// Function signature of OnRetry function
// n = count of attempts
type OnRetryFunc func(n uint, err error)

type DelayTypeFunc func(n uint, err error, config *Config) time.Duration

type Config struct {
	attempts      uint
	delay         time.Duration
	maxDelay      time.Duration
	maxJitter     time.Duration
	onRetry       OnRetryFunc
	retryIf       RetryIfFunc
	delayType     DelayTypeFunc
	lastErrorOnly bool
	context       context.Context

	maxBackOffN uint
}

// Option represents an option for retry.
type Option func(*Config)

// return the direct last error that came from the retried function
// default is false (return wrapped errors with everything)
func LastErrorOnly(lastErrorOnly bool) Option { panic("stub") }

// Attempts set count of retry
// default is 10
func Attempts(attempts uint) Option { panic("stub") }

// Delay set delay between retry
// default is 100ms
func Delay(delay time.Duration) Option { panic("stub") }

// MaxDelay set maximum delay between retry
// does not apply by default
func MaxDelay(maxDelay time.Duration) Option { panic("stub") }

// MaxJitter sets the maximum random Jitter between retries for RandomDelay
func MaxJitter(maxJitter time.Duration) Option { panic("stub") }

// DelayType set type of the delay between retries
// default is BackOff
func DelayType(delayType DelayTypeFunc) Option { panic("stub") }

// BackOffDelay is a DelayType which increases delay between consecutive retries
func BackOffDelay(n uint, _ error, config *Config) time.Duration { panic("stub") }

// FixedDelay is a DelayType which keeps delay the same through all iterations
func FixedDelay(_ uint, _ error, config *Config) time.Duration { panic("stub") }

// RandomDelay is a DelayType which picks a random delay up to config.maxJitter
func RandomDelay(_ uint, _ error, config *Config) time.Duration { panic("stub") }

// CombineDelay is a DelayType the combines all of the specified delays into a new DelayTypeFunc
func CombineDelay(delays ...DelayTypeFunc) DelayTypeFunc { panic("stub") }

// OnRetry function callback are called each retry
func OnRetry(onRetry OnRetryFunc) Option { panic("stub") }

// RetryIf controls whether a retry should be attempted after an error
// (assuming there are any retry attempts remaining)
func RetryIf(retryIf RetryIfFunc) Option { panic("stub") }

// Context allow to set context of execution
// default are Background context
func Context(ctx context.Context) Option { panic("stub") }

// ---- retry.go

// Function signature of retryable function
type RetryableFunc func() error

var (
	DefaultAttempts      = uint(10)
	DefaultDelay         = 100 * time.Millisecond
	DefaultMaxJitter     = 100 * time.Millisecond
	DefaultOnRetry       = func(n uint, err error) {}
	DefaultRetryIf       = IsRecoverable
	DefaultDelayType     = CombineDelay(BackOffDelay, RandomDelay)
	DefaultLastErrorOnly = false
	DefaultContext       = context.Background()
)

func Do(retryableFunc RetryableFunc, opts ...Option) error { panic("stub") }

// Error type represents list of errors in retry
type Error []error

// Error method return string representation of Error
// It is an implementation of error interface
func (e Error) Error() string { panic("stub") }

// WrappedErrors returns the list of errors that this Error is wrapping.
func (e Error) WrappedErrors() []error { panic("stub") }

// Unrecoverable wraps an error in `unrecoverableError` struct
func Unrecoverable(err error) error { panic("stub") }

// IsRecoverable checks if error is an instance of `unrecoverableError`
func IsRecoverable(err error) bool { panic("stub") }
