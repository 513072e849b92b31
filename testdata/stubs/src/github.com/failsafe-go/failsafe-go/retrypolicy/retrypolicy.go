// Package retrypolicy is a test stub of github.com/failsafe-go/failsafe-go@v0.9.8: signatures only.
package retrypolicy

import (
	"errors"
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/budget"
	"time"
)

// ---- retry.go

// ErrExceeded is a convenience error sentinel that can be used to build policies that handle ExceededError, such as via HandleErrors(retrypolicy.ErrExceeded).
var ErrExceeded = errors.New("retries exceeded")

// ExceededError is returned when a RetryPolicy's max attempts or max duration are exceeded.
type ExceededError struct {
	LastResult any
	LastError  error
}

func (e ExceededError) Error() string { panic("stub") }

func (e ExceededError) Is(err error) bool { panic("stub") }

func (e ExceededError) Unwrap() error { panic("stub") }

// IsExceededError returns whether the err is an ExceededError or ErrExceeded.
func IsExceededError(err error) bool { panic("stub") }

// AsExceededError returns a *ExceededError if err is an ExceededError value, else nil.
func AsExceededError(err error) *ExceededError { panic("stub") }

// RetryPolicy is a policy that defines when retries should be performed.
type RetryPolicy[R any] interface {
	failsafe.Policy[R]
}

// Builder builds RetryPolicy instances. Defaults: 2 retries (3 attempts), zero delay,
// no jitter, no max duration, every non-nil error handled.
type Builder[R any] interface {
	failsafe.FailurePolicyBuilder[Builder[R], R]
	failsafe.DelayablePolicyBuilder[Builder[R], R]

	AbortOnResult(result R) Builder[R]

	AbortOnErrors(errs ...error) Builder[R]

	AbortOnErrorTypes(errs ...any) Builder[R]

	AbortIf(predicate func(R, error) bool) Builder[R]

	ReturnLastFailure() Builder[R]

	// Total attempts; default 3; -1 means unlimited.
	WithMaxAttempts(maxAttempts int) Builder[R]

	// Retries; default 2; -1 means unlimited.
	WithMaxRetries(maxRetries int) Builder[R]

	// Default none.
	WithMaxDuration(maxDuration time.Duration) Builder[R]

	// Delay doubles up to maxDelay (factor 2); no jitter unless WithJitter*.

	WithBackoff(delay time.Duration, maxDelay time.Duration) Builder[R]

	WithBackoffFactor(delay time.Duration, maxDelay time.Duration, delayFactor float64) Builder[R]

	WithRandomDelay(delayMin time.Duration, delayMax time.Duration) Builder[R]

	WithJitter(jitter time.Duration) Builder[R]

	WithJitterFactor(jitterFactor float64) Builder[R]

	WithBudget(retryBudget budget.Budget) Builder[R]

	OnAbort(listener func(failsafe.ExecutionEvent[R])) Builder[R]

	OnRetryScheduled(listener func(failsafe.ExecutionScheduledEvent[R])) Builder[R]

	OnRetry(listener func(failsafe.ExecutionEvent[R])) Builder[R]

	OnRetriesExceeded(listener func(failsafe.ExecutionEvent[R])) Builder[R]

	Build() RetryPolicy[R]
}

// NewWithDefaults creates a RetryPolicy for execution result type R that allows 3 execution attempts max with no delay.
func NewWithDefaults[R any]() RetryPolicy[R] { panic("stub") }

// NewBuilder creates a Builder for execution result type R, which by default will build a RetryPolicy that allows 3 execution attempts max with no delay, unles...
func NewBuilder[R any]() Builder[R] { panic("stub") }
