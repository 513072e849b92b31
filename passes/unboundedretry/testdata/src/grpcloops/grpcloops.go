package grpcloops

import (
	"context"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"google.golang.org/grpc"
)

// Payments is shaped like a generated stub's client interface.
type Payments interface {
	CreatePayment(ctx context.Context, in *string, opts ...grpc.CallOption) (*string, error)
}

func forever(c Payments, in *string) {
	for { // want `retry loop has no attempt cap and no deadline`
		if _, err := c.CreatePayment(context.Background(), in); err == nil {
			return
		}
		time.Sleep(time.Second)
	}
}

// Look-alikes: a capped loop, a deadline, and the interceptor, which
// always has a cap (WithMax attempts; 0, the default, is one call).
func capped(c Payments, in *string) error {
	var err error
	for i := 0; i < 3; i++ {
		if _, err = c.CreatePayment(context.Background(), in); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func deadline(c Payments, in *string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		if _, err := c.CreatePayment(ctx, in); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return ctx.Err()
}

func interceptor() {
	grpc.NewClient("dns:///payments", grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithMax(5))))
	grpc.NewClient("dns:///payments", grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor()))
}
