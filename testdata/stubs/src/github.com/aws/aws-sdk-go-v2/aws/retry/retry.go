// Package retry is a test stub of github.com/aws/aws-sdk-go-v2@v1.48.0 (aws/retry): signatures only.
package retry

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// BackoffDelayer provides the interface for determining the delay to before another request attempt, that previously failed.
type BackoffDelayer interface {
	BackoffDelay(attempt int, err error) (time.Duration, error)
}

// BackoffDelayerFunc provides a wrapper around a function to determine the backoff delay of an attempt retry.
type BackoffDelayerFunc func(int, error) (time.Duration, error)

// BackoffDelay returns the delay before attempt to retry a request.
func (fn BackoffDelayerFunc) BackoffDelay(attempt int, err error) (time.Duration, error) {
	return fn(attempt, err)
}

const (
	// DefaultMaxAttempts is the maximum of attempts for an API request
	DefaultMaxAttempts int = 3

	// DefaultMaxBackoff is the maximum back off delay between attempts
	DefaultMaxBackoff time.Duration = 20 * time.Second
)

// Default retry token quota values.
const (
	DefaultRetryRateTokens uint = 500

	// Deprecated: The SDK no longer uses this value by default.
	DefaultRetryCost        uint = 5
	DefaultNoRetryIncrement uint = 1

	// Deprecated: The SDK no longer uses this value by default.
	DefaultRetryTimeoutCost    uint = 10
	DefaultThrottlingRetryCost uint = 5
)

// DefaultRetryableHTTPStatusCodes is the default set of HTTP status codes the SDK should consider as retryable errors.
var DefaultRetryableHTTPStatusCodes = map[int]struct{}{
	500: {},
	502: {},
	503: {},
	504: {},
}

// IsErrorRetryable provides the interface of an implementation to determine if a error as the result of an operation is retryable.
type IsErrorRetryable interface {
	IsErrorRetryable(error) aws.Ternary
}

// IsErrorRetryableFunc wraps a function with the IsErrorRetryable interface.
type IsErrorRetryableFunc func(error) aws.Ternary

// IsErrorRetryable returns if the error is retryable.
func (fn IsErrorRetryableFunc) IsErrorRetryable(err error) aws.Ternary { return fn(err) }

// IsErrorTimeout provides the interface of an implementation to determine if a error matches.
type IsErrorTimeout interface {
	IsErrorTimeout(err error) aws.Ternary
}

// IsErrorThrottle provides the interface of an implementation to determine if a error response from an operation is a throttling error.
type IsErrorThrottle interface {
	IsErrorThrottle(error) aws.Ternary
}

// RateLimiter provides the interface for limiting the rate of attempt retries allowed by the retryer.
type RateLimiter interface {
	GetToken(ctx context.Context, cost uint) (releaseToken func() error, err error)
	AddTokens(uint) error
}

// StandardOptions provides the functional options for configuring the standard retryable, and delay behavior.
type StandardOptions struct {
	// Maximum number of attempts that should be made. <= 0 falls back to DefaultMaxAttempts (3).
	MaxAttempts int

	// MaxBackoff duration between retried attempts. Default 20s.
	MaxBackoff time.Duration

	// Provides the backoff strategy the retryer will use to determine the
	// delay between retry attempts. Default: full-jitter exponential.
	Backoff BackoffDelayer

	// Set of strategies to determine if the attempt should be retried.
	Retryables []IsErrorRetryable

	// Set of strategies to determine if the attempt failed due to a timeout error.
	Timeouts []IsErrorTimeout

	// Set of strategies to determine if the attempt failed due to a throttling error.
	Throttles []IsErrorThrottle

	// Provides the rate limiting strategy for rate limiting attempt retries
	// across all attempts the retryer is being used with. Default: 500-token bucket.
	RateLimiter RateLimiter

	// The cost to deduct from the RateLimiter's token bucket per retry.
	RetryCost uint

	// The cost to deduct from the RateLimiter's token bucket per retry caused by timeout error.
	RetryTimeoutCost uint

	// The cost to deduct from the RateLimiter's token bucket per retry caused by a throttling error.
	ThrottlingRetryCost uint

	// The cost to payback to the RateLimiter's token bucket for successful attempts.
	NoRetryIncrement uint

	// BaseDelay is the base delay for exponential backoff (50ms; 1s for throttles).
	BaseDelay time.Duration
}

// Standard is the standard retry pattern for the SDK.
type Standard struct{}

// NewStandard initializes a standard retry behavior with defaults that can be overridden via functional options.
func NewStandard(fnOpts ...func(*StandardOptions)) *Standard { panic("stub") }

// MaxAttempts returns the maximum number of attempts that can be made for a request before failing.
func (s *Standard) MaxAttempts() int { panic("stub") }

// IsErrorRetryable returns if the error is can be retried or not.
func (s *Standard) IsErrorRetryable(err error) bool { panic("stub") }

// RetryDelay returns the delay to use before another request attempt is made.
func (s *Standard) RetryDelay(attempt int, err error) (time.Duration, error) { panic("stub") }

// GetAttemptToken returns the token to be released after then attempt completes.
func (s *Standard) GetAttemptToken(ctx context.Context) (func(error) error, error) { panic("stub") }

// GetInitialToken returns a token for adding an extra attempt.
func (s *Standard) GetInitialToken() func(error) error { panic("stub") }

// GetRetryToken attempts to deduct the retry cost from the retry token pool.
func (s *Standard) GetRetryToken(ctx context.Context, opErr error) (func(error) error, error) {
	panic("stub")
}

// AddWithErrorCodes returns a Retryer with additional error codes considered for determining if the error should be retried.
func AddWithErrorCodes(r aws.Retryer, codes ...string) aws.Retryer { panic("stub") }

// AddWithMaxAttempts returns a Retryer with MaxAttempts set to the value specified.
// max 0 means no attempt limit (bounded only by the retry quota).
func AddWithMaxAttempts(r aws.Retryer, max int) aws.Retryer { panic("stub") }

// AddWithMaxBackoffDelay returns a retryer wrapping the passed in retryer overriding the RetryDelay behavior for a alternate minimum initial backoff delay.
func AddWithMaxBackoffDelay(r aws.Retryer, delay time.Duration) aws.Retryer { panic("stub") }

// AddWithLongPolling returns a Retryer that is marked as a long-polling retryer.
func AddWithLongPolling(r aws.Retryer) aws.Retryer { panic("stub") }

// ExponentialJitterBackoff provides backoff delays with jitter based on the number of attempts.
type ExponentialJitterBackoff struct{}

// NewExponentialJitterBackoff returns an ExponentialJitterBackoff configured for the max backoff.
func NewExponentialJitterBackoff(maxBackoff time.Duration) *ExponentialJitterBackoff {
	panic("stub")
}

// BackoffDelay returns the duration to wait before the next attempt should be made.
func (j *ExponentialJitterBackoff) BackoffDelay(attempt int, err error) (time.Duration, error) {
	panic("stub")
}

// MaxAttemptsError provides the error when the maximum number of attempts have been exceeded.
type MaxAttemptsError struct {
	Attempt int
	Err     error
}

func (e *MaxAttemptsError) Error() string { panic("stub") }

// Unwrap returns the nested error causing the max attempts error.
func (e *MaxAttemptsError) Unwrap() error { return e.Err }
