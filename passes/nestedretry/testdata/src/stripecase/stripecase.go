package stripecase

import (
	"context"
	"time"

	retry "github.com/avast/retry-go/v4"
	stripe "github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/paymentintent"
)

func create(ctx context.Context, params *stripe.PaymentIntentCreateParams) error {
	sc := stripe.NewClient("sk_test")
	return retry.Do(func() error {
		_, err := sc.V1PaymentIntents.Create(ctx, params) // want `\(stripe\.v1PaymentIntentService\)\.Create \(3 attempts\) inside a retry, up to 10×3 = 30 calls; set MaxNetworkRetries to 0`
		return err
	}, retry.Attempts(10))
}

func legacy(params *stripe.PaymentIntentParams) error {
	var err error
	for i := 0; i < 3; i++ {
		if _, err = paymentintent.New(params); err == nil { // want `paymentintent\.New retries by itself \(3 attempts\) inside a retry, up to 3×3 = 9 calls`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func oneRetry(ctx context.Context, params *stripe.PaymentIntentCreateParams) error {
	backends := stripe.NewBackendsWithConfig(&stripe.BackendConfig{MaxNetworkRetries: stripe.Int64(1)})
	sc := stripe.NewClient("sk_test", stripe.WithBackends(backends))
	return retry.Do(func() error {
		_, err := sc.V1PaymentIntents.Create(ctx, params) // want `\(stripe\.v1PaymentIntentService\)\.Create \(2 attempts\) inside a retry, up to 4×2 = 8 calls`
		return err
	}, retry.Attempts(4))
}

// ---- negatives

// MaxNetworkRetries 0 on this backend: one layer.
func noNetworkRetries(ctx context.Context, params *stripe.PaymentIntentCreateParams) error {
	cfg := &stripe.BackendConfig{MaxNetworkRetries: stripe.Int64(0)}
	sc := stripe.NewClient("sk_test", stripe.WithBackends(stripe.NewBackendsWithConfig(cfg)))
	return retry.Do(func() error {
		_, err := sc.V1PaymentIntents.Create(ctx, params)
		return err
	})
}

// Key helpers make no network calls.
func keyOnly(params *stripe.PaymentIntentCreateParams) error {
	return retry.Do(func() error {
		params.SetIdempotencyKey(stripe.NewIdempotencyKey())
		return nil
	})
}
