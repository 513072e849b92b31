// Package grpcpertry dials with a per-attempt timeout: its calls are
// timed out by the interceptor.
package grpcpertry

import (
	"context"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"google.golang.org/grpc"
)

const timeout = `{"methodConfig": [{"name": [{}], "timeout": "2s"}]}`

func dial() (*grpc.ClientConn, *grpc.ClientConn) {
	a, _ := grpc.NewClient("dns:///payments", grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithPerRetryTimeout(time.Second))))
	b, _ := grpc.NewClient("dns:///ledger", grpc.WithDefaultServiceConfig(timeout))
	return a, b
}

func send(conn *grpc.ClientConn) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = conn.Invoke(context.Background(), "/payments.v1.Payments/CreatePayment", nil, nil); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
