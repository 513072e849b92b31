package grpcconns

import (
	"context"
	"log"
	"math/rand/v2"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// A conn dialed with a unary interceptor of the package whose body is a
// retry scope retries its unary calls with that scope's attempts (Own).

func retrying(n int) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		var err error
		for attempt := 0; attempt < 4; attempt++ { // want `loop cap=4 deadline=none waits=jittered body`
			if err = invoker(ctx, method, req, reply, cc, opts...); err == nil {
				return nil
			}
			time.Sleep(time.Duration(rand.Int64N(int64(time.Second))))
		}
		return err
	}
}

func logsOnly(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	err := invoker(ctx, method, req, reply, cc, opts...)
	log.Printf("%s: %v", method, err)
	return err
}

func tenant(t string) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		return invoker(metadata.AppendToOutgoingContext(ctx, "tenant", t), method, req, reply, cc, opts...)
	}
}

// retryingDecl is an interceptor declared as a function.
func retryingDecl(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ { // want `loop cap=2 deadline=none waits=jittered body`
		if err = invoker(ctx, method, req, reply, cc, opts...); err == nil {
			return nil
		}
		time.Sleep(time.Duration(rand.Int64N(int64(time.Second))))
	}
	return err
}

// retryingStream retries opening a stream: a stream interceptor runs for
// no unary call.
func retryingStream(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `loop cap=3 deadline=none waits=jittered body`
		var s grpc.ClientStream
		if s, err = streamer(ctx, desc, cc, method, opts...); err == nil {
			return s, nil
		}
		time.Sleep(time.Duration(rand.Int64N(int64(time.Second))))
	}
	return nil, err
}

func ownOptions() []grpc.DialOption {
	return []grpc.DialOption{grpc.WithChainUnaryInterceptor(logsOnly, retrying(0))}
}

func ownDials(target string, extra []grpc.DialOption, inter grpc.UnaryClientInterceptor) {
	grpc.NewClient(target, grpc.WithUnaryInterceptor(retrying(0)))  // want `own unary interceptor cap=4`
	grpc.NewClient(target, grpc.WithUnaryInterceptor(retryingDecl)) // want `own unary interceptor cap=2`
	grpc.NewClient(target, append(ownOptions(), extra...)...)       // want `own unary interceptor cap=4`
	grpc.NewClient(target, grpc.WithChainUnaryInterceptor(logsOnly, tenant("acme")))
	grpc.NewClient(target, grpc.WithStreamInterceptor(retryingStream))
	grpc.NewClient(target, grpc.WithUnaryInterceptor(inter))
	grpc.NewClient(target, extra...)
}
