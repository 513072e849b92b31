// Package retry is a test stub of github.com/idemlint/idemlint/runtime/retry:
// the Policy fields and entry points nestedretry reads, signatures only.
// The real Do marks the context it passes to op; a Do given a marked
// context makes a single attempt unless its Policy sets AllowNested.
package retry

import "context"

// Policy says how Do retries.
type Policy struct {
	MaxAttempts int
	AllowNested bool
}

// Do calls op until it succeeds or the policy stops it.
func Do(ctx context.Context, p Policy, op func(ctx context.Context) error) error { return op(ctx) }

// DoValue is Do for an operation with a result.
func DoValue[T any](ctx context.Context, p Policy, op func(ctx context.Context) (T, error)) (T, error) {
	return op(ctx)
}
