// Package grpcdep sends through a conn that retries by itself; grpcuse
// calls it inside its own retries.
package grpcdep

import (
	"context"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"google.golang.org/grpc"

	"grpcpb"
)

// Client wraps the payments stub.
type Client struct {
	pb grpcpb.PaymentsClient
}

// New dials with the retry interceptor.
func New() (*Client, error) {
	conn, err := grpc.NewClient("dns:///payments", grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithMax(3))))
	if err != nil {
		return nil, err
	}
	return &Client{pb: grpcpb.NewPaymentsClient(conn)}, nil
}

// Pay sends one payment.
func (c *Client) Pay(ctx context.Context) error { // want Pay:`retries\(\(grpcpb.PaymentsClient\).CreatePayment, 3 attempts, in \(\*grpcdep.Client\).Pay\)`
	_, err := c.pb.CreatePayment(ctx, &grpcpb.CreatePaymentRequest{})
	return err
}
