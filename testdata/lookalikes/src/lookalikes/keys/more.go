package keys

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/google/uuid"
	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/retry"
	"github.com/stripe/stripe-go/v85"
	"google.golang.org/grpc/metadata"

	"lookalikes/paymentspb"
)

// ChargeMetadata sends one idempotency-key in the gRPC metadata of every
// attempt: the outgoing context is built once, above the retry.
//
// lookalike keyinloop passes/keyinloop/testdata/src/grpckeys/grpckeys.go: a key appended to the outgoing metadata inside the retry
func ChargeMetadata(ctx context.Context, c paymentspb.PaymentsClient) error {
	callCtx := metadata.AppendToOutgoingContext(ctx, "idempotency-key", uuid.NewString())
	return retry.Do(callCtx, retry.Policy{MaxAttempts: 3, Deadline: 10 * time.Second}, func(ctx context.Context) error {
		_, err := c.CreatePayment(ctx, &paymentspb.CreatePaymentRequest{Amount: 100})
		return err
	})
}

// ChargeRequestID builds the request, and its RequestId, once.
//
// lookalike keyinloop passes/keyinloop/testdata/src/grpckeys/grpckeys.go: a request id minted in the request literal inside the retry
func ChargeRequestID(ctx context.Context, c paymentspb.PaymentsClient) (*paymentspb.Payment, error) {
	req := &paymentspb.CreatePaymentRequest{Amount: 100, RequestId: uuid.NewString()}
	return retry.DoValue(ctx, retry.Policy{MaxAttempts: 3, Deadline: 10 * time.Second}, func(ctx context.Context) (*paymentspb.Payment, error) {
		return c.CreatePayment(ctx, req)
	})
}

// ChargeStripeLoop sets the stripe key once above a hand-written loop, on
// a client whose backend makes one attempt.
//
// lookalike keyinloop,nestedretry passes/keyinloop/testdata/src/sdks/sdks.go: stripe's IdempotencyKey minted inside the loop
func ChargeStripeLoop(ctx context.Context, apiKey string, amount int64) (*stripe.PaymentIntent, error) {
	backends := stripe.NewBackendsWithConfig(&stripe.BackendConfig{MaxNetworkRetries: stripe.Int64(0)})
	sc := stripe.NewClient(apiKey, stripe.WithBackends(backends))
	params := &stripe.PaymentIntentCreateParams{Amount: stripe.Int64(amount)}
	params.SetIdempotencyKey(uuid.NewString())
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var pi *stripe.PaymentIntent
		if pi, err = sc.V1PaymentIntents.Create(ctx, params); err == nil {
			return pi, nil
		}
		time.Sleep(retry.Jitter(time.Second << attempt))
	}
	return nil, err
}

// LaunchToken sets the launch's ClientToken once, from the caller's order.
//
// lookalike keyinloop passes/keyinloop/testdata/src/sdks/sdks.go: an EC2 ClientToken minted inside the loop
func LaunchToken(ctx context.Context, c *ec2.Client, orderID string) error {
	in := &ec2.RunInstancesInput{MinCount: aws.Int32(1), MaxCount: aws.Int32(1), ClientToken: aws.String("order-" + orderID)}
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if _, err = c.RunInstances(ctx, in, func(o *ec2.Options) { o.RetryMaxAttempts = 1 }); err == nil {
			return nil
		}
		time.Sleep(retry.Jitter(time.Second << attempt))
	}
	return err
}

// PostItems posts each item once, each with its own key: a loop over
// items, no retry, so a key per pass is right.
//
// lookalike keyinloop passes/keyinloop/testdata/src/helpers/helpers.go: a key minted on every pass of a loop
func PostItems(ctx context.Context, items []string) error {
	for _, s := range items {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/items", strings.NewReader(s))
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", uuid.NewString())
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
	}
	return nil
}

// RefundGRPC carries the incoming HTTP key to a gRPC call, derived, in the
// call's metadata.
//
// lookalike keyprop passes/keyprop/testdata/src/handlers/handlers.go: a downstream call without the incoming key
func RefundGRPC(c paymentspb.PaymentsClient) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		key := r.Header.Get("Idempotency-Key")
		ctx := metadata.AppendToOutgoingContext(r.Context(), "idempotency-key", idempotency.Derive(key, "refund"))
		if _, err := c.CreatePayment(ctx, &paymentspb.CreatePaymentRequest{Amount: -100, RequestId: idempotency.Derive(key, "refund")}); err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		w.WriteHeader(http.StatusOK)
	}
}

// ChargeHelper passes the incoming key to a helper that sends it, derived.
//
// lookalike keyprop passes/keyprop/testdata/src/handlers/handlers.go: a helper's downstream POST without the key
func ChargeHelper(w http.ResponseWriter, r *http.Request) {
	key := r.Header.Get("Idempotency-Key")
	if err := send(r.Context(), "https://pay.example.com/charges", idempotency.Derive(key, "charge"), nil); err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	w.WriteHeader(http.StatusCreated)
}
