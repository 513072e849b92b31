package onelayer

import (
	"context"
	"time"

	"github.com/idemlint/idemlint/runtime/retry"
)

func send(ctx context.Context) error { return nil }

// Charge retries with runtime/retry.Do.
func Charge(ctx context.Context) error { // want Charge:`retries\(retry\.Do, 4 attempts, in onelayer.Charge\)`
	return retry.Do(ctx, retry.Policy{}, send)
}

// A Do inside another Do's operation makes a single attempt: one layer.
func oneLayer(ctx context.Context) error {
	return retry.Do(ctx, retry.Policy{MaxAttempts: 3}, func(ctx context.Context) error {
		if err := Charge(ctx); err != nil {
			return err
		}
		return retry.Do(ctx, retry.Policy{}, send)
	})
}

// AllowNested opts the inner Do out of the rule: two layers.
func allowed(ctx context.Context) error {
	return retry.Do(ctx, retry.Policy{MaxAttempts: 3}, func(ctx context.Context) error {
		return retry.Do(ctx, retry.Policy{MaxAttempts: 2, AllowNested: true}, send) // want `retry\.Do \(2 attempts\) inside retry\.Do \(3 attempts\), up to 3×2 = 6 calls`
	})
}

// A hand loop does not mark the context: the Do inside it retries fully.
func handLoop(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = Charge(ctx); err == nil { // want `onelayer\.Charge reaches retry\.Do \(4 attempts\) inside a retry, up to 3×4 = 12 calls`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
