// Package grpc is a test stub of google.golang.org/grpc@v1.85.0: signatures only.
package grpc

import (
	"context"

	"google.golang.org/grpc/credentials"
)

type callInfo struct{}

type csAttempt struct{}

type dialOptions struct{}

// CallOption configures a Call before it starts or extracts information from a Call after it completes.
type CallOption interface {
	before(*callInfo) error
	after(*callInfo, *csAttempt)
}

// EmptyCallOption does not alter the Call configuration.
type EmptyCallOption struct{}

func (EmptyCallOption) before(*callInfo) error      { return nil }
func (EmptyCallOption) after(*callInfo, *csAttempt) {}

// WaitForReady configures the RPC's behavior when the client is in TRANSIENT_FAILURE.
func WaitForReady(waitForReady bool) CallOption { panic("stub") }

// DialOption configures how we set up the connection.
type DialOption interface {
	apply(*dialOptions)
}

// ClientConn represents a virtual connection to a conceptual endpoint.
type ClientConn struct{}

// ClientConnInterface defines the functions clients need to perform unary and streaming RPCs.
type ClientConnInterface interface {
	Invoke(ctx context.Context, method string, args any, reply any, opts ...CallOption) error
	NewStream(ctx context.Context, desc *StreamDesc, method string, opts ...CallOption) (ClientStream, error)
}

// StreamDesc represents a streaming RPC service's method specification.
type StreamDesc struct {
	StreamName    string
	ServerStreams bool
	ClientStreams bool
}

// ClientStream defines the client-side behavior of a streaming RPC.
type ClientStream interface {
	Context() context.Context
	CloseSend() error
	SendMsg(m any) error
	RecvMsg(m any) error
}

// UnaryInvoker is called by UnaryClientInterceptor to complete RPCs.
type UnaryInvoker func(ctx context.Context, method string, req, reply any, cc *ClientConn, opts ...CallOption) error

// UnaryClientInterceptor intercepts the execution of a unary RPC on the client.
type UnaryClientInterceptor func(ctx context.Context, method string, req, reply any, cc *ClientConn, invoker UnaryInvoker, opts ...CallOption) error

// Streamer is called by StreamClientInterceptor to create a ClientStream.
type Streamer func(ctx context.Context, desc *StreamDesc, cc *ClientConn, method string, opts ...CallOption) (ClientStream, error)

// StreamClientInterceptor intercepts the creation of a ClientStream.
type StreamClientInterceptor func(ctx context.Context, desc *StreamDesc, cc *ClientConn, method string, streamer Streamer, opts ...CallOption) (ClientStream, error)

// NewClient creates a new gRPC "channel" for the target URI provided.
func NewClient(target string, opts ...DialOption) (conn *ClientConn, err error) { panic("stub") }

// Dial calls DialContext(context.Background(), target, opts...).
//
// Deprecated: use NewClient instead.
func Dial(target string, opts ...DialOption) (*ClientConn, error) { panic("stub") }

// DialContext calls NewClient and then exits idle mode.
//
// Deprecated: use NewClient instead.
func DialContext(ctx context.Context, target string, opts ...DialOption) (conn *ClientConn, err error) {
	panic("stub")
}

// Invoke sends the RPC request on the wire and returns after response is received.
func Invoke(ctx context.Context, method string, args, reply any, cc *ClientConn, opts ...CallOption) error {
	panic("stub")
}

// Invoke sends the RPC request on the wire and returns after response is received.
func (cc *ClientConn) Invoke(ctx context.Context, method string, args, reply any, opts ...CallOption) error {
	panic("stub")
}

// NewStream creates a new Stream for the client side.
func (cc *ClientConn) NewStream(ctx context.Context, desc *StreamDesc, method string, opts ...CallOption) (ClientStream, error) {
	panic("stub")
}

// Close tears down the ClientConn and all underlying connections.
func (cc *ClientConn) Close() error { panic("stub") }

// WithTransportCredentials returns a DialOption which configures a connection level security credentials.
func WithTransportCredentials(creds credentials.TransportCredentials) DialOption { panic("stub") }

// WithUnaryInterceptor returns a DialOption that specifies the interceptor for unary RPCs.
func WithUnaryInterceptor(f UnaryClientInterceptor) DialOption { panic("stub") }

// WithChainUnaryInterceptor returns a DialOption that specifies the chained interceptor for unary RPCs.
func WithChainUnaryInterceptor(interceptors ...UnaryClientInterceptor) DialOption { panic("stub") }

// WithStreamInterceptor returns a DialOption that specifies the interceptor for streaming RPCs.
func WithStreamInterceptor(f StreamClientInterceptor) DialOption { panic("stub") }

// WithChainStreamInterceptor returns a DialOption that specifies the chained interceptor for streaming RPCs.
func WithChainStreamInterceptor(interceptors ...StreamClientInterceptor) DialOption { panic("stub") }

// WithDefaultServiceConfig returns a DialOption that configures the default service config.
func WithDefaultServiceConfig(s string) DialOption { panic("stub") }

// WithDisableRetry returns a DialOption that disables retries, even if the service config enables them.
func WithDisableRetry() DialOption { panic("stub") }

// WithMaxCallAttempts returns a DialOption that configures the maximum number of attempts per call.
func WithMaxCallAttempts(n int) DialOption { panic("stub") }
