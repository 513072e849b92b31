package grpccase

import (
	"context"
	"time"

	avast "github.com/avast/retry-go/v4"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"grpcpb"
)

const policy = `{"methodConfig": [{"name": [{"service": "payments.v1.Payments"}],
  "retryPolicy": {"maxAttempts": 4, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}]}`

func stubInLoop(ctx context.Context) error {
	conn, err := grpc.NewClient("dns:///payments", grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithMax(3))))
	if err != nil {
		return err
	}
	client := grpcpb.NewPaymentsClient(conn)
	for i := 0; i < 3; i++ {
		_, err = client.CreatePayment(ctx, &grpcpb.CreatePaymentRequest{}) // want `\(grpcpb\.PaymentsClient\)\.CreatePayment \(3 attempts\) inside a retry \(3 attempts\); pass retry\.Disable\(\) on this call`
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func invokeInLibrary(ctx context.Context) error {
	conn, _ := grpc.NewClient("dns:///payments", grpc.WithDefaultServiceConfig(policy))
	return avast.Do(func() error {
		return conn.Invoke(ctx, "/payments.v1.Payments/CreatePayment", nil, nil) // want `\(\*grpc\.ClientConn\)\.Invoke \(4 attempts\) inside a retry, up to 10×4 = 40 calls; dial with grpc\.WithDisableRetry\(\)`
	})
}

// Server is a service whose client is dialled in its constructor.
type Server struct {
	payments grpcpb.PaymentsClient
}

func dial() (*grpc.ClientConn, error) {
	return grpc.NewClient("dns:///payments", grpc.WithChainUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithMax(2))))
}

func NewServer() (*Server, error) {
	conn, err := dial()
	if err != nil {
		return nil, err
	}
	return &Server{payments: grpcpb.NewPaymentsClient(conn)}, nil
}

func (s *Server) pay(ctx context.Context) error {
	return avast.Do(func() error {
		_, err := s.payments.CreatePayment(ctx, &grpcpb.CreatePaymentRequest{}) // want `\(grpcpb\.PaymentsClient\)\.CreatePayment \(2 attempts\) inside a retry \(3 attempts\); pass retry\.Disable\(\) on this call`
		return err
	}, avast.Attempts(3))
}

// per-call options override the interceptor's: WithMax(0) there is off
func perCall(ctx context.Context) error {
	conn, _ := grpc.NewClient("dns:///payments", grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor()))
	client := grpcpb.NewPaymentsClient(conn)
	return avast.Do(func() error {
		_, err := client.CreatePayment(ctx, &grpcpb.CreatePaymentRequest{}, retry.WithMax(4)) // want `\(grpcpb\.PaymentsClient\)\.CreatePayment \(4 attempts\) inside a retry \(10 attempts\); pass retry\.Disable\(\) on this call`
		if err != nil {
			return err
		}
		_, err = client.CreatePayment(ctx, &grpcpb.CreatePaymentRequest{}) // the interceptor's default: one call
		return err
	})
}

// Look-alikes.

func transparentOnly(ctx context.Context) error {
	conn, _ := grpc.NewClient("dns:///payments", grpc.WithTransportCredentials(insecure.NewCredentials()))
	client := grpcpb.NewPaymentsClient(conn)
	return avast.Do(func() error {
		_, err := client.CreatePayment(ctx, &grpcpb.CreatePaymentRequest{}) // grpc-go's transparent retries are no layer
		return err
	})
}

func disabledPerCall(ctx context.Context) error {
	conn, _ := grpc.NewClient("dns:///payments", grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithMax(3))))
	client := grpcpb.NewPaymentsClient(conn)
	return avast.Do(func() error {
		_, err := client.CreatePayment(ctx, &grpcpb.CreatePaymentRequest{}, retry.Disable())
		return err
	})
}

func optionsWithoutInterceptor(ctx context.Context) error {
	conn, _ := grpc.NewClient("dns:///payments")
	client := grpcpb.NewPaymentsClient(conn)
	return avast.Do(func() error {
		_, err := client.CreatePayment(ctx, &grpcpb.CreatePaymentRequest{}, retry.WithMax(3)) // no interceptor: the option does nothing
		return err
	})
}

func disabledConn(ctx context.Context) error {
	conn, _ := grpc.NewClient("dns:///payments", grpc.WithDefaultServiceConfig(policy), grpc.WithDisableRetry())
	return avast.Do(func() error {
		return conn.Invoke(ctx, "/payments.v1.Payments/CreatePayment", nil, nil)
	})
}

func connFromCaller(ctx context.Context, conn *grpc.ClientConn) error {
	client := grpcpb.NewPaymentsClient(conn)
	return avast.Do(func() error {
		_, err := client.CreatePayment(ctx, &grpcpb.CreatePaymentRequest{}) // a conn made elsewhere
		return err
	})
}

// Positives written the way service code writes them (issue 47): options
// in slices appended to, built by a helper, held in a package variable.

func retryDialOptions() []grpc.DialOption {
	return []grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(policy),
	}
}

// Orders dials with the package's options, which set a retry policy.
type Orders struct {
	conn *grpc.ClientConn
}

func NewOrders(target string) (*Orders, error) {
	conn, err := grpc.NewClient(target, retryDialOptions()...)
	if err != nil {
		return nil, err
	}
	return &Orders{conn: conn}, nil
}

func (o *Orders) place(ctx context.Context) error {
	return avast.Do(func() error {
		return o.conn.Invoke(ctx, "/payments.v1.Payments/CreatePayment", nil, nil) // want `\(\*grpc\.ClientConn\)\.Invoke \(4 attempts\) inside a retry, up to 10×4 = 40 calls; dial with grpc\.WithDisableRetry\(\)`
	})
}

func appendedInterceptor(ctx context.Context, target string) error {
	opts := []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}
	opts = append(opts, grpc.WithChainUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithMax(3))))
	conn, err := grpc.NewClient(target, opts...)
	if err != nil {
		return err
	}
	client := grpcpb.NewPaymentsClient(conn)
	return avast.Do(func() error {
		_, err := client.CreatePayment(ctx, &grpcpb.CreatePaymentRequest{}) // want `\(grpcpb\.PaymentsClient\)\.CreatePayment \(3 attempts\) inside a retry \(10 attempts\); pass retry\.Disable\(\) on this call`
		return err
	})
}

// retryCalls are per-call options that turn the interceptor's retries on.
var retryCalls = []grpc.CallOption{retry.WithMax(4)}

func perCallSlice(ctx context.Context) error {
	conn, _ := grpc.NewClient("dns:///payments", grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor()))
	client := grpcpb.NewPaymentsClient(conn)
	return avast.Do(func() error {
		_, err := client.CreatePayment(ctx, &grpcpb.CreatePaymentRequest{}, retryCalls...) // want `\(grpcpb\.PaymentsClient\)\.CreatePayment \(4 attempts\) inside a retry \(10 attempts\); pass retry\.Disable\(\) on this call`
		return err
	})
}

// withRetries builds the package's retry interceptor option.
func withRetries() grpc.DialOption {
	ri := retry.UnaryClientInterceptor(retry.WithMax(3))
	return grpc.WithChainUnaryInterceptor(ri)
}

func helperInterceptor(ctx context.Context, target string) error {
	conn, err := grpc.NewClient(target, grpc.WithTransportCredentials(insecure.NewCredentials()), withRetries())
	if err != nil {
		return err
	}
	return avast.Do(func() error {
		return conn.Invoke(ctx, "/payments.v1.Payments/CreatePayment", nil, nil) // want `\(\*grpc\.ClientConn\)\.Invoke \(3 attempts\) inside a retry, up to 10×3 = 30 calls; pass retry\.Disable\(\) on this call`
	})
}

func declaredThenAppended(ctx context.Context, target string) error {
	var opts []grpc.DialOption
	opts = append(opts, grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor()))
	conn, err := grpc.NewClient(target, opts...)
	if err != nil {
		return err
	}
	client := grpcpb.NewPaymentsClient(conn)
	callOpts := make([]grpc.CallOption, 0, 1)
	callOpts = append(callOpts, retry.WithMax(2))
	return avast.Do(func() error {
		_, err := client.CreatePayment(ctx, &grpcpb.CreatePaymentRequest{}, callOpts...) // want `\(grpcpb\.PaymentsClient\)\.CreatePayment \(2 attempts\) inside a retry \(10 attempts\); pass retry\.Disable\(\) on this call`
		return err
	})
}
