package grpcretry_test

import (
	"context"
	"testing"

	"google.golang.org/grpc"

	"github.com/idemlint/idemlint/runtime/grpcretry"
	"github.com/idemlint/idemlint/runtime/internal/testpb"
	"github.com/idemlint/idemlint/runtime/retry"
)

// BenchmarkUnaryClientInterceptor: a call that succeeds at once over bufconn, without the interceptor
// (bare) and with it (a key minted, retry.Do's happy path).
func BenchmarkUnaryClientInterceptor(b *testing.B) {
	run := func(b *testing.B, opts ...grpc.DialOption) {
		s := &server{answer: failFirst(0, 0)}
		cc := testpb.Serve(b, func(g *grpc.Server) { testpb.RegisterOrdersServer(g, s) }, nil, opts...)
		client := testpb.NewOrdersClient(cc)
		req := &testpb.CreateRequest{Item: "book"}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := client.Create(context.Background(), req); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("bare", func(b *testing.B) { run(b) })
	b.Run("interceptor", func(b *testing.B) {
		run(b, grpc.WithChainUnaryInterceptor(grpcretry.UnaryClientInterceptor(retry.Policy{})))
	})
}
