package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/idemlint/idemlint/cmd/idemdemo/paymentspb"
	"github.com/idemlint/idemlint/runtime/grpcidem"
	"github.com/idemlint/idemlint/runtime/grpcretry"
	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/retry"
)

func paymentsClient(t *testing.T, addr string, opts ...grpc.DialOption) paymentspb.PaymentsClient {
	t.Helper()
	cc, err := grpc.NewClient(addr, append(opts, grpc.WithTransportCredentials(insecure.NewCredentials()))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cc.Close() })
	return paymentspb.NewPaymentsClient(cc)
}

func withKey(key string, kv ...string) context.Context {
	return metadata.AppendToOutgoingContext(context.Background(), append([]string{grpcidem.KeyMetadata, key}, kv...)...)
}

// The payments over gRPC, on each store: replay, one effect for concurrent calls, key reuse, a stored
// INVALID_ARGUMENT, tenants, and the same store and outbox as HTTP.
func TestDemoGRPC(t *testing.T) {
	eachStore(t, func(t *testing.T, d *demo) {
		plain := paymentsClient(t, d.grpcAddr)
		// Same key twice: one payment, the same answer, replayed.
		key := idempotency.NewKey()
		req := &paymentspb.CreatePaymentRequest{Amount: 1250, Currency: "EUR"}
		first, err := plain.CreatePayment(withKey(key), req)
		if err != nil {
			t.Fatal(err)
		}
		var h metadata.MD
		second, err := plain.CreatePayment(withKey(key), req, grpc.Header(&h))
		if err != nil || !proto.Equal(first, second) || len(h.Get(grpcidem.ReplayedHeader)) != 1 {
			t.Fatalf("second: %v, %v (header %v); want %v replayed", second, err, h, first)
		}
		// 20 concurrent calls with one key, retried by grpcretry: one payment, the same one for all.
		retrying := paymentsClient(t, d.grpcAddr, grpc.WithChainUnaryInterceptor(grpcretry.UnaryClientInterceptor(
			retry.Policy{MaxAttempts: 20, BaseDelay: 20 * time.Millisecond, MaxDelay: 200 * time.Millisecond, Deadline: 30 * time.Second})))
		key2 := idempotency.NewKey()
		ids := make([]string, 20)
		var wg sync.WaitGroup
		for i := range ids {
			wg.Go(func() {
				p, err := retrying.CreatePayment(withKey(key2), &paymentspb.CreatePaymentRequest{Amount: 1, Currency: "USD"})
				if err != nil {
					t.Errorf("concurrent call %d: %v", i, err)
				}
				ids[i] = p.GetId()
			})
		}
		wg.Wait()
		for _, id := range ids {
			if id != ids[0] || id == "" {
				t.Fatalf("concurrent calls got payments %q, want one", ids)
			}
		}
		// Same key, another request: FAILED_PRECONDITION.
		if _, err := plain.CreatePayment(withKey(key), &paymentspb.CreatePaymentRequest{Amount: 1251, Currency: "EUR"}); status.Code(err) != codes.FailedPrecondition {
			t.Fatalf("other request: %v, want FAILED_PRECONDITION", err)
		}
		// An invalid payment is a final answer: stored, replayed.
		bad := idempotency.NewKey()
		_, err1 := plain.CreatePayment(withKey(bad), &paymentspb.CreatePaymentRequest{Amount: -5, Currency: "EUR"})
		h = nil
		_, err2 := plain.CreatePayment(withKey(bad), &paymentspb.CreatePaymentRequest{Amount: -5, Currency: "EUR"}, grpc.Header(&h))
		if status.Code(err1) != codes.InvalidArgument || status.Code(err2) != codes.InvalidArgument || len(h.Get(grpcidem.ReplayedHeader)) != 1 {
			t.Fatalf("invalid: %v, then %v (header %v); want INVALID_ARGUMENT, replayed", err1, err2, h)
		}
		// No key: INVALID_ARGUMENT, nothing done.
		if _, err := plain.CreatePayment(context.Background(), req); status.Code(err) != codes.InvalidArgument {
			t.Fatalf("no key: %v, want INVALID_ARGUMENT", err)
		}
		// Two tenants, same key: two payments.
		key3 := idempotency.NewKey()
		a, err := plain.CreatePayment(withKey(key3, accountMetadata, "alice"), req)
		if err != nil || a.GetAccount() != "alice" {
			t.Fatalf("alice: %v, %v", a, err)
		}
		b, err := plain.CreatePayment(withKey(key3, accountMetadata, "bob"), req)
		if err != nil || b.GetAccount() != "bob" || b.GetId() == a.GetId() {
			t.Fatalf("bob: %v, %v; want a payment of his own", b, err)
		}
		// The same store as HTTP: the gRPC call's key, sent over HTTP with a JSON body, is another request.
		r, _ := post(t, http.DefaultClient, d.base, key, `{"amount":1250,"currency":"EUR"}`)
		if r.status != http.StatusUnprocessableEntity {
			t.Fatalf("the gRPC key over HTTP: %d %s, want 422 (same store, another request)", r.status, r.body)
		}
		// The same payments and outbox: four payments, four receipts.
		if n := count(t, d.base); n != 4 {
			t.Fatalf("count = %d, want 4", n)
		}
		relayAll(t, d)
		if n := receiptCount(t, d.base); n != 4 {
			t.Fatalf("receipts = %d, want 4", n)
		}
	})
}

// "idemdemo pay" against the in-process server: a new payment, then with -key the same payment replayed.
func TestDemoPayCommand(t *testing.T) {
	d := memoryDemo(t, 0)
	pay := func(args ...string) map[string]any {
		t.Helper()
		var out bytes.Buffer
		if err := runPay(append([]string{"-grpc-addr", d.grpcAddr}, args...), &out); err != nil {
			t.Fatalf("pay %q: %v", args, err)
		}
		var m map[string]any
		if err := json.Unmarshal(out.Bytes(), &m); err != nil {
			t.Fatalf("pay output %q: %v", out.String(), err)
		}
		return m
	}
	// Without -key, each run is a logical call of its own: two runs, two payments. (The first goes through
	// the command line's dispatch, and prints to stdout.)
	if err := run([]string{"pay", "-grpc-addr", d.grpcAddr, "-amount", "700"}); err != nil {
		t.Fatal(err)
	}
	pay("-amount", "700")
	if n := count(t, d.base); n != 2 {
		t.Fatalf("count = %d after two runs without -key, want 2", n)
	}
	first := pay("-amount", "990", "-currency", "CHF", "-account", "acme", "-key", "cli-1")
	second := pay("-amount", "990", "-currency", "CHF", "-account", "acme", "-key", "cli-1")
	if first["id"] != second["id"] || first["account"] != "acme" || second["replayed"] != true {
		t.Fatalf("with -key: %v then %v; want the same payment, replayed", first, second)
	}
	if n := count(t, d.base); n != 3 {
		t.Fatalf("count = %d, want 3", n)
	}
	var out bytes.Buffer
	if err := runPay([]string{"-grpc-addr", d.grpcAddr, "-amount", "0"}, &out); status.Code(err) != codes.InvalidArgument {
		t.Fatalf("pay -amount 0: %v, want INVALID_ARGUMENT", err)
	}
}

// The binary serves gRPC on -grpc-addr, next to HTTP, and stops cleanly on SIGTERM.
func TestDemoGRPCFlag(t *testing.T) {
	t.Parallel()
	bin := buildDemo(t)
	addr, gaddr := freeAddr(t), freeAddr(t)
	cmd, log := startDemo(t, bin, "-addr", addr, "-grpc-addr", gaddr, "-store", "memory")
	client := paymentsClient(t, gaddr)
	key := idempotency.NewKey()
	for range 2 {
		if _, err := client.CreatePayment(withKey(key), &paymentspb.CreatePaymentRequest{Amount: 5, Currency: "EUR"}); err != nil {
			t.Fatalf("CreatePayment: %v\n%s", err, log.String())
		}
	}
	if n := count(t, "http://"+addr); n != 1 {
		t.Fatalf("count = %d, want 1", n)
	}
	stopDemo(t, cmd, log)
}
