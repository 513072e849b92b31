// Package retrier is a test stub of github.com/eapache/go-resiliency@v1.7.0: signatures only.
package retrier

import (
	"context"
	"time"
)

// ---- backoffs.go

// ConstantBackoff generates a simple back-off strategy of retrying 'n' times, and waiting 'amount' time after each one.
func ConstantBackoff(n int, amount time.Duration) []time.Duration { panic("stub") }

// ExponentialBackoff generates a simple back-off strategy of retrying 'n' times, and doubling the amount of time waited after each one.
func ExponentialBackoff(n int, initialAmount time.Duration) []time.Duration { panic("stub") }

// LimitedExponentialBackoff generates a simple back-off strategy of retrying 'n' times, and doubling the amount of time waited after each one.
func LimitedExponentialBackoff(n int, initialAmount time.Duration, limitAmount time.Duration) []time.Duration {
	panic("stub")
}

// ---- classifier.go

// Action is the type returned by a Classifier to indicate how the Retrier should proceed.
type Action int

const (
	Succeed Action = iota // Succeed indicates the Retrier should treat this value as a success.
	Fail                  // Fail indicates the Retrier should treat this value as a hard failure and not retry.
	Retry                 // Retry indicates the Retrier should treat this value as a soft failure and retry.
)

// Classifier is the interface implemented by anything that can classify Errors for a Retrier.
type Classifier interface {
	Classify(error) Action
}

// DefaultClassifier classifies errors in the simplest way possible.
type DefaultClassifier struct {
}

// Classify implements the Classifier interface.
func (c DefaultClassifier) Classify(err error) Action { panic("stub") }

// WhitelistClassifier classifies errors based on a whitelist.
type WhitelistClassifier []error

// Classify implements the Classifier interface.
func (list WhitelistClassifier) Classify(err error) Action { panic("stub") }

// BlacklistClassifier classifies errors based on a blacklist.
type BlacklistClassifier []error

// Classify implements the Classifier interface.
func (list BlacklistClassifier) Classify(err error) Action { panic("stub") }

// ---- retrier.go

// Retrier implements the "retriable" resiliency pattern, abstracting out the process of retrying a failed action a certain number of times with an optional bac...
type Retrier struct {
}

// New constructs a Retrier with the given backoff pattern and classifier.
// len(backoff) is the number of retries; a nil class means DefaultClassifier (retry every error).
func New(backoff []time.Duration, class Classifier) *Retrier { panic("stub") }

// WithInfiniteRetry set the retrier to loop infinitely on the last backoff duration.
func (r *Retrier) WithInfiniteRetry() *Retrier { panic("stub") }

// WithSurfaceWorkErrors configures the retrier to always return the last error received from work function even if a context timeout/deadline is hit.
func (r *Retrier) WithSurfaceWorkErrors() *Retrier { panic("stub") }

// Run executes the given work function by executing RunCtx without context.Context.
func (r *Retrier) Run(work func() error) error { panic("stub") }

// RunCtx executes the given work function, then classifies its return value based on the classifier used to construct the Retrier.
func (r *Retrier) RunCtx(ctx context.Context, work func(ctx context.Context) error) error {
	panic("stub")
}

// RunFn executes the given work function, then classifies its return value based on the classifier used to construct the Retrier.
func (r *Retrier) RunFn(ctx context.Context, work func(ctx context.Context, retries int) error) error {
	panic("stub")
}

// SetJitter sets the amount of jitter on each back-off to a factor between 0.0 and 1.0 (values outside this range are silently ignored).
// Jitter defaults to 0 (none).
func (r *Retrier) SetJitter(jit float64) {}
