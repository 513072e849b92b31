package grpcidem_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/idemlint/idemlint/runtime/grpcidem"
	"github.com/idemlint/idemlint/runtime/grpcretry"
	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/internal/testpb"
	"github.com/idemlint/idemlint/runtime/retry"
)

// orders is the service under the interceptor: Create runs create, counting the runs.
type orders struct {
	testpb.UnimplementedOrdersServer
	create func(ctx context.Context, n int64, req *testpb.CreateRequest) (*testpb.Order, error)
	runs   atomic.Int64
}

func (o *orders) Create(ctx context.Context, req *testpb.CreateRequest) (*testpb.Order, error) {
	return o.create(ctx, o.runs.Add(1), req)
}

func (o *orders) Get(ctx context.Context, req *testpb.GetRequest) (*testpb.Order, error) {
	o.runs.Add(1)
	return &testpb.Order{Id: req.GetId()}, nil
}

// created answers each run with a new order.
func created(_ context.Context, n int64, req *testpb.CreateRequest) (*testpb.Order, error) {
	return &testpb.Order{Id: fmt.Sprint("order-", n), Item: req.GetItem(), Quantity: req.GetQuantity()}, nil
}

func serve(t *testing.T, o *orders, store idempotency.Store, opts ...grpcidem.Option) testpb.OrdersClient {
	t.Helper()
	cc := testpb.Serve(t, func(g *grpc.Server) { testpb.RegisterOrdersServer(g, o) },
		[]grpc.ServerOption{grpc.ChainUnaryInterceptor(grpcidem.UnaryServerInterceptor(store, opts...))})
	return testpb.NewOrdersClient(cc)
}

func keyed(key string) context.Context {
	return metadata.AppendToOutgoingContext(context.Background(), grpcidem.KeyMetadata, key)
}

// reason returns the ErrorInfo reason of err, "" if none.
func reason(err error) string {
	for _, d := range status.Convert(err).Details() {
		if ei, ok := d.(*errdetails.ErrorInfo); ok && ei.GetDomain() == grpcidem.ErrorDomain {
			return ei.GetReason()
		}
	}
	return ""
}

func TestReplay(t *testing.T) {
	o := &orders{create: created}
	client := serve(t, o, idempotency.NewMemoryStore())
	req := &testpb.CreateRequest{Item: "book", Quantity: 2}
	var h1, h2 metadata.MD
	first, err := client.Create(keyed("k1"), req, grpc.Header(&h1))
	if err != nil {
		t.Fatal(err)
	}
	second, err := client.Create(keyed("k1"), req, grpc.Header(&h2))
	if err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(first, second) || o.runs.Load() != 1 {
		t.Fatalf("first %v, second %v, %d runs; want the same order from one run", first, second, o.runs.Load())
	}
	if got := h2.Get(grpcidem.ReplayedHeader); len(got) != 1 || got[0] != "true" {
		t.Errorf("replay header %q, want true", got)
	}
	if got := h1.Get(grpcidem.ReplayedHeader); len(got) != 0 {
		t.Errorf("first answer marked replayed: %q", got)
	}
	// Another key is another operation.
	third, err := client.Create(keyed("k2"), req)
	if err != nil || third.GetId() != "order-2" {
		t.Fatalf("other key: %v, %v; want order-2", third, err)
	}
}

func TestFinalErrorsReplayed(t *testing.T) {
	for _, c := range grpcidem.DefaultFinalCodes {
		t.Run(c.String(), func(t *testing.T) {
			o := &orders{create: func(context.Context, int64, *testpb.CreateRequest) (*testpb.Order, error) {
				st, _ := status.New(c, "refused").WithDetails(&errdetails.ErrorInfo{Reason: "OUT_OF_STOCK", Domain: "shop"})
				return nil, st.Err()
			}}
			client := serve(t, o, idempotency.NewMemoryStore())
			_, err1 := client.Create(keyed("k"), &testpb.CreateRequest{Item: "book"})
			_, err2 := client.Create(keyed("k"), &testpb.CreateRequest{Item: "book"})
			if status.Code(err1) != c || status.Code(err2) != c || o.runs.Load() != 1 {
				t.Fatalf("errors %v, %v after %d runs; want %v twice from one run", err1, err2, o.runs.Load(), c)
			}
			if !proto.Equal(status.Convert(err1).Proto(), status.Convert(err2).Proto()) {
				t.Errorf("replayed status %v differs from the first %v", status.Convert(err2).Proto(), status.Convert(err1).Proto())
			}
		})
	}
}

func TestNonFinalErrorsNotStored(t *testing.T) {
	for _, c := range []codes.Code{codes.Unavailable, codes.ResourceExhausted, codes.Aborted, codes.Internal,
		codes.Unknown, codes.DeadlineExceeded, codes.Canceled, codes.DataLoss, codes.PermissionDenied,
		codes.Unauthenticated, codes.Unimplemented} {
		t.Run(c.String(), func(t *testing.T) {
			o := &orders{create: func(ctx context.Context, n int64, req *testpb.CreateRequest) (*testpb.Order, error) {
				if n == 1 {
					return nil, status.Error(c, "not now")
				}
				return created(ctx, n, req)
			}}
			client := serve(t, o, idempotency.NewMemoryStore())
			if _, err := client.Create(keyed("k"), &testpb.CreateRequest{}); status.Code(err) != c {
				t.Fatalf("first call: %v, want %v", err, c)
			}
			o2, err := client.Create(keyed("k"), &testpb.CreateRequest{})
			if err != nil || o2.GetId() != "order-2" {
				t.Fatalf("retry: %v, %v; want the handler run again (order-2)", o2, err)
			}
			o3, err := client.Create(keyed("k"), &testpb.CreateRequest{})
			if err != nil || o3.GetId() != "order-2" || o.runs.Load() != 2 {
				t.Fatalf("third call: %v, %v after %d runs; want order-2 replayed", o3, err, o.runs.Load())
			}
		})
	}
	// Listing a never-final code does not make it stored.
	o := &orders{create: func(context.Context, int64, *testpb.CreateRequest) (*testpb.Order, error) {
		return nil, status.Error(codes.Unavailable, "down")
	}}
	client := serve(t, o, idempotency.NewMemoryStore(), grpcidem.WithFinalCodes(codes.Unavailable, codes.PermissionDenied))
	client.Create(keyed("k"), &testpb.CreateRequest{})
	client.Create(keyed("k"), &testpb.CreateRequest{})
	if o.runs.Load() != 2 {
		t.Errorf("%d runs, want 2: UNAVAILABLE is never stored", o.runs.Load())
	}
}

func TestKeyReuseWithAnotherRequest(t *testing.T) {
	o := &orders{create: created}
	client := serve(t, o, idempotency.NewMemoryStore())
	if _, err := client.Create(keyed("k"), &testpb.CreateRequest{Item: "book", Quantity: 1}); err != nil {
		t.Fatal(err)
	}
	_, err := client.Create(keyed("k"), &testpb.CreateRequest{Item: "book", Quantity: 2})
	if status.Code(err) != codes.FailedPrecondition || reason(err) != "IDEMPOTENCY_KEY_REUSED" || o.runs.Load() != 1 {
		t.Fatalf("reuse: %v (reason %q) after %d runs; want FAILED_PRECONDITION IDEMPOTENCY_KEY_REUSED after 1",
			err, reason(err), o.runs.Load())
	}
	// The same key on another method is another request too.
	cc := testpb.Serve(t, func(g *grpc.Server) { testpb.RegisterOrdersServer(g, o) },
		[]grpc.ServerOption{grpc.ChainUnaryInterceptor(grpcidem.UnaryServerInterceptor(idempotency.NewMemoryStore(),
			grpcidem.WithMethods("/idemlint.test.v1.Orders/Create", "/idemlint.test.v1.Orders/Put")))})
	other := testpb.NewOrdersClient(cc)
	if _, err := other.Create(keyed("k"), &testpb.CreateRequest{Item: "book"}); err != nil {
		t.Fatal(err)
	}
	// Put is unimplemented; the claim of its key still sees the fingerprint of another method.
	if _, err := other.Put(keyed("k"), &testpb.CreateRequest{Item: "book"}); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("same key, same message, another method: %v, want FAILED_PRECONDITION", err)
	}
}

func TestMissingAndInvalidKeys(t *testing.T) {
	o := &orders{create: created}
	client := serve(t, o, idempotency.NewMemoryStore())
	_, err := client.Create(context.Background(), &testpb.CreateRequest{})
	if status.Code(err) != codes.InvalidArgument || reason(err) != "IDEMPOTENCY_KEY_MISSING" {
		t.Errorf("no key: %v (reason %q), want INVALID_ARGUMENT IDEMPOTENCY_KEY_MISSING", err, reason(err))
	}
	two := metadata.AppendToOutgoingContext(keyed("a"), grpcidem.KeyMetadata, "b")
	if _, err := client.Create(two, &testpb.CreateRequest{}); status.Code(err) != codes.InvalidArgument || reason(err) != "IDEMPOTENCY_KEY_INVALID" {
		t.Errorf("two keys: %v (reason %q), want INVALID_ARGUMENT IDEMPOTENCY_KEY_INVALID", err, reason(err))
	}
	if _, err := client.Create(keyed(strings.Repeat("k", idempotency.MaxKeyLen+1)), &testpb.CreateRequest{}); status.Code(err) != codes.InvalidArgument {
		t.Errorf("key too long: %v, want INVALID_ARGUMENT", err)
	}
	if o.runs.Load() != 0 {
		t.Errorf("the handler ran %d times for refused keys", o.runs.Load())
	}
	// Get declares idempotency_level NO_SIDE_EFFECTS: it passes through without a key.
	if _, err := client.Get(context.Background(), &testpb.GetRequest{Id: "x"}); err != nil {
		t.Errorf("Get without a key: %v", err)
	}
	// WithOptionalKey runs unkeyed calls without idempotency.
	o2 := &orders{create: created}
	optional := serve(t, o2, idempotency.NewMemoryStore(), grpcidem.WithOptionalKey())
	optional.Create(context.Background(), &testpb.CreateRequest{})
	optional.Create(context.Background(), &testpb.CreateRequest{})
	if o2.runs.Load() != 2 {
		t.Errorf("optional key: %d runs, want 2", o2.runs.Load())
	}
}

func TestScope(t *testing.T) {
	o := &orders{create: created}
	scope := func(ctx context.Context, method string) (string, error) {
		v := metadata.ValueFromIncomingContext(ctx, "tenant")
		if len(v) != 1 {
			return "", status.Error(codes.Unauthenticated, "who are you")
		}
		return v[0], nil
	}
	client := serve(t, o, idempotency.NewMemoryStore(), grpcidem.WithScope(scope))
	for _, tenant := range []string{"acme", "globex", "acme"} {
		ctx := metadata.AppendToOutgoingContext(keyed("shared"), "tenant", tenant)
		if _, err := client.Create(ctx, &testpb.CreateRequest{Item: "book"}); err != nil {
			t.Fatal(err)
		}
	}
	if o.runs.Load() != 2 {
		t.Errorf("%d runs for two tenants sharing a key, want 2", o.runs.Load())
	}
	if _, err := client.Create(keyed("shared"), &testpb.CreateRequest{}); status.Code(err) != codes.Unauthenticated {
		t.Errorf("scope error: %v, want the scope's UNAUTHENTICATED", err)
	}
}

func TestInProgress(t *testing.T) {
	release := make(chan struct{})
	running := make(chan struct{})
	o := &orders{create: func(ctx context.Context, n int64, req *testpb.CreateRequest) (*testpb.Order, error) {
		close(running)
		<-release
		return created(ctx, n, req)
	}}
	client := serve(t, o, idempotency.NewMemoryStore(), grpcidem.WithLease(3*time.Second))
	done := make(chan error)
	go func() {
		_, err := client.Create(keyed("k"), &testpb.CreateRequest{})
		done <- err
	}()
	<-running
	var trailer metadata.MD
	_, err := client.Create(keyed("k"), &testpb.CreateRequest{}, grpc.Trailer(&trailer))
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if status.Code(err) != codes.Unavailable || reason(err) != "IDEMPOTENCY_REQUEST_IN_PROGRESS" {
		t.Fatalf("duplicate: %v (reason %q), want UNAVAILABLE IDEMPOTENCY_REQUEST_IN_PROGRESS", err, reason(err))
	}
	pb := trailer.Get(grpcretry.PushbackTrailer)
	if len(pb) != 1 {
		t.Fatalf("pushback trailer %q, want one value", pb)
	}
	if ms, err := strconv.Atoi(pb[0]); err != nil || ms < 1000 || ms > 3000 {
		t.Errorf("pushback %q ms, want the lease left (1s to 3s, whole seconds)", pb[0])
	}
}

// N concurrent identical calls with one key, each retried by grpcretry: one run, one answer for all.
func TestConcurrentCallsOneEffect(t *testing.T) {
	o := &orders{create: func(ctx context.Context, n int64, req *testpb.CreateRequest) (*testpb.Order, error) {
		time.Sleep(50 * time.Millisecond)
		return created(ctx, n, req)
	}}
	p := retry.Policy{MaxAttempts: 20, BaseDelay: 10 * time.Millisecond, MaxDelay: 100 * time.Millisecond, Deadline: 20 * time.Second}
	cc := testpb.Serve(t, func(g *grpc.Server) { testpb.RegisterOrdersServer(g, o) },
		[]grpc.ServerOption{grpc.ChainUnaryInterceptor(grpcidem.UnaryServerInterceptor(idempotency.NewMemoryStore()))},
		grpc.WithChainUnaryInterceptor(grpcretry.UnaryClientInterceptor(p)))
	client := testpb.NewOrdersClient(cc)
	const n = 20
	key := retry.NewIdempotencyKey()
	ids := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			o, err := client.Create(keyed(key), &testpb.CreateRequest{Item: "book", Quantity: 1})
			ids[i], errs[i] = o.GetId(), err
		})
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil || ids[i] != "order-1" {
			t.Errorf("call %d: %q, %v; want order-1", i, ids[i], errs[i])
		}
	}
	if o.runs.Load() != 1 {
		t.Errorf("%d runs for %d identical calls, want 1", o.runs.Load(), n)
	}
}

// The client interceptor's key reaches the server once per logical call: a retried call is replayed.
func TestClientKeyEndToEnd(t *testing.T) {
	var mu sync.Mutex
	fail := true
	// The first attempt completes on the server, but its answer is lost (UNAVAILABLE from a client interceptor
	// below grpcretry); the retry with the same key gets the stored answer.
	lose := func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		err := invoker(ctx, method, req, reply, cc, opts...)
		mu.Lock()
		defer mu.Unlock()
		if fail && err == nil {
			fail = false
			return status.Error(codes.Unavailable, "connection lost after the call")
		}
		return err
	}
	o := &orders{create: created}
	cc := testpb.Serve(t, func(g *grpc.Server) { testpb.RegisterOrdersServer(g, o) },
		[]grpc.ServerOption{grpc.ChainUnaryInterceptor(grpcidem.UnaryServerInterceptor(idempotency.NewMemoryStore()))},
		grpc.WithChainUnaryInterceptor(grpcretry.UnaryClientInterceptor(retry.Policy{BaseDelay: time.Millisecond}), lose))
	client := testpb.NewOrdersClient(cc)
	var h metadata.MD
	got, err := client.Create(context.Background(), &testpb.CreateRequest{Item: "book"}, grpc.Header(&h))
	if err != nil || got.GetId() != "order-1" || o.runs.Load() != 1 {
		t.Fatalf("Create = %v, %v after %d runs; want order-1 from one run", got, err, o.runs.Load())
	}
	if v := h.Get(grpcidem.ReplayedHeader); len(v) != 1 {
		t.Errorf("the retried attempt was not a replay (header %q)", v)
	}
}

// A store that cannot be reached fails closed: UNAVAILABLE with pushback, handler not run.
func TestStoreUnavailable(t *testing.T) {
	o := &orders{create: created}
	client := serve(t, o, brokenStore{})
	var trailer metadata.MD
	_, err := client.Create(keyed("k"), &testpb.CreateRequest{}, grpc.Trailer(&trailer))
	if status.Code(err) != codes.Unavailable || reason(err) != "IDEMPOTENCY_STORE_UNAVAILABLE" || o.runs.Load() != 0 {
		t.Fatalf("%v (reason %q) after %d runs; want UNAVAILABLE IDEMPOTENCY_STORE_UNAVAILABLE, no run", err, reason(err), o.runs.Load())
	}
	if len(trailer.Get(grpcretry.PushbackTrailer)) != 1 {
		t.Errorf("no pushback: %v", trailer)
	}
}

type brokenStore struct{ idempotency.Store }

func (brokenStore) Claim(context.Context, idempotency.ClaimRequest) (idempotency.ClaimResult, error) {
	return idempotency.ClaimResult{}, fmt.Errorf("dial: %w", errors.Join(idempotency.ErrStoreUnavailable))
}

func TestLimitsAndTTL(t *testing.T) {
	o := &orders{create: created}
	client := serve(t, o, idempotency.NewMemoryStore(), grpcidem.WithMaxRequestBytes(16), grpcidem.WithMaxResponseBytes(16))
	_, err := client.Create(keyed("big"), &testpb.CreateRequest{Item: strings.Repeat("x", 32)})
	if status.Code(err) != codes.InvalidArgument || reason(err) != "IDEMPOTENCY_REQUEST_TOO_LARGE" || o.runs.Load() != 0 {
		t.Fatalf("large request: %v (reason %q) after %d runs", err, reason(err), o.runs.Load())
	}
	// A response over the limit is rolled back and the key released: the retry runs again.
	for i := 1; i <= 2; i++ {
		_, err = client.Create(keyed("resp"), &testpb.CreateRequest{Item: strings.Repeat("y", 12)})
		if status.Code(err) != codes.Internal || reason(err) != "IDEMPOTENCY_RESPONSE_TOO_LARGE" || o.runs.Load() != int64(i) {
			t.Fatalf("large response %d: %v (reason %q) after %d runs", i, err, reason(err), o.runs.Load())
		}
	}

	// After the TTL the key is free again: a new run.
	now := time.Now()
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	o2 := &orders{create: created}
	client = serve(t, o2, idempotency.NewMemoryStore(idempotency.WithClock(clock)), grpcidem.WithTTL(time.Minute))
	client.Create(keyed("k"), &testpb.CreateRequest{})
	client.Create(keyed("k"), &testpb.CreateRequest{})
	mu.Lock()
	now = now.Add(2 * time.Minute)
	mu.Unlock()
	client.Create(keyed("k"), &testpb.CreateRequest{})
	if o2.runs.Load() != 2 {
		t.Errorf("%d runs: want 1 before the TTL and 1 after", o2.runs.Load())
	}
}

func TestErrorHandler(t *testing.T) {
	var got []error
	var mu sync.Mutex
	client := serve(t, &orders{create: created}, brokenStore{}, grpcidem.WithErrorHandler(func(ctx context.Context, err error) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, err)
	}))
	client.Create(keyed("k"), &testpb.CreateRequest{})
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || !errors.Is(got[0], idempotency.ErrStoreUnavailable) {
		t.Errorf("error handler got %v, want the store's error", got)
	}
}
