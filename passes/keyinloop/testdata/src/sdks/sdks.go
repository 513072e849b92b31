package sdks

import (
	"context"
	"fmt"

	retrygo "github.com/avast/retry-go/v4"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/google/uuid"
	"github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/paymentintent"
)

func stripeField() error {
	for attempt := 0; attempt < 3; attempt++ {
		params := &stripe.PaymentIntentParams{
			Params: stripe.Params{IdempotencyKey: stripe.String(uuid.NewString())}, // want `uuid\.NewString mints a new key for field IdempotencyKey on every attempt`
			Amount: stripe.Int64(100),
		}
		if _, err := paymentintent.New(params); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

func stripeSetter() error {
	return retrygo.Do(func() error {
		params := &stripe.PaymentIntentParams{Amount: stripe.Int64(100)}
		params.SetIdempotencyKey(uuid.NewString()) // want `uuid\.NewString mints a new key for \(\*stripe\.Params\)\.SetIdempotencyKey on every attempt`
		_, err := paymentintent.New(params)
		return err
	})
}

func stripeAssign() error {
	for attempt := 0; attempt < 3; attempt++ {
		params := &stripe.PaymentIntentParams{Amount: stripe.Int64(100)}
		params.IdempotencyKey = stripe.String(stripe.NewIdempotencyKey()) // want `stripe\.NewIdempotencyKey mints a new key for field IdempotencyKey on every attempt`
		if _, err := paymentintent.New(params); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

func awsClientToken(ctx context.Context, c *ec2.Client) error {
	for attempt := 0; attempt < 3; attempt++ {
		in := &ec2.RunInstancesInput{
			ImageId:     aws.String("ami-1"),
			ClientToken: aws.String(uuid.NewString()), // want `uuid\.NewString mints a new key for field ClientToken on every attempt`
		}
		if _, err := c.RunInstances(ctx, in); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// Negatives: the SDKs' own keys, stable keys.
func stripeStable() error {
	key := uuid.NewString()
	for attempt := 0; attempt < 3; attempt++ {
		params := &stripe.PaymentIntentParams{Amount: stripe.Int64(100)}
		params.SetIdempotencyKey(key)
		if _, err := paymentintent.New(params); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

func awsAutoToken(ctx context.Context, c *ec2.Client) error {
	in := &ec2.RunInstancesInput{ImageId: aws.String("ami-1"), ClientToken: aws.String(uuid.NewString())}
	for attempt := 0; attempt < 3; attempt++ {
		if _, err := c.RunInstances(ctx, in); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

func stripeDescription() error {
	for attempt := 0; attempt < 3; attempt++ {
		params := &stripe.PaymentIntentParams{Amount: stripe.Int64(100), Description: stripe.String(uuid.NewString())}
		if _, err := paymentintent.New(params); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}
