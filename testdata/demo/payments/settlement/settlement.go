// Package settlement settles refunds through the payments client.
package settlement

import (
	"context"
	"math/rand/v2"
	"time"

	"example.com/demo/payments"
)

// Settle retries a refund that already retries by itself: up to 3×5 = 15
// refund requests for one settlement.
func Settle(ctx context.Context, c *payments.Client, body []byte) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = c.Refund(ctx, body); err == nil {
			return nil
		}
		wait := time.Duration(rand.Int64N(int64(time.Second << attempt)))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
	return err
}
