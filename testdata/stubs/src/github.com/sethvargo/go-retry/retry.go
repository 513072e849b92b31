// Package retry is a test stub of github.com/sethvargo/go-retry@v0.5.0: signatures only.
package retry

import (
	"context"
	"time"
)

// ---- backoff.go

// Backoff is an interface that backs off.
type Backoff interface {
	Next() (next time.Duration, stop bool)
}

// BackoffFunc is a backoff expressed as a function.
type BackoffFunc func() (time.Duration, bool)

// Next implements Backoff.
func (b BackoffFunc) Next() (time.Duration, bool) { panic("stub") }

// WithJitter wraps a backoff function and adds the specified jitter.
func WithJitter(j time.Duration, next Backoff) Backoff { panic("stub") }

// WithJitterPercent wraps a backoff function and adds the specified jitter percentage.
func WithJitterPercent(j uint64, next Backoff) Backoff { panic("stub") }

// WithFullJitter wraps a backoff function and returns a random value between zero (inclusive) and the wrapped backoff's returned value (exclusive).
func WithFullJitter(next Backoff) Backoff { panic("stub") }

// WithMaxRetries executes the backoff function up until the maximum attempts.
// max counts retries (max+1 calls).
func WithMaxRetries(max uint64, next Backoff) Backoff { panic("stub") }

// WithCappedDuration sets a maximum on the duration returned from the next backoff.
func WithCappedDuration(cap time.Duration, next Backoff) Backoff { panic("stub") }

// WithMaxDuration sets a maximum on the total amount of time a backoff should execute.
// The clock starts when the wrapper is constructed, not when Do starts.
func WithMaxDuration(timeout time.Duration, next Backoff) Backoff { panic("stub") }

// ---- backoff_constant.go

// Constant is a wrapper around Retry that uses a constant backoff.
func Constant(ctx context.Context, t time.Duration, f RetryFunc) error { panic("stub") }

// NewConstant creates a new constant backoff using the value t.
// No jitter, no cap; panics if t <= 0.
func NewConstant(t time.Duration) Backoff { panic("stub") }

// ---- backoff_exponential.go

// Exponential is a wrapper around Retry that uses an exponential backoff.
func Exponential(ctx context.Context, base time.Duration, f RetryFunc) error { panic("stub") }

// NewExponential creates a new exponential backoff using the starting value of base and doubling on each failure (1, 2, 4, 8, 16, 32, 64...), up to max.
func NewExponential(base time.Duration) Backoff { panic("stub") }

// ---- backoff_fibonacci.go

// Fibonacci is a wrapper around Retry that uses a Fibonacci backoff.
func Fibonacci(ctx context.Context, base time.Duration, f RetryFunc) error { panic("stub") }

// NewFibonacci creates a new Fibonacci backoff using the starting value of base.
func NewFibonacci(base time.Duration) Backoff { panic("stub") }

// ---- retry.go

// RetryFunc is a function passed to [Do].
type RetryFunc func(ctx context.Context) error

// RetryFuncValue is a function passed to [Do] which returns a value.
type RetryFuncValue[T any] func(ctx context.Context) (T, error)

// RetryableError marks an error as retryable.
// Only errors wrapped with RetryableError are retried; any other error returns immediately.
func RetryableError(err error) error { panic("stub") }

func DoValue[T any](ctx context.Context, b Backoff, f RetryFuncValue[T]) (T, error) { panic("stub") }

// Do wraps a function with a backoff to retry.
// No cap by default: the built-in backoffs never stop; b is stateful and not reset by Do.
func Do(ctx context.Context, b Backoff, f RetryFunc) error { panic("stub") }
