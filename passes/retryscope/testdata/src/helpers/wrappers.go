package helpers

import (
	"context"

	"example.com/retrykit"
	"github.com/cenkalti/backoff/v4"
)

// Wrappers: a function that hands its func parameter to another
// retry (a library call, or a helper's call) is a retry wrapper; a call of
// it is a wrapper call (Result.WrapperCalls) with the inner retry's cap,
// deadline and waits, its body the operation passed. A function that runs
// its func itself, or passes a func of its own to the retry, is none.

// viaLibrary hands op to backoff.Retry.
func viaLibrary(op func() error) error {
	return backoff.Retry(op, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 4)) // want `library-call cap=5 deadline=library-max-elapsed-time waits=jittered nobody`
}

// viaClosure hands a closure calling f to retrykit.Do.
func viaClosure(ctx context.Context, f func() error) error {
	return retrykit.Do(ctx, func(ctx context.Context) error { return f() }) // want `library-call cap=5 deadline=caller's-context waits=jittered body`
}

// viaHelper wraps the loop helper of the package (retry); viaWrapper wraps a
// wrapper.
func viaHelper(op func() error) error { return retry(op) } // want `library-call cap=3 deadline=none waits=constant nobody`

func viaWrapper(op func() error) error { return viaHelper(op) } // want `wrapper library-call cap=3 deadline=none waits=constant nobody`

// runsItself runs f once; ownOp retries a func of its own, not f.
func runsItself(f func() error) error { return f() }

func ownOp(f func() error) error {
	return retry(func() error { return call(context.Background()) }) // want `library-call cap=3 deadline=none waits=constant body`
}

func uses(ctx context.Context) {
	_ = viaLibrary(func() error { return call(ctx) })      // want `wrapper library-call cap=5 deadline=library-max-elapsed-time waits=jittered body`
	_ = viaClosure(ctx, func() error { return call(ctx) }) // want `wrapper library-call cap=5 deadline=caller's-context waits=jittered body`
	_ = viaHelper(func() error { return call(ctx) })       // want `wrapper library-call cap=3 deadline=none waits=constant body`
	_ = viaWrapper(func() error { return call(ctx) })      // want `wrapper library-call cap=3 deadline=none waits=constant body`
	_ = runsItself(func() error { return call(ctx) })
	_ = ownOp(func() error { return call(ctx) })
}
