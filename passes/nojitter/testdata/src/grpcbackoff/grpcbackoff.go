package grpcbackoff

import (
	"context"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"google.golang.org/grpc"
)

const policy = `{"methodConfig": [{"name": [{}], "retryPolicy": {"maxAttempts": 3, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}]}`

func linear() {
	grpc.NewClient("dns:///payments", grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(
		retry.WithMax(3),
		retry.WithBackoff(retry.BackoffLinear(100*time.Millisecond)), // want `constant wait without jitter \(retry\.BackoffLinear\); use retry\.BackoffExponentialWithJitterBounded`
	)))
}

func exponential() {
	grpc.NewClient("dns:///payments", grpc.WithChainUnaryInterceptor(retry.UnaryClientInterceptor(
		retry.WithMax(4),
		retry.WithBackoff(retry.BackoffExponential(100*time.Millisecond)), // want `deterministic backoff without jitter \(retry.BackoffExponential\)`
	)))
}

func zeroJitter() {
	grpc.NewClient("dns:///payments", grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(
		retry.WithMax(4),
		retry.WithBackoff(retry.BackoffLinearWithJitter(time.Second, 0)), // want `constant wait without jitter \(retry.BackoffLinearWithJitter\)`
	)))
}

// Look-alikes: jittered backoffs, the default backoff, the conn's own
// retries (±20 %), an interceptor that does not retry.
func fine() {
	grpc.NewClient("dns:///payments", grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithMax(3))))
	grpc.NewClient("dns:///payments", grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithMax(3), retry.WithBackoff(retry.BackoffLinearWithJitter(time.Second, 0.1)))))
	grpc.NewClient("dns:///payments", grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithMax(3), retry.WithBackoff(retry.BackoffExponentialWithJitter(time.Second, 0.2)))))
	grpc.NewClient("dns:///payments", grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithMax(3), retry.WithBackoff(retry.BackoffExponentialWithJitterBounded(time.Second, 0.2, 10*time.Second)))))
	grpc.NewClient("dns:///payments", grpc.WithDefaultServiceConfig(policy))
	grpc.NewClient("dns:///payments", grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithBackoff(retry.BackoffLinear(time.Second))))) // WithMax(0): no retries
}

// Payments is shaped like a generated stub's client interface.
type Payments interface {
	CreatePayment(ctx context.Context, in *string, opts ...grpc.CallOption) (*string, error)
}

func handLoop(ctx context.Context, c Payments, in *string) error {
	var err error
	for i := 0; i < 5; i++ {
		if _, err = c.CreatePayment(ctx, in); err == nil {
			return nil
		}
		time.Sleep(200 * time.Millisecond) // want `constant wait between retry attempts has no jitter`
	}
	return err
}
