// Package retry is a test stub of github.com/idemlint/idemlint/runtime/retry: signatures only.
package retry

import (
	"context"
	"net/http"
	"time"
)

type Policy struct {
	MaxAttempts    int
	BaseDelay      time.Duration
	MaxDelay       time.Duration
	Deadline       time.Duration
	AttemptTimeout time.Duration
	Retryable      func(err error) bool
}

func Do(ctx context.Context, p Policy, op func(ctx context.Context) error) error { panic("stub") }

func NewTransport(base http.RoundTripper, p Policy) http.RoundTripper { panic("stub") }

func ResponseError(resp *http.Response) error { panic("stub") }
