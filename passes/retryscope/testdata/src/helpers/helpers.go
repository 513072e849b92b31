// Package helpers calls retry helpers: its own, and retrykit's across a
// package boundary (through the model's helper facts).
package helpers

import (
	"context"
	"errors"
	"time"

	"example.com/retrykit"
)

func call(ctx context.Context) error { return nil }

// retry is a helper of this package: three attempts, a constant wait.
func retry(op func() error) error {
	var err error
	for i := 0; i < 3; i++ { // want `loop cap=3 deadline=none waits=constant body`
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func samePackage() error {
	return retry(func() error { return call(context.Background()) }) // want `library-call cap=3 deadline=none waits=constant body`
}

func named() error { return nil }

func samePackageNamed() error {
	return retry(named) // want `library-call cap=3 deadline=none waits=constant body`
}

func acrossPackages(ctx context.Context) error {
	return retrykit.Do(ctx, func(ctx context.Context) error { return call(ctx) }) // want `library-call cap=5 deadline=caller's-context waits=jittered body`
}

func generic(ctx context.Context) (int, error) {
	return retrykit.Value(ctx, func(ctx context.Context) (int, error) { return 1, call(ctx) }) // want `library-call cap=5 deadline=none waits=jittered body`
}

// backgroundForever passes a context that never ends to a helper bounded
// only by it.
func backgroundForever() error {
	return retrykit.Forever(context.Background(), func() error { return call(context.TODO()) }) // want `library-call cap=none deadline=none waits=constant body`
}

// ---- look-alikes

// each passes a func to a helper that does not retry.
func each() error {
	return retrykit.Each([]string{"a"}, func(s string) error { return errors.New(s) })
}

// apply calls its func parameter once: no loop, no helper.
func apply(op func() error) error { return op() }

func once() error { return apply(named) }
