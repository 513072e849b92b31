package grpckeys

import (
	"context"
	"time"

	avast "github.com/avast/retry-go/v4"
	"github.com/google/uuid"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// CreatePaymentRequest is shaped like a generated request message with an
// AIP-155 request_id.
type CreatePaymentRequest struct {
	Amount    int64
	RequestId string
}

// Payments is shaped like a generated stub's client interface.
type Payments interface {
	CreatePayment(ctx context.Context, in *CreatePaymentRequest, opts ...grpc.CallOption) (*CreatePaymentRequest, error)
}

func appendMetadata(ctx context.Context, c Payments, in *CreatePaymentRequest) error {
	var err error
	for i := 0; i < 3; i++ {
		callCtx := metadata.AppendToOutgoingContext(ctx, "idempotency-key", uuid.NewString()) // want `uuid\.NewString mints a new key for the idempotency-key header on every attempt; mint it once above the retry`
		if _, err = c.CreatePayment(callCtx, in); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func outgoingContext(ctx context.Context, c Payments, in *CreatePaymentRequest) error {
	return avast.Do(func() error {
		key := uuid.New().String() // want `uuid\.New mints a new key for the idempotency-key header on every attempt of retry\.Do; mint it once above the retry`
		md := metadata.Pairs("idempotency-key", key)
		_, err := c.CreatePayment(metadata.NewOutgoingContext(ctx, md), in)
		return err
	})
}

func mdSet(ctx context.Context, c Payments, in *CreatePaymentRequest) error {
	var err error
	for i := 0; i < 3; i++ {
		md := metadata.New(map[string]string{"Idempotency-Key": uuid.NewString()}) // want `uuid\.NewString mints a new key for the Idempotency-Key header on every attempt; mint it once above the retry`
		if _, err = c.CreatePayment(metadata.NewOutgoingContext(ctx, md), in); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func requestID(ctx context.Context, c Payments) error {
	var err error
	for i := 0; i < 3; i++ {
		req := &CreatePaymentRequest{Amount: 100, RequestId: uuid.NewString()} // want `uuid\.NewString mints a new key for field RequestId on every attempt; mint it once above the retry`
		if _, err = c.CreatePayment(ctx, req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Look-alikes: keys minted once, before the retry.

func mintedOnce(ctx context.Context, c Payments, in *CreatePaymentRequest) error {
	ctx = metadata.AppendToOutgoingContext(ctx, "idempotency-key", uuid.NewString())
	in.RequestId = uuid.NewString()
	var err error
	for i := 0; i < 3; i++ {
		if _, err = c.CreatePayment(ctx, in); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func traceIDPerAttempt(ctx context.Context, c Payments, in *CreatePaymentRequest) error {
	var err error
	for i := 0; i < 3; i++ {
		callCtx := metadata.AppendToOutgoingContext(ctx, "x-trace-id", uuid.NewString()) // not a key
		if _, err = c.CreatePayment(callCtx, in); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
