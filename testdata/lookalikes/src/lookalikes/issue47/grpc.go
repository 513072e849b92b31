// Package issue47 holds the look-alikes of issue 47's examples: correct
// code that the suite reported when the issue was filed. Each is listed in
// known.txt as "pending" for as long as it is reported.
package issue47

import (
	"context"

	avast "github.com/avast/retry-go/v4"
	grpcretry "github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	"lookalikes/paymentspb"
)

// A service config with a timeout and waitForReady but no retryPolicy:
// gRPC makes one attempt per call.
const noRetryConfig = `{"methodConfig": [{"name": [{"service": "payments.v1.Payments"}],
  "timeout": "2s", "waitForReady": true}]}`

const retryConfig = `{"methodConfig": [{"name": [{"service": "payments.v1.Payments"}],
  "retryPolicy": {"maxAttempts": 4, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}]}`

// Payments is a service whose payments client is dialled in its constructor
// with the retry interceptor, and whose one retrying layer is its own.
type Payments struct {
	client paymentspb.PaymentsClient
}

// NewPayments dials the payments service with the retry interceptor.
func NewPayments(target string) (*Payments, error) {
	conn, err := grpc.NewClient(target,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithChainUnaryInterceptor(grpcretry.UnaryClientInterceptor(grpcretry.WithMax(3))))
	if err != nil {
		return nil, err
	}
	return &Payments{client: paymentspb.NewPaymentsClient(conn)}, nil
}

// noRetry is the call option that turns the interceptor off, kept in a
// slice as services do for the options every call passes.
var noRetry = []grpc.CallOption{grpcretry.Disable()}

// Charge retries in its own layer and turns the interceptor off per call.
//
// lookalike nestedretry issue47: a gRPC call made with grpcretry.Disable() inside a retry
func (p *Payments) Charge(ctx context.Context, req *paymentspb.CreatePaymentRequest) error {
	return avast.Do(func() error {
		_, err := p.client.CreatePayment(ctx, req, noRetry...)
		return err
	}, avast.Attempts(3), avast.Context(ctx))
}

// dialNoRetry dials with the service config's retry policy turned off.
func dialNoRetry(target string, creds credentials.TransportCredentials) (*grpc.ClientConn, error) {
	opts := []grpc.DialOption{grpc.WithTransportCredentials(creds), grpc.WithDefaultServiceConfig(retryConfig)}
	opts = append(opts, grpc.WithDisableRetry())
	return grpc.NewClient(target, opts...)
}

// ChargeDisabledConn retries over a conn dialled with grpc.WithDisableRetry()
// in a helper, the option appended to a slice.
//
// lookalike nestedretry issue47: a conn dialled with grpc.WithDisableRetry() inside a retry
func ChargeDisabledConn(ctx context.Context, target string, creds credentials.TransportCredentials) error {
	conn, err := dialNoRetry(target, creds)
	if err != nil {
		return err
	}
	defer conn.Close()
	client := paymentspb.NewPaymentsClient(conn)
	return avast.Do(func() error {
		_, err := client.CreatePayment(ctx, &paymentspb.CreatePaymentRequest{Amount: 100})
		return err
	}, avast.Attempts(3), avast.Context(ctx))
}

// ChargePlainConn retries over a plain conn: no service config, no retry
// interceptor, so the conn makes one attempt per call.
//
// lookalike nestedretry issue47: a plain grpc.NewClient(target, creds) conn inside a retry
func ChargePlainConn(ctx context.Context, target string, creds credentials.TransportCredentials) error {
	conn, err := grpc.NewClient(target, grpc.WithTransportCredentials(creds))
	if err != nil {
		return err
	}
	defer conn.Close()
	client := paymentspb.NewPaymentsClient(conn)
	return avast.Do(func() error {
		_, err := client.CreatePayment(ctx, &paymentspb.CreatePaymentRequest{Amount: 100})
		return err
	}, avast.Attempts(3), avast.Context(ctx))
}

// ChargeTimeoutConfig retries over a conn whose service config sets a
// timeout and waitForReady but no retryPolicy: one attempt per call.
//
// lookalike nestedretry issue47: a service config without a retryPolicy taken for a retrying conn
func ChargeTimeoutConfig(ctx context.Context, target string) error {
	conn, err := grpc.NewClient(target, grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithDefaultServiceConfig(noRetryConfig))
	if err != nil {
		return err
	}
	defer conn.Close()
	client := paymentspb.NewPaymentsClient(conn)
	return avast.Do(func() error {
		_, err := client.CreatePayment(ctx, &paymentspb.CreatePaymentRequest{Amount: 100})
		return err
	}, avast.Attempts(3), avast.Context(ctx))
}

// Ledger is a service whose ledger client is a plain conn dialled in its
// constructor: credentials only, no service config, no interceptor.
type Ledger struct {
	client paymentspb.PaymentsClient
}

// NewLedger dials the ledger with credentials only.
func NewLedger(target string, creds credentials.TransportCredentials) (*Ledger, error) {
	conn, err := grpc.NewClient(target, grpc.WithTransportCredentials(creds))
	if err != nil {
		return nil, err
	}
	return &Ledger{client: paymentspb.NewPaymentsClient(conn)}, nil
}

// Post retries in its own layer over the plain conn of its constructor.
//
// lookalike nestedretry issue47: a plain grpc.NewClient(target, creds) conn stored in a field, inside a retry
func (l *Ledger) Post(ctx context.Context, req *paymentspb.CreatePaymentRequest) error {
	return avast.Do(func() error {
		_, err := l.client.CreatePayment(ctx, req)
		return err
	}, avast.Attempts(3), avast.Context(ctx))
}
