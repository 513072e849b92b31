package grpccodes

import (
	"context"
	"errors"
	"time"

	avast "github.com/avast/retry-go/v4"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Payments is shaped like a generated stub's client interface.
type Payments interface {
	CreatePayment(ctx context.Context, in *string, opts ...grpc.CallOption) (*string, error)
}

const permanentPolicy = `{"methodConfig": [{"name": [{}], "retryPolicy": {"maxAttempts": 3, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE", "FAILED_PRECONDITION"]}}]}`

const transientPolicy = `{"methodConfig": [{"name": [{}], "retryPolicy": {"maxAttempts": 3, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE", "RESOURCE_EXHAUSTED"]}}]}`

func settings() {
	grpc.NewClient("dns:///payments", grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(
		retry.WithMax(3),
		retry.WithCodes(codes.Unavailable, codes.InvalidArgument), // want `retry.WithCodes retries codes.InvalidArgument \(permanent\)`
	)))
	grpc.NewClient("dns:///payments", grpc.WithDefaultServiceConfig(permanentPolicy)) // want `retryableStatusCodes lists codes.FailedPrecondition, permanent`

	// Look-alikes: transient codes, the defaults, and an interceptor
	// that does not retry.
	grpc.NewClient("dns:///payments", grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithMax(3), retry.WithCodes(codes.Unavailable, codes.ResourceExhausted))))
	grpc.NewClient("dns:///payments", grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithMax(3), retry.WithCodes(retry.DefaultRetriableCodes...))))
	grpc.NewClient("dns:///payments", grpc.WithDefaultServiceConfig(transientPolicy))
	grpc.NewClient("dns:///payments", grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithCodes(codes.NotFound))))
}

func continueOnPermanent(ctx context.Context, c Payments, in *string) error {
	var err error
	for i := 0; i < 3; i++ {
		_, err = c.CreatePayment(ctx, in)
		if err == nil {
			return nil
		}
		if status.Code(err) == codes.Unavailable || status.Code(err) == codes.PermissionDenied { // want `retry loop repeats the attempt on codes.PermissionDenied \(permanent\)`
			time.Sleep(time.Second)
			continue
		}
		return err
	}
	return err
}

func anyCode(ctx context.Context, c Payments, in *string) error {
	var err error
	for i := 0; i < 3; i++ {
		_, err = c.CreatePayment(ctx, in)
		if err == nil {
			return nil
		}
		if status.Code(err) != codes.OK { // want `retry loop repeats the attempt on every gRPC code, permanent ones included`
			time.Sleep(time.Second)
			continue
		}
		return err
	}
	return err
}

func switchCodes(ctx context.Context, c Payments, in *string) error {
	var err error
	for i := 0; i < 5; i++ {
		_, err = c.CreatePayment(ctx, in)
		if err == nil {
			return nil
		}
		switch status.Convert(err).Code() { // want `retry loop repeats the attempt on codes.NotFound \(permanent\)`
		case codes.Unavailable, codes.NotFound:
			time.Sleep(time.Second)
		default:
			return err
		}
	}
	return err
}

func exhaustedAtOnce(ctx context.Context, c Payments, in *string) error {
	var err error
	for i := 0; i < 3; i++ {
		_, err = c.CreatePayment(ctx, in)
		if err == nil {
			return nil
		}
		if code := status.Code(err); code != codes.ResourceExhausted { // want `retry loop repeats the attempt on codes.ResourceExhausted with no wait`
			return err
		}
	}
	return err
}

func predicate(ctx context.Context, c Payments, in *string) error {
	return avast.Do(func() error {
		_, err := c.CreatePayment(ctx, in)
		return err
	}, avast.RetryIf(func(err error) bool {
		return status.Code(err) != codes.InvalidArgument // want `RetryIf predicate retries codes.NotFound and 6 more permanent codes`
	}))
}

func interceptorPredicate() {
	grpc.NewClient("dns:///payments", grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithMax(3), retry.WithRetriable(func(err error) bool {
		return status.Code(err) == codes.Unauthenticated // want `retry.WithRetriable predicate retries codes.Unauthenticated`
	}))))
}

// Look-alikes.

func transientOnly(ctx context.Context, c Payments, in *string) error {
	var err error
	for i := 0; i < 3; i++ {
		_, err = c.CreatePayment(ctx, in)
		if err == nil {
			return nil
		}
		switch status.Code(err) {
		case codes.Unavailable, codes.ResourceExhausted:
			time.Sleep(time.Second)
			continue
		}
		return err
	}
	return err
}

func returnsOnOthers(ctx context.Context, c Payments, in *string) error {
	var err error
	for i := 0; i < 3; i++ {
		_, err = c.CreatePayment(ctx, in)
		if err == nil {
			return nil
		}
		if status.Code(err) != codes.Unavailable {
			return err
		}
		time.Sleep(time.Second)
	}
	return err
}

func exhaustedWithWait(ctx context.Context, c Payments, in *string) error {
	var err error
	for i := 0; i < 3; i++ {
		_, err = c.CreatePayment(ctx, in)
		if err == nil {
			return nil
		}
		if status.Code(err) != codes.ResourceExhausted {
			return err
		}
		time.Sleep(2 * time.Second)
	}
	return err
}

func anyError(ctx context.Context, c Payments, in *string) error {
	var err error
	for i := 0; i < 3; i++ {
		if _, err = c.CreatePayment(ctx, in); err == nil {
			return nil
		}
		time.Sleep(time.Second) // retries every error: no code test, the model's "any error"
	}
	return err
}

func transientPredicate(ctx context.Context, c Payments, in *string) error {
	return avast.Do(func() error {
		_, err := c.CreatePayment(ctx, in)
		return err
	}, avast.RetryIf(func(err error) bool {
		return status.Code(err) == codes.Unavailable && !errors.Is(err, context.Canceled)
	}))
}
