package grpcconns

import (
	"context"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
)

const policy = `{"methodConfig": [{"name": [{"service": "payments.v1.Payments"}],
  "retryPolicy": {"maxAttempts": 4, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}]}`

// maxAttempts above 5 is clamped to grpc-go's maxCallAttempts.
const clamped = `{"methodConfig": [{"name": [{}], "retryPolicy": {"maxAttempts": 10, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": [14]}}]}`

// an entry without a name is skipped by grpc-go
const unnamed = `{"methodConfig": [{"retryPolicy": {"maxAttempts": 4, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}]}`

// "100ms" does not parse as a proto3 duration: NewClient fails
const invalid = `{"methodConfig": [{"name": [{}], "retryPolicy": {"maxAttempts": 4, "initialBackoff": "100ms", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}]}`

const timeoutOnly = `{"methodConfig": [{"name": [{}], "timeout": "1s"}]}`

func dials(ctx context.Context, cfg string) {
	creds := grpc.WithTransportCredentials(insecure.NewCredentials())
	grpc.NewClient("dns:///payments", creds, grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithMax(3))))                                                                       // want `retrying-client cap=3 deadline=caller's-context waits=jittered nobody`
	grpc.NewClient("dns:///payments", grpc.WithChainUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithMax(4), retry.WithBackoff(retry.BackoffLinear(time.Second)))))                    // want `retrying-client cap=4 deadline=caller's-context waits=constant nobody`
	grpc.Dial("payments:443", grpc.WithStreamInterceptor(retry.StreamClientInterceptor(retry.WithMax(2), retry.WithBackoff(retry.BackoffExponential(time.Second)))))                          // want `retrying-client cap=2 deadline=caller's-context waits=deterministic-growth nobody`
	grpc.DialContext(ctx, "payments:443", grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithMax(5), retry.WithBackoff(retry.BackoffExponentialWithJitter(time.Second, 0.2))))) // want `retrying-client cap=5 deadline=caller's-context waits=jittered nobody`
	grpc.NewClient("dns:///payments", grpc.WithDefaultServiceConfig(policy))                                                                                                                  // want `retrying-client cap=4 deadline=caller's-context waits=jittered nobody`
	grpc.NewClient("dns:///payments", grpc.WithDefaultServiceConfig(clamped))                                                                                                                 // want `retrying-client cap=5 deadline=caller's-context waits=jittered nobody`
	grpc.NewClient("dns:///payments", grpc.WithDefaultServiceConfig(clamped), grpc.WithMaxCallAttempts(8))                                                                                    // want `retrying-client cap=8 deadline=caller's-context waits=jittered nobody`
	// the two layers multiply: the interceptor runs above the conn's own retries
	grpc.NewClient("dns:///payments", grpc.WithDefaultServiceConfig(policy), grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithMax(3)))) // want `retrying-client cap=12 deadline=caller's-context waits=jittered,jittered nobody`
	n := uint(3)
	grpc.NewClient("dns:///payments", grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithMax(n)))) // want `retrying-client cap=bounded deadline=caller's-context waits=jittered nobody`
	opts := []grpc.DialOption{creds, grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithMax(3), retry.WithCodes(codes.Unavailable)))}
	grpc.NewClient("dns:///payments", opts...) // want `retrying-client cap=3 deadline=caller's-context waits=jittered nobody`

	// Look-alikes: no retry layer.
	grpc.NewClient("dns:///payments", creds)                                                                     // transparent retries only
	grpc.NewClient("dns:///payments", grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor()))                 // the default: WithMax(0), one call
	grpc.NewClient("dns:///payments", grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithMax(1)))) // one attempt
	grpc.NewClient("dns:///payments", grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(retry.Disable())))
	grpc.NewClient("dns:///payments", grpc.WithDefaultServiceConfig(unnamed))
	grpc.NewClient("dns:///payments", grpc.WithDefaultServiceConfig(invalid))
	grpc.NewClient("dns:///payments", grpc.WithDefaultServiceConfig(timeoutOnly))
	grpc.NewClient("dns:///payments", grpc.WithDefaultServiceConfig(policy), grpc.WithDisableRetry())
	grpc.NewClient("dns:///payments", grpc.WithDefaultServiceConfig(cfg)) // a config the model cannot read
	grpc.NewClient("dns:///payments", grpc.WithUnaryInterceptor(logging)) // an interceptor of the code's own
	more := []grpc.DialOption{creds}
	more = append(more, grpc.WithDisableRetry())
	grpc.NewClient("dns:///payments", append(more, grpc.WithDefaultServiceConfig(policy))...) // appended options are listed: retries disabled
	grpc.NewClient("dns:///payments", callerOptions()...)                                     // a helper's options the model cannot list
}

// options appended to a slice are listed (issue 47)
func appended() {
	more := []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}
	more = append(more, grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithMax(3))))
	grpc.NewClient("dns:///payments", more...) // want `retrying-client cap=3 deadline=caller's-context waits=jittered nobody`
}

var extra []grpc.DialOption

func callerOptions() []grpc.DialOption { return extra }

func logging(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	return invoker(ctx, method, req, reply, cc, opts...)
}
