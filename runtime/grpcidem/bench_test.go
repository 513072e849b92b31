package grpcidem_test

import (
	"context"
	"strconv"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	"github.com/idemlint/idemlint/runtime/grpcidem"
	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/internal/testpb"
)

// BenchmarkUnaryServerInterceptor: one keyed Create per iteration over bufconn, with the interceptor on a
// MemoryStore (a fresh key each time: claim, run, store) and without it (bare); replay is the same key
// again and again.
func BenchmarkUnaryServerInterceptor(b *testing.B) {
	run := func(b *testing.B, opts []grpc.ServerOption, key func(i int) string) {
		o := &orders{create: created}
		cc := testpb.Serve(b, func(g *grpc.Server) { testpb.RegisterOrdersServer(g, o) }, opts)
		client := testpb.NewOrdersClient(cc)
		req := &testpb.CreateRequest{Item: "book", Quantity: 1}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; b.Loop(); i++ {
			ctx := metadata.AppendToOutgoingContext(context.Background(), grpcidem.KeyMetadata, key(i))
			if _, err := client.Create(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
	}
	fresh := func(i int) string { return "key-" + strconv.Itoa(i) }
	idem := []grpc.ServerOption{grpc.ChainUnaryInterceptor(grpcidem.UnaryServerInterceptor(idempotency.NewMemoryStore()))}
	b.Run("bare", func(b *testing.B) { run(b, nil, fresh) })
	b.Run("interceptor", func(b *testing.B) { run(b, idem, fresh) })
	b.Run("replay", func(b *testing.B) { run(b, idem, func(int) string { return "same" }) })
}
