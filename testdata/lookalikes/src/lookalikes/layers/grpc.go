package layers

import (
	"context"
	"time"

	grpcretry "github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"github.com/idemlint/idemlint/runtime/retry"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"lookalikes/paymentspb"
)

const serviceConfig = `{"methodConfig": [{"name": [{"service": "payments.v1.Payments"}],
  "retryPolicy": {"maxAttempts": 4, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}]}`

// CreatePayment retries in its own layer over a conn whose service-config
// retries are turned off by grpc.WithDisableRetry().
//
// lookalike nestedretry passes/nestedretry/testdata/src/grpccase/grpccase.go: a conn with a retryPolicy called inside a retry
func CreatePayment(ctx context.Context, target string, req *paymentspb.CreatePaymentRequest) (*paymentspb.Payment, error) {
	conn, err := grpc.NewClient(target, grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithDefaultServiceConfig(serviceConfig), grpc.WithDisableRetry())
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	client := paymentspb.NewPaymentsClient(conn)
	return retry.DoValue(ctx, retry.Policy{MaxAttempts: 3, Deadline: 10 * time.Second}, func(ctx context.Context) (*paymentspb.Payment, error) {
		return client.CreatePayment(ctx, req)
	})
}

// CreatePaymentOnce lets the interceptor be the one layer: no retry
// around the call.
//
// lookalike nestedretry passes/nestedretry/testdata/src/grpccase/grpccase.go: a call through the retry interceptor inside a hand-written retry
func CreatePaymentOnce(ctx context.Context, target string, req *paymentspb.CreatePaymentRequest) (*paymentspb.Payment, error) {
	conn, err := grpc.NewClient(target,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithUnaryInterceptor(grpcretry.UnaryClientInterceptor(grpcretry.WithMax(3), grpcretry.WithBackoff(grpcretry.BackoffExponentialWithJitter(100*time.Millisecond, 0.5)))))
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return paymentspb.NewPaymentsClient(conn).CreatePayment(ctx, req)
}

// CreatePaymentDisabled passes grpcretry.Disable() on the call inside its
// own retry, written inline.
//
// lookalike nestedretry passes/nestedretry/testdata/src/grpccase/grpccase.go: the interceptor's retries inside retry.Do
func CreatePaymentDisabled(ctx context.Context, client paymentspb.PaymentsClient, req *paymentspb.CreatePaymentRequest) (*paymentspb.Payment, error) {
	return retry.DoValue(ctx, retry.Policy{MaxAttempts: 3, Deadline: 10 * time.Second}, func(ctx context.Context) (*paymentspb.Payment, error) {
		return client.CreatePayment(ctx, req, grpcretry.Disable())
	})
}

// CreatePaymentMaxZero turns the interceptor off with WithMax(0) per call.
//
// lookalike nestedretry etcd-interceptor-auth-nested: an interceptor's retries re-entered from a retry
func CreatePaymentMaxZero(ctx context.Context, target string, req *paymentspb.CreatePaymentRequest) error {
	conn, err := grpc.NewClient(target, grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithUnaryInterceptor(grpcretry.UnaryClientInterceptor(grpcretry.WithMax(3))))
	if err != nil {
		return err
	}
	defer conn.Close()
	client := paymentspb.NewPaymentsClient(conn)
	return retry.Do(ctx, retry.Policy{MaxAttempts: 3, Deadline: 10 * time.Second}, func(ctx context.Context) error {
		_, err := client.CreatePayment(ctx, req, grpcretry.WithMax(0))
		return err
	})
}
