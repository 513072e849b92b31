package gaxcase

import (
	"context"
	"time"

	retry "github.com/avast/retry-go/v4"
	gax "github.com/googleapis/gax-go/v2"

	"cloud.google.com/go/secrets"
)

func rpc(ctx context.Context) error { return nil }

func each(ctx context.Context, names []string) error {
	for range names {
		if err := rpc(ctx); err != nil {
			return err
		}
	}
	return nil
}

func invoke(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		err = gax.Invoke(ctx, func(ctx context.Context, _ gax.CallSettings) error { // want `gax\.Invoke \(no attempt cap\) inside a retry loop \(3 attempts\); drop gax\.WithRetry from the call options`
			// calls inside the inner operation belong to it: not reported
			if err := rpc(ctx); err != nil {
				return err
			}
			return each(ctx, nil)
		}, gax.WithRetry(func() gax.Retryer {
			return gax.OnErrorFunc(gax.Backoff{}, func(error) bool { return true })
		}))
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func cloudClient(ctx context.Context, c *secrets.Client) error {
	return retry.Do(func() error {
		_, err := c.GetSecret(ctx, "db-password") // want `\(\*secrets\.Client\)\.GetSecret reaches gax\.Invoke inside retry\.Do \(10 attempts\)`
		return err
	})
}

// ---- negatives

// gax.Invoke without retry options makes one attempt.
func noRetryOption(ctx context.Context) error {
	return retry.Do(func() error {
		return gax.Invoke(ctx, func(ctx context.Context, _ gax.CallSettings) error { return rpc(ctx) })
	})
}

func closeClient(c *secrets.Client) error {
	return retry.Do(func() error { return c.Close() })
}
