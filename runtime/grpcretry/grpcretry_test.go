package grpcretry_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/idemlint/idemlint/runtime/grpcretry"
	"github.com/idemlint/idemlint/runtime/internal/testpb"
	"github.com/idemlint/idemlint/runtime/retry"
)

// attempt is what the server saw of one attempt.
type attempt struct {
	method string
	keys   []string // idempotency-key values
	at     time.Time
}

// server answers each attempt with answer(n, ctx), n counting the attempts of the method from 1.
type server struct {
	testpb.UnimplementedOrdersServer
	answer func(ctx context.Context, n int) (*testpb.Order, error)

	mu       sync.Mutex
	attempts []attempt
}

func (s *server) record(ctx context.Context, method string) int {
	md, _ := metadata.FromIncomingContext(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.attempts = append(s.attempts, attempt{method: method, keys: md.Get(grpcretry.KeyMetadata), at: time.Now()})
	n := 0
	for _, a := range s.attempts {
		if a.method == method {
			n++
		}
	}
	return n
}

func (s *server) Create(ctx context.Context, _ *testpb.CreateRequest) (*testpb.Order, error) {
	return s.answer(ctx, s.record(ctx, "Create"))
}

func (s *server) Get(ctx context.Context, _ *testpb.GetRequest) (*testpb.Order, error) {
	return s.answer(ctx, s.record(ctx, "Get"))
}

func (s *server) Put(ctx context.Context, _ *testpb.CreateRequest) (*testpb.Order, error) {
	return s.answer(ctx, s.record(ctx, "Put"))
}

func (s *server) seen() []attempt {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]attempt(nil), s.attempts...)
}

// fast is a policy whose waits are short enough for tests.
var fast = retry.Policy{MaxAttempts: 4, BaseDelay: 5 * time.Millisecond, MaxDelay: time.Second, Deadline: 10 * time.Second}

func start(t *testing.T, answer func(ctx context.Context, n int) (*testpb.Order, error), p retry.Policy,
	opts ...grpcretry.Option) (testpb.OrdersClient, *server) {
	t.Helper()
	s := &server{answer: answer}
	cc := testpb.Serve(t, func(g *grpc.Server) { testpb.RegisterOrdersServer(g, s) }, nil,
		grpc.WithChainUnaryInterceptor(grpcretry.UnaryClientInterceptor(p, opts...)))
	return testpb.NewOrdersClient(cc), s
}

// failFirst fails the first k attempts with code c, then succeeds.
func failFirst(k int, c codes.Code) func(context.Context, int) (*testpb.Order, error) {
	return func(_ context.Context, n int) (*testpb.Order, error) {
		if n <= k {
			return nil, status.Errorf(c, "attempt %d fails", n)
		}
		return &testpb.Order{Id: fmt.Sprint("order-", n)}, nil
	}
}

func always(c codes.Code) func(context.Context, int) (*testpb.Order, error) {
	return func(context.Context, int) (*testpb.Order, error) { return nil, status.Error(c, "no") }
}

func TestRetriesTransientCodesWithOneKey(t *testing.T) {
	for _, c := range []codes.Code{codes.Unavailable, codes.ResourceExhausted} {
		t.Run(c.String(), func(t *testing.T) {
			client, s := start(t, failFirst(2, c), fast)
			o, err := client.Create(context.Background(), &testpb.CreateRequest{Item: "book"})
			if err != nil || o.GetId() != "order-3" {
				t.Fatalf("Create = %v, %v; want order-3 after two %v", o, err, c)
			}
			seen := s.seen()
			if len(seen) != 3 {
				t.Fatalf("server saw %d attempts, want 3", len(seen))
			}
			for i, a := range seen {
				if len(a.keys) != 1 || a.keys[0] != seen[0].keys[0] || len(a.keys[0]) != 36 {
					t.Errorf("attempt %d keys %q, want the first attempt's single 36-character key %q", i+1, a.keys, seen[0].keys)
				}
			}
			// A second logical call gets a key of its own.
			if _, err := client.Create(context.Background(), &testpb.CreateRequest{Item: "pen"}); err != nil {
				t.Fatal(err)
			}
			if seen := s.seen(); seen[3].keys[0] == seen[0].keys[0] {
				t.Errorf("two logical calls share the key %q", seen[0].keys[0])
			}
		})
	}
}

func TestAttemptsCapped(t *testing.T) {
	client, s := start(t, always(codes.Unavailable), fast)
	_, err := client.Create(context.Background(), &testpb.CreateRequest{})
	if status.Code(err) != codes.Unavailable || len(s.seen()) != fast.MaxAttempts {
		t.Fatalf("Create = %v after %d attempts, want UNAVAILABLE after %d", err, len(s.seen()), fast.MaxAttempts)
	}
	// The last attempt's status, unchanged: its message is the server's.
	if msg := status.Convert(err).Message(); msg != "no" {
		t.Errorf("message %q, want the server's %q", msg, "no")
	}
}

func TestPermanentCodesNotRetried(t *testing.T) {
	for _, c := range []codes.Code{codes.InvalidArgument, codes.PermissionDenied, codes.FailedPrecondition,
		codes.Unauthenticated, codes.NotFound, codes.AlreadyExists, codes.Unimplemented, codes.OutOfRange,
		codes.Aborted, codes.Internal, codes.Unknown, codes.DataLoss, codes.Canceled, codes.DeadlineExceeded} {
		t.Run(c.String(), func(t *testing.T) {
			client, s := start(t, always(c), fast)
			_, err := client.Create(context.Background(), &testpb.CreateRequest{})
			if status.Code(err) != c || len(s.seen()) != 1 {
				t.Fatalf("Create = %v after %d attempts, want %v after 1", err, len(s.seen()), c)
			}
			if msg := status.Convert(err).Message(); msg != "no" {
				t.Errorf("message %q, want the server's %q", msg, "no")
			}
		})
	}
}

func TestPolicyRetryableOnlyRefuses(t *testing.T) {
	p := fast
	p.Retryable = func(err error) bool { return status.Code(err) != codes.ResourceExhausted }
	client, s := start(t, always(codes.ResourceExhausted), p)
	if _, err := client.Create(context.Background(), &testpb.CreateRequest{}); status.Code(err) != codes.ResourceExhausted || len(s.seen()) != 1 {
		t.Fatalf("Create = %v after %d attempts, want RESOURCE_EXHAUSTED after 1 (refused by Policy.Retryable)", err, len(s.seen()))
	}
	p.Retryable = func(error) bool { return true }
	client, s = start(t, always(codes.InvalidArgument), p)
	if _, err := client.Create(context.Background(), &testpb.CreateRequest{}); len(s.seen()) != 1 {
		t.Fatalf("Create = %v after %d attempts: Policy.Retryable must not widen the codes", err, len(s.seen()))
	}
}

// pushbackAnswer fails the first attempt with UNAVAILABLE and the given pushback trailer values.
func pushbackAnswer(values ...string) func(context.Context, int) (*testpb.Order, error) {
	return func(ctx context.Context, n int) (*testpb.Order, error) {
		if n == 1 {
			md := metadata.MD{}
			for _, v := range values {
				md.Append(grpcretry.PushbackTrailer, v)
			}
			grpc.SetTrailer(ctx, md)
			return nil, status.Error(codes.Unavailable, "busy")
		}
		return &testpb.Order{Id: "ok"}, nil
	}
}

func TestPushbackIsTheWait(t *testing.T) {
	p := fast
	p.BaseDelay = time.Millisecond // without the pushback the wait would be under 1ms
	var waits []time.Duration
	p.OnRetry = func(_ int, _ error, wait time.Duration) { waits = append(waits, wait) }
	client, s := start(t, pushbackAnswer("250"), p)
	if _, err := client.Create(context.Background(), &testpb.CreateRequest{}); err != nil {
		t.Fatal(err)
	}
	seen := s.seen()
	if len(seen) != 2 || len(waits) != 1 || waits[0] != 250*time.Millisecond {
		t.Fatalf("%d attempts, waits %v; want 2 attempts and exactly one wait of 250ms", len(seen), waits)
	}
	if gap := seen[1].at.Sub(seen[0].at); gap < 250*time.Millisecond {
		t.Errorf("second attempt %v after the first, want at least the 250ms pushback", gap)
	}
}

func TestPushbackStops(t *testing.T) {
	for name, values := range map[string][]string{
		"negative": {"-1"}, "malformed": {"abc"}, "fraction": {"1.5"}, "too large": {"2147483648"}, "two values": {"10", "10"},
	} {
		t.Run(name, func(t *testing.T) {
			client, s := start(t, pushbackAnswer(values...), fast)
			_, err := client.Create(context.Background(), &testpb.CreateRequest{})
			if status.Code(err) != codes.Unavailable || len(s.seen()) != 1 {
				t.Fatalf("Create = %v after %d attempts, want UNAVAILABLE after 1: pushback %q says do not retry",
					err, len(s.seen()), values)
			}
		})
	}
	// A pushback on a permanent code changes nothing: one attempt.
	client, s := start(t, func(ctx context.Context, n int) (*testpb.Order, error) {
		grpc.SetTrailer(ctx, metadata.Pairs(grpcretry.PushbackTrailer, "0"))
		return nil, status.Error(codes.InvalidArgument, "bad")
	}, fast)
	if _, err := client.Create(context.Background(), &testpb.CreateRequest{}); status.Code(err) != codes.InvalidArgument || len(s.seen()) != 1 {
		t.Fatalf("Create = %v after %d attempts, want INVALID_ARGUMENT after 1", err, len(s.seen()))
	}
}

// slowFirst makes the first attempt outlast any attempt timeout; later attempts answer at once.
func slowFirst(ctx context.Context, n int) (*testpb.Order, error) {
	if n == 1 {
		<-ctx.Done()
		return nil, status.FromContextError(ctx.Err()).Err()
	}
	return &testpb.Order{Id: "ok"}, nil
}

func TestAttemptTimeout(t *testing.T) {
	p := fast
	p.AttemptTimeout = 100 * time.Millisecond
	type call func(testpb.OrdersClient) error
	create := func(c testpb.OrdersClient) error {
		_, err := c.Create(context.Background(), &testpb.CreateRequest{})
		return err
	}
	get := func(c testpb.OrdersClient) error {
		_, err := c.Get(context.Background(), &testpb.GetRequest{})
		return err
	}
	put := func(c testpb.OrdersClient) error {
		_, err := c.Put(context.Background(), &testpb.CreateRequest{})
		return err
	}
	keyedCreate := func(c testpb.OrdersClient) error {
		ctx := metadata.AppendToOutgoingContext(context.Background(), grpcretry.KeyMetadata, "caller-key")
		_, err := c.Create(ctx, &testpb.CreateRequest{})
		return err
	}
	for _, tc := range []struct {
		name     string
		call     call
		opts     []grpcretry.Option
		attempts int
	}{
		{"create keyed by the interceptor", create, nil, 2},
		{"create keyed by the caller", keyedCreate, []grpcretry.Option{grpcretry.WithoutKeys()}, 2},
		{"create without keys", create, []grpcretry.Option{grpcretry.WithoutKeys()}, 1},
		{"create declared idempotent by option", create,
			[]grpcretry.Option{grpcretry.WithoutKeys(), grpcretry.WithIdempotentMethods("/idemlint.test.v1.Orders/Create")}, 2},
		{"get: idempotency_level NO_SIDE_EFFECTS", get, []grpcretry.Option{grpcretry.WithoutKeys()}, 2},
		{"put: idempotency_level IDEMPOTENT", put, []grpcretry.Option{grpcretry.WithoutKeys()}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client, s := start(t, slowFirst, p, tc.opts...)
			err := tc.call(client)
			if got := len(s.seen()); got != tc.attempts {
				t.Fatalf("%d attempts (err %v), want %d", got, err, tc.attempts)
			}
			if tc.attempts == 1 && status.Code(err) != codes.DeadlineExceeded || tc.attempts == 2 && err != nil {
				t.Errorf("err = %v", err)
			}
		})
	}
	// The caller's own deadline is not retried, with an attempt timeout or without one.
	for _, pol := range []retry.Policy{fast, p} {
		client, s := start(t, slowFirst, pol)
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		_, err := client.Create(ctx, &testpb.CreateRequest{})
		cancel()
		if status.Code(err) != codes.DeadlineExceeded || len(s.seen()) != 1 {
			t.Fatalf("AttemptTimeout %v: Create = %v after %d attempts, want DEADLINE_EXCEEDED after 1 (the caller's deadline)",
				pol.AttemptTimeout, err, len(s.seen()))
		}
	}
}

func TestKeys(t *testing.T) {
	client, s := start(t, failFirst(1, codes.Unavailable), fast)
	// A caller's key, set either way, is kept and sent once.
	ctx := metadata.AppendToOutgoingContext(context.Background(), grpcretry.KeyMetadata, "mine-1")
	if _, err := client.Create(ctx, &testpb.CreateRequest{}); err != nil {
		t.Fatal(err)
	}
	ctx = metadata.NewOutgoingContext(context.Background(), metadata.Pairs("Idempotency-Key", "mine-2"))
	if _, err := client.Create(ctx, &testpb.CreateRequest{}); err != nil {
		t.Fatal(err)
	}
	// A method declared idempotent gets no key.
	if _, err := client.Get(context.Background(), &testpb.GetRequest{}); err != nil {
		t.Fatal(err)
	}
	seen := s.seen()
	want := [][]string{{"mine-1"}, {"mine-1"}, {"mine-2"}, nil, nil}
	if len(seen) != len(want) {
		t.Fatalf("%d attempts, want %d", len(seen), len(want))
	}
	for i, a := range seen {
		if fmt.Sprint(a.keys) != fmt.Sprint(want[i]) {
			t.Errorf("attempt %d (%s): keys %q, want %q", i+1, a.method, a.keys, want[i])
		}
	}
}

// Inside a retry.Do operation the interceptor makes one attempt: layers never multiply.
func TestOneLayer(t *testing.T) {
	client, s := start(t, always(codes.Unavailable), fast)
	key := retry.NewIdempotencyKey()
	ctx := metadata.AppendToOutgoingContext(context.Background(), grpcretry.KeyMetadata, key)
	err := retry.Do(ctx, retry.Policy{MaxAttempts: 3, BaseDelay: time.Millisecond}, func(ctx context.Context) error {
		_, err := client.Create(ctx, &testpb.CreateRequest{})
		return err
	})
	if status.Code(err) != codes.Unavailable || len(s.seen()) != 3 {
		t.Fatalf("Do = %v after %d attempts, want UNAVAILABLE after 3 (not 3×%d)", err, len(s.seen()), fast.MaxAttempts)
	}
	for _, a := range s.seen() {
		if len(a.keys) != 1 || a.keys[0] != key {
			t.Errorf("keys %q, want the outer key %q", a.keys, key)
		}
	}
	// AllowNested lets the inner layer retry.
	client, s = start(t, always(codes.Unavailable), retry.Policy{MaxAttempts: 2, BaseDelay: time.Millisecond, AllowNested: true})
	err = retry.Do(ctx, retry.Policy{MaxAttempts: 2, BaseDelay: time.Millisecond}, func(ctx context.Context) error {
		_, err := client.Create(ctx, &testpb.CreateRequest{})
		return err
	})
	if len(s.seen()) != 4 {
		t.Fatalf("%d attempts (err %v), want 4 with AllowNested", len(s.seen()), err)
	}
}

func TestDeadlineWithinCallers(t *testing.T) {
	p := retry.Policy{MaxAttempts: 1000, BaseDelay: 40 * time.Millisecond, MaxDelay: 40 * time.Millisecond}
	var waits []time.Duration
	p.OnRetry = func(_ int, _ error, w time.Duration) { waits = append(waits, w) }
	client, s := start(t, always(codes.Unavailable), p)
	ctx, cancel := context.WithTimeout(context.Background(), 400*time.Millisecond)
	defer cancel()
	begin := time.Now()
	_, err := client.Create(ctx, &testpb.CreateRequest{})
	elapsed := time.Since(begin)
	// The last attempt may start just before the deadline and run into it.
	if c := status.Code(err); c != codes.Unavailable && c != codes.DeadlineExceeded || elapsed >= time.Second {
		t.Fatalf("Create = %v after %v, want UNAVAILABLE or DEADLINE_EXCEEDED at the caller's 400ms", err, elapsed)
	}
	if n := len(s.seen()); n < 3 || n >= 1000 {
		t.Errorf("%d attempts, want several, bounded by the caller's deadline", n)
	}
	// Full jitter: every wait in [0, 40ms), not all alike.
	distinct := map[time.Duration]bool{}
	for _, w := range waits {
		if w < 0 || w >= 40*time.Millisecond {
			t.Errorf("wait %v outside [0, 40ms)", w)
		}
		distinct[w] = true
	}
	if len(waits) > 2 && len(distinct) < 2 {
		t.Errorf("waits %v are all the same: no jitter", waits)
	}
}

func TestCanceledDuringWait(t *testing.T) {
	p := fast
	p.BaseDelay, p.MaxDelay = time.Hour, time.Hour
	p.Deadline = 2 * time.Hour
	client, s := start(t, always(codes.Unavailable), p)
	ctx, cancel := context.WithCancel(context.Background())
	p.OnRetry = nil
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := client.Create(ctx, &testpb.CreateRequest{})
	var re *retry.Error
	if status.Code(err) != codes.Canceled || !errors.Is(err, context.Canceled) || !errors.As(err, &re) || len(s.seen()) != 1 {
		t.Fatalf("Create = %v after %d attempts, want CANCELLED wrapping the *retry.Error after 1", err, len(s.seen()))
	}
}

func TestBudgetAndBreaker(t *testing.T) {
	// A budget of 2 tokens allows no retry once the first failure took one (more than half must be left).
	budget, err := retry.NewBudget(2, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	p := fast
	p.Budget = budget
	client, s := start(t, always(codes.Unavailable), p)
	if _, err := client.Create(context.Background(), &testpb.CreateRequest{}); status.Code(err) != codes.Unavailable || len(s.seen()) != 1 {
		t.Fatalf("Create = %v after %d attempts, want UNAVAILABLE after 1 (budget)", err, len(s.seen()))
	}
	// Permanent codes take no token.
	budget2 := &retry.Budget{}
	p.Budget = budget2
	client, _ = start(t, always(codes.InvalidArgument), p)
	client.Create(context.Background(), &testpb.CreateRequest{})
	if budget2.Tokens() != retry.DefaultBudgetMaxTokens {
		t.Errorf("an INVALID_ARGUMENT took a token: %v left", budget2.Tokens())
	}

	br := retry.NewBreaker(retry.BreakerConfig{Name: "orders", Window: 4, MinCalls: 4, OpenFor: time.Hour})
	p = fast
	p.Breaker = br
	client, s = start(t, always(codes.Unavailable), p)
	if _, err := client.Create(context.Background(), &testpb.CreateRequest{}); status.Code(err) != codes.Unavailable {
		t.Fatalf("Create = %v", err)
	}
	if br.State() != retry.BreakerOpen {
		t.Fatalf("breaker %v after 4 UNAVAILABLE, want open", br.State())
	}
	before := len(s.seen())
	_, err = client.Create(context.Background(), &testpb.CreateRequest{})
	if status.Code(err) != codes.Unavailable || !errors.Is(err, retry.ErrCircuitOpen) || len(s.seen()) != before {
		t.Fatalf("Create = %v, server hit %d times more; want UNAVAILABLE matching ErrCircuitOpen, no attempt",
			err, len(s.seen())-before)
	}
}

// WithCallObserver reports each call once, when it ends: its method and target, the attempts after the
// first, and the time spent between attempts (here at least the pushback waits the server asked for); the
// policy's own Observe still sees every retry.
func TestCallObserver(t *testing.T) {
	var mu sync.Mutex
	var calls []grpcretry.CallStats
	var retries int
	p := fast
	p.Observe = func(_ context.Context, e retry.Event) {
		if !e.GaveUp {
			mu.Lock()
			retries++
			mu.Unlock()
		}
	}
	answer := func(ctx context.Context, n int) (*testpb.Order, error) {
		if n <= 2 {
			grpc.SetTrailer(ctx, metadata.Pairs(grpcretry.PushbackTrailer, "30"))
			return nil, status.Error(codes.Unavailable, "busy")
		}
		return &testpb.Order{Id: "order-3"}, nil
	}
	client, _ := start(t, answer, p, grpcretry.WithCallObserver(func(_ context.Context, s grpcretry.CallStats) {
		mu.Lock()
		calls = append(calls, s)
		mu.Unlock()
	}))
	if _, err := client.Create(context.Background(), &testpb.CreateRequest{}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Get(context.Background(), &testpb.GetRequest{}); err != nil { // also twice busy, then served
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(calls) != 2 || retries != 4 {
		t.Fatalf("calls %+v, %d retries seen by the policy's Observe; want 2 calls and 4 retries", calls, retries)
	}
	c := calls[0]
	if c.Method != "/idemlint.test.v1.Orders/Create" || c.Target == "" || c.Retries != 2 || c.Err != nil ||
		c.RetryDelay < 60*time.Millisecond || c.RetryDelay > 5*time.Second {
		t.Errorf("Create's stats %+v; want 2 retries, at least 60ms between attempts (two 30ms pushbacks), no error", c)
	}
	if g := calls[1]; g.Method != "/idemlint.test.v1.Orders/Get" || g.Retries != 2 {
		t.Errorf("Get's stats %+v; want 2 retries", g)
	}
}
