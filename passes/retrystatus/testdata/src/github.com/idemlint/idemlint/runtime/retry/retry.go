// Package retry is a test stub of github.com/idemlint/idemlint/runtime/retry: signatures only.
package retry

import (
	"context"
	"net/http"
	"time"
)

type Policy struct {
	MaxAttempts    int
	Deadline       time.Duration
	AttemptTimeout time.Duration
	Retryable      func(err error) bool
}

func Do(ctx context.Context, p Policy, op func(ctx context.Context) error) error { panic("stub") }

func Permanent(err error) error { panic("stub") }

func ResponseError(resp *http.Response) error { panic("stub") }

func ParseRetryAfter(value string, now time.Time) (time.Duration, bool) { panic("stub") }

type Class uint8

const (
	ClassUnknown Class = iota
	ClassTransient
	ClassPermanent
)

func Classify(err error) Class { panic("stub") }

type StatusError struct {
	StatusCode int
	RetryAfter time.Duration
}

func (e *StatusError) Error() string { panic("stub") }
