// Package retrykit is an in-house retry helper of the kind real services
// write: not a stub of a published library, but shared by the checks'
// tests of retry helpers across packages.
package retrykit

import (
	"context"
	"math/rand"
	"time"
)

// Do retries op up to 5 attempts with jittered exponential backoff, within
// ctx.
func Do(ctx context.Context, op func(ctx context.Context) error) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = op(ctx); err == nil {
			return nil
		}
		d := time.Duration(rand.Int63n(int64(100*time.Millisecond) << attempt))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
	}
	return err
}

// Value retries op like Do and returns its value.
func Value[T any](ctx context.Context, op func(ctx context.Context) (T, error)) (T, error) {
	var zero T
	for attempt := 0; attempt < 5; attempt++ {
		v, err := op(ctx)
		if err == nil {
			return v, nil
		}
		time.Sleep(time.Duration(rand.Int63n(int64(time.Second))))
	}
	return zero, context.DeadlineExceeded
}

// Forever retries op until it succeeds or ctx ends, once a second.
func Forever(ctx context.Context, op func() error) error {
	for {
		if err := op(); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// Each calls op once for every item: it passes a func, it does not retry.
func Each(items []string, op func(string) error) error {
	for _, it := range items {
		if err := op(it); err != nil {
			return err
		}
	}
	return nil
}
