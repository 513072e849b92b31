// Package retry is a test stub of idemlint's own runtime/retry: signatures only.
package retry

import (
	"context"
	"time"
)

type Policy struct {
	MaxAttempts int
	BaseDelay   time.Duration
	MaxDelay    time.Duration
	Deadline    time.Duration
}

func Do(ctx context.Context, p Policy, op func(ctx context.Context) error) error { return nil }

func DoValue[T any](ctx context.Context, p Policy, op func(ctx context.Context) (T, error)) (T, error) {
	var zero T
	return zero, nil
}
