package grpcidem_test

import (
	"context"
	"fmt"
	"net"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	"github.com/idemlint/idemlint/runtime/grpcidem"
	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/internal/testpb"
)

// shop creates a new order on every run of its handler.
type shop struct {
	testpb.UnimplementedOrdersServer
	runs int
}

func (s *shop) Create(ctx context.Context, req *testpb.CreateRequest) (*testpb.Order, error) {
	s.runs++
	return &testpb.Order{Id: fmt.Sprint("order-", s.runs), Item: req.GetItem()}, nil
}

// The same key twice: the handler runs once, and the second call gets the stored order. The same key with
// another request fails with FAILED_PRECONDITION.
func ExampleUnaryServerInterceptor() {
	lis := bufconn.Listen(1 << 20)
	srv := grpc.NewServer(grpc.ChainUnaryInterceptor(grpcidem.UnaryServerInterceptor(idempotency.NewMemoryStore(),
		grpcidem.WithScope(func(ctx context.Context, method string) (string, error) {
			return "tenant-a", nil // in a real service: the authenticated account
		}))))
	s := &shop{}
	testpb.RegisterOrdersServer(srv, s)
	go srv.Serve(lis)
	defer srv.Stop()
	conn, err := grpc.NewClient("passthrough:///shop",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	client := testpb.NewOrdersClient(conn)

	ctx := metadata.AppendToOutgoingContext(context.Background(), grpcidem.KeyMetadata, "order-key-1")
	for range 2 {
		var header metadata.MD
		o, err := client.Create(ctx, &testpb.CreateRequest{Item: "book"}, grpc.Header(&header))
		fmt.Println(o.GetId(), err, header.Get(grpcidem.ReplayedHeader))
	}
	_, err = client.Create(ctx, &testpb.CreateRequest{Item: "pen"})
	fmt.Println(status.Code(err), "runs:", s.runs)
	// Output:
	// order-1 <nil> []
	// order-1 <nil> [true]
	// FailedPrecondition runs: 1
}
