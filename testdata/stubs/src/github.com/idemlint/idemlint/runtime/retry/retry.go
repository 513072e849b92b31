// Package retry is a test stub of idemlint's own runtime/retry
// (github.com/idemlint/idemlint/runtime/retry): the declarations the
// checks' tests use, with their real signatures; Policy has a subset of
// its fields, in their order. The real Do marks the context it passes to
// op; a Do given a marked context makes a single attempt unless its
// Policy sets AllowNested.
package retry

import (
	"context"
	"net/http"
	"time"
)

// Policy says how Do, DoValue and NewTransport retry (field subset).
type Policy struct {
	MaxAttempts    int
	BaseDelay      time.Duration
	MaxDelay       time.Duration
	Deadline       time.Duration
	AttemptTimeout time.Duration
	Retryable      func(err error) bool
	AllowNested    bool
}

// Permanent marks err as not worth retrying.
func Permanent(err error) error { panic("stub") }

// Do calls op until it succeeds or the policy says to stop.
func Do(ctx context.Context, p Policy, op func(ctx context.Context) error) error { panic("stub") }

// DoValue is Do for an operation that returns a value.
func DoValue[T any](ctx context.Context, p Policy, op func(ctx context.Context) (T, error)) (T, error) {
	panic("stub")
}

// Class is what an error says about whether a retry may help.
type Class uint8

// The classes of errors.
const (
	ClassUnknown Class = iota
	ClassTransient
	ClassPermanent
)

// Classify sorts err into a Class.
func Classify(err error) Class { panic("stub") }

// StatusError is an HTTP response's status as an error.
type StatusError struct {
	StatusCode int
	RetryAfter time.Duration
}

// Error returns "http status 503 Service Unavailable" and the like.
func (e *StatusError) Error() string { panic("stub") }

// ResponseError returns nil when resp's status is below 400, and otherwise
// a *StatusError. Its body is the real one's, so that a check analysing
// this package (retrystatus's in-package test) sees what it decides.
func ResponseError(resp *http.Response) error {
	if resp.StatusCode < 400 {
		return nil
	}
	d, _ := ParseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	return &StatusError{StatusCode: resp.StatusCode, RetryAfter: d}
}

// ParseRetryAfter parses a Retry-After header value.
func ParseRetryAfter(value string, now time.Time) (time.Duration, bool) { panic("stub") }

// Jitter returns a duration drawn uniformly from [0, d): full jitter.
func Jitter(d time.Duration) time.Duration { panic("stub") }

// NewTransport returns a RoundTripper that retries with p and keys every
// non-idempotent request.
func NewTransport(base http.RoundTripper, p Policy) http.RoundTripper { panic("stub") }
