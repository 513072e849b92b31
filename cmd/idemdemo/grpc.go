package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/idemlint/idemlint/cmd/idemdemo/paymentspb"
	"github.com/idemlint/idemlint/runtime/grpcidem"
	"github.com/idemlint/idemlint/runtime/grpcretry"
	"github.com/idemlint/idemlint/runtime/retry"
)

// accountMetadata is the gRPC form of the X-Account header: the tenant of a call.
const accountMetadata = "x-account"

// accountOfCall is the tenant of a gRPC call: its x-account metadata, or the default tenant.
func accountOfCall(ctx context.Context) string {
	if v := metadata.ValueFromIncomingContext(ctx, accountMetadata); len(v) > 0 && v[0] != "" {
		return v[0]
	}
	return "default"
}

// newGRPCServer serves payments.v1.Payments on cfg's store, payments and outbox: a payment made over gRPC is
// the same as one made over HTTP (same tenant scopes, same receipts), keyed by the idempotency-key metadata.
func newGRPCServer(cfg serverConfig) *grpc.Server {
	logger := cfg.log
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	srv := grpc.NewServer(grpc.ChainUnaryInterceptor(grpcidem.UnaryServerInterceptor(cfg.store,
		grpcidem.WithScope(func(ctx context.Context, _ string) (string, error) { return accountOfCall(ctx), nil }),
		grpcidem.WithLease(cfg.lease),
		grpcidem.WithErrorHandler(func(ctx context.Context, err error) { logger.Warn("idempotency store", "error", err) }),
	)))
	paymentspb.RegisterPaymentsServer(srv, &paymentsServer{cfg: &cfg, log: logger})
	return srv
}

type paymentsServer struct {
	paymentspb.UnimplementedPaymentsServer
	cfg *serverConfig
	log *slog.Logger
}

func (s *paymentsServer) CreatePayment(ctx context.Context, in *paymentspb.CreatePaymentRequest) (*paymentspb.Payment, error) {
	p, perr := s.cfg.createPayment(ctx, s.log, accountOfCall(ctx), in.GetAmount(), in.GetCurrency(), false)
	if perr != nil {
		code := codes.Internal // not stored: the key is released for a clean retry
		switch perr.kind {
		case payInvalid:
			code = codes.InvalidArgument // a final answer: stored and replayed
		case payUnavailable:
			code = codes.Unavailable
		}
		return nil, status.Error(code, perr.detail)
	}
	return &paymentspb.Payment{Id: p.ID, Account: p.Account, Amount: p.Amount, Currency: p.Currency}, nil
}

// runPay is the "pay" subcommand: a gRPC client of CreatePayment through grpcretry, which sends one
// idempotency key for the call (or -key) and retries it safely. It prints the payment as JSON.
func runPay(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("idemdemo pay", flag.ContinueOnError)
	addr := fs.String("grpc-addr", "127.0.0.1:9090", "address of idemdemo's gRPC server")
	amount := fs.Int64("amount", 0, "amount in minor units")
	currency := fs.String("currency", "EUR", "ISO 4217 currency")
	account := fs.String("account", "", "account (x-account metadata); empty: the default account")
	key := fs.String("key", "", "idempotency key; empty: a new one for this call")
	timeout := fs.Duration("timeout", 10*time.Second, "deadline of the call, retries included")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cc, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithChainUnaryInterceptor(grpcretry.UnaryClientInterceptor(retry.Policy{AttemptTimeout: 5 * time.Second})))
	if err != nil {
		return err
	}
	defer cc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	if *key != "" {
		ctx = metadata.AppendToOutgoingContext(ctx, grpcidem.KeyMetadata, *key)
	}
	if *account != "" {
		ctx = metadata.AppendToOutgoingContext(ctx, accountMetadata, *account)
	}
	var header metadata.MD
	p, err := paymentspb.NewPaymentsClient(cc).CreatePayment(ctx,
		&paymentspb.CreatePaymentRequest{Amount: *amount, Currency: *currency}, grpc.Header(&header))
	if err != nil {
		return fmt.Errorf("CreatePayment: %w", err)
	}
	return json.NewEncoder(stdout).Encode(map[string]any{
		"id": p.GetId(), "account": p.GetAccount(), "amount": p.GetAmount(), "currency": p.GetCurrency(),
		"replayed": len(header.Get(grpcidem.ReplayedHeader)) > 0,
	})
}
