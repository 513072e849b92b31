// Package retry is a test stub of github.com/grpc-ecosystem/go-grpc-middleware/v2@v2.3.4
// (interceptors/retry): signatures only.
package retry

import (
	"context"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
)

const (
	AttemptMetadataKey = "x-retry-attempt"
)

// DefaultRetriableCodes is a set of well known types gRPC codes that should be retri-able.
var DefaultRetriableCodes = []codes.Code{codes.ResourceExhausted, codes.Unavailable}

// BackoffFunc denotes a family of functions that control the backoff duration between call retries.
type BackoffFunc func(ctx context.Context, attempt uint) time.Duration

// OnRetryCallback is the type of function called when a retry occurs.
type OnRetryCallback func(ctx context.Context, attempt uint, err error)

// RetriableFunc denotes a family of functions that control which error should be retried.
type RetriableFunc func(err error) bool

type options struct{}

// CallOption is a grpc.CallOption that is local to grpc_retry.
type CallOption struct {
	grpc.EmptyCallOption
	applyFunc func(opt *options)
}

// Disable disables the retry behaviour on this call, or this interceptor.
func Disable() CallOption { panic("stub") }

// WithMax sets the maximum number of retries on this call, or this interceptor.
func WithMax(maxRetries uint) CallOption { panic("stub") }

// WithBackoff sets the `BackoffFunc` used to control time between retries.
func WithBackoff(bf BackoffFunc) CallOption { panic("stub") }

// WithOnRetryCallback sets the callback to use when a retry occurs.
func WithOnRetryCallback(fn OnRetryCallback) CallOption { panic("stub") }

// WithCodes sets which codes should be retried.
func WithCodes(retryCodes ...codes.Code) CallOption { panic("stub") }

// WithPerRetryTimeout sets the RPC timeout per call (including initial call) on this call, or this interceptor.
func WithPerRetryTimeout(timeout time.Duration) CallOption { panic("stub") }

// WithRetriable sets which error should be retried.
func WithRetriable(retriableFunc RetriableFunc) CallOption { panic("stub") }

// BackoffLinear is very simple: it waits for a fixed period of time between calls.
func BackoffLinear(waitBetween time.Duration) BackoffFunc { panic("stub") }

// BackoffLinearWithJitter waits a set period of time, allowing for jitter (fractional adjustment).
func BackoffLinearWithJitter(waitBetween time.Duration, jitterFraction float64) BackoffFunc {
	panic("stub")
}

// BackoffExponential produces increasing intervals for each attempt.
func BackoffExponential(scalar time.Duration) BackoffFunc { panic("stub") }

// BackoffExponentialWithJitter creates an exponential backoff like BackoffExponential does, but adds jitter.
func BackoffExponentialWithJitter(scalar time.Duration, jitterFraction float64) BackoffFunc {
	panic("stub")
}

func BackoffExponentialWithJitterBounded(scalar time.Duration, jitterFrac float64, maxBound time.Duration) BackoffFunc {
	panic("stub")
}

// UnaryClientInterceptor returns a new retrying unary client interceptor.
func UnaryClientInterceptor(optFuncs ...CallOption) grpc.UnaryClientInterceptor { panic("stub") }

// StreamClientInterceptor returns a new retrying stream client interceptor for server side streaming calls.
func StreamClientInterceptor(optFuncs ...CallOption) grpc.StreamClientInterceptor { panic("stub") }
