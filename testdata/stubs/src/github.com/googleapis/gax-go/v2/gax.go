// Package gax is a test stub of github.com/googleapis/gax-go/v2@v2.27.0: signatures only.
//
// Subset: Invoke, APICall, CallSettings, CallOption, Retryer, WithRetry,
// OnCodes, OnErrorFunc, OnHTTPCodes, WithTimeout, WithPath, WithGRPCOptions,
// Backoff and Sleep. Invoke has no attempt cap: it loops until success, the
// Retryer says stop, or ctx ends.
package gax

import (
	"context"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
)

// Version specifies the gax-go version being used.
const Version = "2.27.0"

// CallOption is an option used by Invoke to control behaviors of RPC calls.
type CallOption interface {
	// Resolve applies the option by modifying cs.
	Resolve(cs *CallSettings)
}

// Retryer is used by Invoke to determine retry behavior.
type Retryer interface {
	// Retry reports whether a request should be retried and how long to pause before retrying
	// if the previous attempt returned with err. Invoke never calls Retry with nil error.
	Retry(err error) (pause time.Duration, shouldRetry bool)
}

// WithRetry sets CallSettings.Retry to fn.
func WithRetry(fn func() Retryer) CallOption { panic("stub") }

// OnErrorFunc returns a Retryer that retries if and only if the previous attempt returns an error that satisfies shouldRetry.
func OnErrorFunc(bo Backoff, shouldRetry func(err error) bool) Retryer { panic("stub") }

// OnCodes returns a Retryer that retries if and only if the previous attempt returns a GRPC error whose error code is stored in cc.
func OnCodes(cc []codes.Code, bo Backoff) Retryer { panic("stub") }

// OnHTTPCodes returns a Retryer that retries if and only if the previous attempt returns a googleapi.Error whose status code is stored in cc.
func OnHTTPCodes(bo Backoff, cc ...int) Retryer { panic("stub") }

// Backoff implements backoff logic for retries. The actual wait is a random
// value between 1ns and the current retry limit (full jitter, always on).
// MaxNumRetries / RPCDeadline is specifically not provided.
type Backoff struct {
	// Initial is the initial value of the retry period, defaults to 1 second.
	Initial time.Duration

	// Max is the maximum value of the retry period, defaults to 30 seconds.
	Max time.Duration

	// Multiplier is the factor by which the retry period increases.
	// It should be greater than 1 and defaults to 2.
	Multiplier float64
}

// Pause returns the next time.Duration that the caller should use to backoff.
func (bo *Backoff) Pause() time.Duration { panic("stub") }

// WithPath applies a Path override to the HTTP-based APICall.
func WithPath(p string) CallOption { panic("stub") }

// WithGRPCOptions allows passing gRPC call options during client creation.
func WithGRPCOptions(opt ...grpc.CallOption) CallOption { panic("stub") }

// WithTimeout is a convenience option for setting a context.WithTimeout on the singular context.Context used for **all** APICall attempts.
// Ignored when the ctx passed to Invoke already has a deadline. Default: none.
func WithTimeout(t time.Duration) CallOption { panic("stub") }

// CallSettings allow fine-grained control over how calls are made.
type CallSettings struct {
	// Retry returns a Retryer to be used to control retry logic of a method call.
	// If Retry is nil or the returned Retryer is nil, the call will not be retried.
	Retry func() Retryer

	// CallOptions to be forwarded to GRPC.
	GRPC []grpc.CallOption

	// Path is an HTTP override for an APICall.
	Path string
}

// APICall is a user defined call stub.
type APICall func(context.Context, CallSettings) error

// Invoke calls the given APICall, performing retries as specified by opts, if any.
func Invoke(ctx context.Context, call APICall, opts ...CallOption) error { panic("stub") }

// Sleep is similar to time.Sleep, but it can be interrupted by ctx.Done() closing.
func Sleep(ctx context.Context, d time.Duration) error { panic("stub") }
