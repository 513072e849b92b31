package benchcmp

import (
	"context"
	"testing"
	"time"

	avast "github.com/avast/retry-go/v4"
	"github.com/cenkalti/backoff/v5"

	"github.com/idemlint/idemlint/runtime/retry"
)

// The same policy in the three libraries: 4 attempts, exponential backoff from 100ms capped at 5s,
// 15s overall, cancellation through ctx. The operation succeeds at once: these benchmarks measure what a
// retry wrapper costs on the happy path, which is almost every call.

var sink int

func op(ctx context.Context) error {
	sink++
	return nil
}

func opValue(ctx context.Context) (int, error) {
	sink++
	return sink, nil
}

var policy = retry.Policy{MaxAttempts: 4, BaseDelay: 100 * time.Millisecond, MaxDelay: 5 * time.Second,
	Deadline: 15 * time.Second}

func newExponential() *backoff.ExponentialBackOff {
	b := backoff.NewExponentialBackOff()
	b.InitialInterval = 100 * time.Millisecond
	b.MaxInterval = 5 * time.Second
	return b
}

func BenchmarkDo(b *testing.B) {
	cancelCtx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, c := range []struct {
		name string
		ctx  context.Context
	}{{"background", context.Background()}, {"cancelctx", cancelCtx}} {
		name, ctx := c.name, c.ctx
		b.Run("idemlint/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := retry.Do(ctx, policy, op); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("retry-go-v4/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				err := avast.Do(func() error { return op(ctx) }, avast.Context(ctx), avast.Attempts(4),
					avast.Delay(100*time.Millisecond), avast.MaxDelay(5*time.Second))
				if err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("retry-go-v4-preset/"+name, func(b *testing.B) {
			// Options built once and reused, the cheapest way to call retry-go.
			opts := []avast.Option{avast.Context(ctx), avast.Attempts(4), avast.Delay(100 * time.Millisecond),
				avast.MaxDelay(5 * time.Second)}
			b.ReportAllocs()
			for b.Loop() {
				if err := avast.Do(func() error { return op(ctx) }, opts...); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("backoff-v5/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, err := backoff.Retry(ctx, func() (struct{}, error) { return struct{}{}, op(ctx) },
					backoff.WithBackOff(newExponential()), backoff.WithMaxTries(4),
					backoff.WithMaxElapsedTime(15*time.Second))
				if err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("backoff-v5-preset/"+name, func(b *testing.B) {
			// One ExponentialBackOff reused by every call: the cheapest way to call backoff, though not safe
			// for concurrent calls (its state is not synchronised).
			eb := newExponential()
			opts := []backoff.RetryOption{backoff.WithBackOff(eb), backoff.WithMaxTries(4),
				backoff.WithMaxElapsedTime(15 * time.Second)}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := backoff.Retry(ctx, func() (struct{}, error) { return struct{}{}, op(ctx) }, opts...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDoValue(b *testing.B) {
	ctx := context.Background()
	b.Run("idemlint", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := retry.DoValue(ctx, policy, opValue); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("retry-go-v4", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, err := avast.DoWithData(func() (int, error) { return opValue(ctx) }, avast.Context(ctx),
				avast.Attempts(4), avast.Delay(100*time.Millisecond), avast.MaxDelay(5*time.Second))
			if err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("backoff-v5", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, err := backoff.Retry(ctx, func() (int, error) { return opValue(ctx) },
				backoff.WithBackOff(newExponential()), backoff.WithMaxTries(4),
				backoff.WithMaxElapsedTime(15*time.Second))
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkDoParallel runs the happy path on every core with one shared retry budget.
func BenchmarkDoParallel(b *testing.B) {
	p := policy
	p.Budget = &retry.Budget{}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		ctx := context.Background()
		for pb.Next() {
			if err := retry.Do(ctx, p, func(context.Context) error { return nil }); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
