package grpccase

import (
	"context"
	"log"
	"math/rand/v2"
	"time"

	avast "github.com/avast/retry-go/v4"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	"grpcpb"
)

// A unary interceptor of the package's own whose body is a retry loop
// (etcd's unaryClientInterceptor) makes the conn retry its unary calls.

// retryingInterceptor retries a unary call up to 3 times.
func retryingInterceptor() grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		var err error
		for attempt := 0; attempt < 3; attempt++ {
			if err = invoker(ctx, method, req, reply, cc, opts...); err == nil {
				return nil
			}
			time.Sleep(time.Duration(rand.Int64N(int64(100 * time.Millisecond))))
		}
		return err
	}
}

// loggingInterceptor only logs: no layer.
func loggingInterceptor(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	err := invoker(ctx, method, req, reply, cc, opts...)
	log.Printf("%s: %v", method, err)
	return err
}

// withTenant adds metadata: no layer.
func withTenant(tenant string) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		ctx = metadata.AppendToOutgoingContext(ctx, "tenant", tenant)
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

func ownInterceptorInLoop(ctx context.Context, target string) error {
	conn, err := grpc.NewClient(target, grpc.WithUnaryInterceptor(retryingInterceptor()))
	if err != nil {
		return err
	}
	client := grpcpb.NewPaymentsClient(conn)
	return avast.Do(func() error {
		_, err := client.CreatePayment(ctx, &grpcpb.CreatePaymentRequest{}) // want `\(grpcpb\.PaymentsClient\)\.CreatePayment \(3 attempts\) inside a retry, up to 10×3 = 30 calls; retry in one layer only`
		return err
	})
}

// ownDialOptions chains the package's interceptors; the retrying one is
// second.
func ownDialOptions() []grpc.DialOption {
	return []grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithChainUnaryInterceptor(loggingInterceptor, retryingInterceptor()),
	}
}

func ownInterceptorChained(ctx context.Context, target string, extra ...grpc.DialOption) error {
	opts := append(ownDialOptions(), extra...) // the caller's options cannot hide the package's interceptor
	conn, err := grpc.NewClient(target, opts...)
	if err != nil {
		return err
	}
	return avast.Do(func() error {
		return conn.Invoke(ctx, "/payments.v1.Payments/CreatePayment", nil, nil) // want `\(\*grpc\.ClientConn\)\.Invoke retries by itself \(3 attempts\) inside a retry, up to 10×3 = 30 calls; retry in one layer only`
	})
}

// EtcdLike is shaped like etcd's clientv3.Client: its dial installs its own
// retrying interceptor, whose loop refreshes a token over the same conn.
type EtcdLike struct {
	conn     *grpc.ClientConn
	payments grpcpb.PaymentsClient
}

func (c *EtcdLike) unaryInterceptor(max int) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		var lastErr error
		for attempt := 0; attempt < max; attempt++ {
			lastErr = invoker(ctx, method, req, reply, cc, opts...)
			if lastErr == nil {
				return nil
			}
			if err := c.refreshToken(ctx); err != nil { // want `\(\*grpccase\.EtcdLike\)\.refreshToken reaches a retry inside a retry loop; retry in one layer only`
				return err
			}
		}
		return lastErr
	}
}

func (c *EtcdLike) refreshToken(ctx context.Context) error {
	_, err := c.payments.CreatePayment(ctx, &grpcpb.CreatePaymentRequest{})
	return err
}

func (c *EtcdLike) dialOptions(extra ...grpc.DialOption) []grpc.DialOption {
	var opts []grpc.DialOption
	opts = append(opts, extra...)
	opts = append(opts, grpc.WithUnaryInterceptor(c.unaryInterceptor(100)))
	return opts
}

func (c *EtcdLike) dial(target string, extra ...grpc.DialOption) error {
	conn, err := grpc.NewClient(target, c.dialOptions(extra...)...)
	if err != nil {
		return err
	}
	c.conn = conn
	c.payments = grpcpb.NewPaymentsClient(conn)
	return nil
}

// Look-alikes.

func loggingOnly(ctx context.Context, target string) error {
	conn, err := grpc.NewClient(target, grpc.WithChainUnaryInterceptor(loggingInterceptor, withTenant("acme")))
	if err != nil {
		return err
	}
	client := grpcpb.NewPaymentsClient(conn)
	return avast.Do(func() error {
		_, err := client.CreatePayment(ctx, &grpcpb.CreatePaymentRequest{}) // the interceptors log and add metadata: one layer
		return err
	})
}

func streamOnRetryingConn(ctx context.Context, target string) error {
	conn, err := grpc.NewClient(target, grpc.WithUnaryInterceptor(retryingInterceptor()))
	if err != nil {
		return err
	}
	client := grpcpb.NewPaymentsClient(conn)
	return avast.Do(func() error {
		_, err := client.WatchPayments(ctx, &grpcpb.WatchPaymentsRequest{}) // a stream runs no unary interceptor
		return err
	})
}

func interceptorFromCaller(ctx context.Context, target string, inter grpc.UnaryClientInterceptor) error {
	conn, err := grpc.NewClient(target, grpc.WithUnaryInterceptor(inter))
	if err != nil {
		return err
	}
	return avast.Do(func() error {
		return conn.Invoke(ctx, "/payments.v1.Payments/CreatePayment", nil, nil) // an interceptor the model cannot read: silent
	})
}
