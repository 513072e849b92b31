package grpctimeouts

import (
	"context"
	"time"

	avast "github.com/avast/retry-go/v4"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"google.golang.org/grpc"
)

// Payments is shaped like a generated stub's client interface.
type Payments interface {
	CreatePayment(ctx context.Context, in *string, opts ...grpc.CallOption) (*string, error)
}

func background(c Payments, in *string) error {
	var err error
	for i := 0; i < 3; i++ {
		if _, err = c.CreatePayment(context.Background(), in); err == nil { // want `c.CreatePayment inside a retry has no deadline \(context.Background\(\)\)`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func invoke(conn *grpc.ClientConn) error {
	ctx := context.Background()
	return avast.Do(func() error {
		return conn.Invoke(ctx, "/payments.v1.Payments/CreatePayment", nil, nil) // want `conn.Invoke inside a retry has no deadline`
	})
}

// Look-alikes.

func perAttempt(c Payments, in *string) error {
	var err error
	for i := 0; i < 3; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_, err = c.CreatePayment(ctx, in)
		cancel()
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func overall(c Payments, in *string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var err error
	for i := 0; i < 3; i++ {
		if _, err = c.CreatePayment(ctx, in); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func callersContext(ctx context.Context, c Payments, in *string) error {
	var err error
	for i := 0; i < 3; i++ {
		if _, err = c.CreatePayment(ctx, in); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func perRetryOption(c Payments, in *string) error {
	var err error
	for i := 0; i < 3; i++ {
		if _, err = c.CreatePayment(context.Background(), in, retry.WithPerRetryTimeout(time.Second)); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func once(c Payments, in *string) error {
	_, err := c.CreatePayment(context.Background(), in) // not in a retry
	return err
}
