package grpcretry_test

import (
	"context"
	"fmt"
	"net"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	"github.com/idemlint/idemlint/runtime/grpcretry"
	"github.com/idemlint/idemlint/runtime/internal/testpb"
	"github.com/idemlint/idemlint/runtime/retry"
)

// flaky fails its first two calls with UNAVAILABLE and records the idempotency keys it sees.
type flaky struct {
	testpb.UnimplementedOrdersServer
	keys []string
}

func (f *flaky) Create(ctx context.Context, req *testpb.CreateRequest) (*testpb.Order, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	f.keys = append(f.keys, md.Get(grpcretry.KeyMetadata)...)
	if len(f.keys) < 3 {
		return nil, status.Error(codes.Unavailable, "warming up")
	}
	return &testpb.Order{Id: "order-1", Item: req.GetItem()}, nil
}

// A call that fails twice with UNAVAILABLE is retried, with the same idempotency key on every attempt.
func ExampleUnaryClientInterceptor() {
	lis := bufconn.Listen(1 << 20)
	srv := grpc.NewServer()
	f := &flaky{}
	testpb.RegisterOrdersServer(srv, f)
	go srv.Serve(lis)
	defer srv.Stop()

	conn, err := grpc.NewClient("passthrough:///orders",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithChainUnaryInterceptor(grpcretry.UnaryClientInterceptor(retry.Policy{
			BaseDelay: 10 * time.Millisecond, AttemptTimeout: time.Second,
		})))
	if err != nil {
		panic(err)
	}
	defer conn.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	order, err := testpb.NewOrdersClient(conn).Create(ctx, &testpb.CreateRequest{Item: "book"})
	fmt.Println(order.GetId(), err)
	fmt.Println("attempts:", len(f.keys), "one key:", f.keys[0] == f.keys[1] && f.keys[1] == f.keys[2])
	// Output:
	// order-1 <nil>
	// attempts: 3 one key: true
}
