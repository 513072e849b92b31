// Package retry is go-containerregistry's internal/retry shape: Retry
// hands a closure calling its f to wait.ExponentialBackoff, a retry
// wrapper rather than a loop of its own.
package retry

import (
	"context"
	"fmt"

	"wrapcase/wait"
)

type Backoff = wait.Backoff

type Predicate func(error) (retry bool)

func IsNotNil(err error) bool { return err != nil }

func Retry(f func() error, p Predicate, backoff wait.Backoff) (err error) {
	if f == nil {
		return fmt.Errorf("nil f passed to retry")
	}
	condition := func() (bool, error) {
		err = f()
		if p(err) {
			return false, nil
		}
		return true, err
	}
	wait.ExponentialBackoff(backoff, condition)
	return
}

// Once runs f a single time: it hands f to no retry, so it is no wrapper.
func Once(f func() error) error { return f() }

type key struct{}

// Never returns a context under which the retrying transport does not
// retry (go-containerregistry's internal/retry.Never).
func Never(ctx context.Context) context.Context { return context.WithValue(ctx, key{}, true) }

// Ever reports whether ctx was not made by Never.
func Ever(ctx context.Context) bool { return ctx.Value(key{}) == nil }
