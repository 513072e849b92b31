// Package stripeoff turns the global backend's network retries off: the
// legacy resource calls use that backend.
package stripeoff

import (
	"time"

	stripe "github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/paymentintent"
)

func init() {
	stripe.SetBackend(stripe.APIBackend, stripe.GetBackendWithConfig(stripe.APIBackend, &stripe.BackendConfig{
		MaxNetworkRetries: stripe.Int64(0),
	}))
}

func legacy(params *stripe.PaymentIntentParams) error {
	var err error
	for i := 0; i < 3; i++ {
		if _, err = paymentintent.New(params); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
