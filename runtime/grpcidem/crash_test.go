package grpcidem_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/proto"

	"github.com/idemlint/idemlint/runtime/grpcidem"
	"github.com/idemlint/idemlint/runtime/grpcretry"
	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/internal/childtest"
	"github.com/idemlint/idemlint/runtime/internal/pgtest"
	"github.com/idemlint/idemlint/runtime/internal/testpb"
	"github.com/idemlint/idemlint/runtime/pgstore"
	"github.com/idemlint/idemlint/runtime/retry"
)

// Environment of the server child process (TestCrashChild).
const (
	envCrashChild = "IDEMLINT_GRPCIDEM_CHILD" // the database DSN
	envCrashHang  = "IDEMLINT_GRPCIDEM_HANG"  // "1": the handler hangs after its INSERT, until killed
)

const crashLease = 2 * time.Second

// pgOrders is the Orders service on PostgreSQL: Create inserts the order in the attempt's transaction.
type pgOrders struct {
	testpb.UnimplementedOrdersServer
	hang bool
}

func (s *pgOrders) Create(ctx context.Context, req *testpb.CreateRequest) (*testpb.Order, error) {
	var id int64
	if err := idempotency.Tx(ctx).QueryRowContext(ctx, `INSERT INTO orders (item) VALUES ($1) RETURNING id`, req.GetItem()).Scan(&id); err != nil {
		return nil, err
	}
	fmt.Println("INSERTED")
	if s.hang {
		time.Sleep(time.Hour) // killed here: inserted, not committed
	}
	return &testpb.Order{Id: fmt.Sprint("order-", id), Item: req.GetItem()}, nil
}

// TestCrashChild is not a test: it is the server process of TestCrashMidCallPostgres, run by re-executing the
// test binary with IDEMLINT_GRPCIDEM_CHILD set. It serves Orders on loopback, prints its address, and runs
// until it is killed.
func TestCrashChild(t *testing.T) {
	db, ok := pgtest.ChildDB(t, envCrashChild)
	if !ok {
		return // not in the child process
	}
	store, err := pgstore.NewPostgresStore(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer(grpc.ChainUnaryInterceptor(grpcidem.UnaryServerInterceptor(store, grpcidem.WithLease(crashLease))))
	testpb.RegisterOrdersServer(srv, &pgOrders{hang: os.Getenv(envCrashHang) == "1"})
	fmt.Println("LISTEN", lis.Addr())
	srv.Serve(lis)
}

// startChild starts a server child and returns it with its address.
func startChild(t *testing.T, dsn string, hang bool) (*childtest.Child, string) {
	t.Helper()
	h := "0"
	if hang {
		h = "1"
	}
	c := childtest.Start(t, "TestCrashChild", envCrashChild+"="+dsn, envCrashHang+"="+h)
	return c, c.Await("LISTEN ", 60*time.Second)
}

func dial(t *testing.T, addr string, opts ...grpc.DialOption) testpb.OrdersClient {
	cc, err := grpc.NewClient(addr, append(opts, grpc.WithTransportCredentials(insecure.NewCredentials()))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cc.Close() })
	return testpb.NewOrdersClient(cc)
}

// The server is killed (SIGKILL) in the middle of a call, after its INSERT and before the commit; a new server
// on the same PostgreSQL gets the retried call (same key) and, once the dead attempt's lease has passed, runs it:
// exactly one order. A further retry is replayed.
func TestCrashMidCallPostgres(t *testing.T) {
	db, dsn := pgtest.SchemaDB(t)
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, `CREATE TABLE orders (id bigserial PRIMARY KEY, item text NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	if _, err := pgstore.NewPostgresStore(ctx, db); err != nil {
		t.Fatal(err)
	}
	key := retry.NewIdempotencyKey()
	req := &testpb.CreateRequest{Item: "book"}

	first, addr := startChild(t, dsn, true)
	errc := make(chan error, 1)
	go func() {
		_, err := dial(t, addr).Create(keyed(key), req)
		errc <- err
	}()
	first.Await("INSERTED", 60*time.Second) // the call reached the handler
	first.Kill()
	if err := <-errc; err == nil {
		t.Fatal("the killed call got an answer")
	}

	_, addr = startChild(t, dsn, false)
	p := retry.Policy{MaxAttempts: 10, BaseDelay: 50 * time.Millisecond, MaxDelay: crashLease + time.Second, Deadline: 30 * time.Second}
	client := dial(t, addr, grpc.WithChainUnaryInterceptor(grpcretry.UnaryClientInterceptor(p)))
	start := time.Now()
	got, err := client.Create(keyed(key), req)
	if err != nil {
		t.Fatalf("retry after the crash: %v", err)
	}
	if waited := time.Since(start); waited > 20*time.Second {
		t.Errorf("the retry took %v", waited)
	}
	again, err := client.Create(keyed(key), req)
	if err != nil || !proto.Equal(got, again) {
		t.Fatalf("replay: %v, %v; want %v", again, err, got)
	}
	var n, id int64
	if err := db.QueryRowContext(ctx, `SELECT count(*), max(id) FROM orders`).Scan(&n, &id); err != nil {
		t.Fatal(err)
	}
	if n != 1 || got.GetId() != fmt.Sprint("order-", id) {
		t.Errorf("%d orders (last %d) after a crash and two retries, answer %v; want the one order answered", n, id, got)
	}
}
