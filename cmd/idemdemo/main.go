// Command idemdemo is a small payments service built on the
// runtime/idempotency middleware, to try the middleware by hand and to test
// it end to end (crash, restart, retry).
//
//	POST /payments                {"amount": 1250, "currency": "EUR"} -> 201 with the payment
//	GET  /payments/count          -> {"count": N}, all payments of the service
//	GET  /payments/receipts/count -> {"count": N}, distinct receipts delivered
//
//	GET  /healthz                 -> 200 while the process runs
//	GET  /readyz                  -> 200 when the idempotency store answers, else 503
//	GET  /metrics                 -> Prometheus metrics (client_golang): requests by outcome, store latency,
//	                                 receipt deliveries, retry events, breaker state
//
// POST requires an Idempotency-Key header. The tenant is the X-Account
// header (absent: the default tenant). With -store postgres the payment row
// is inserted in the same transaction as the idempotency completion. With
// -store redis the keys live in Redis and the payments and the outbox in
// the process's memory (a demo of the store, not of a Redis ledger).
//
// Each payment records a receipt ("email.receipt") in an outbox, in the
// payment's unit of work, keyed by the payment and the Idempotency-Key: a
// retried request records no second receipt, a failed attempt none. A
// relay delivers the receipts at least once to the receipts log, which
// drops a second delivery by the outbox entry id: one line in the -receipts
// file (default: the log on stderr) and, with -store postgres, one row of
// the receipts table.
//
// Usage:
//
//	idemdemo [-addr 127.0.0.1:8080] [-grpc-addr 127.0.0.1:9090] [-store memory|postgres|redis] [-dsn URL]
//	         [-redis-addr 127.0.0.1:6379] [-redis-prefix idem] [-max-keys 100000]
//	         [-log-level info]
//	         [-lock-ttl 30s] [-work-delay 0] [-receipts FILE]
//	         [-read-header-timeout 5s] [-read-timeout 30s] [-write-timeout D]
//	         [-idle-timeout 2m] [-max-header-bytes 65536]
//
// With -grpc-addr it also serves the same payments over gRPC, payments.v1.Payments/CreatePayment
// (paymentspb/payments.proto), on the same store, payments and outbox, through runtime/grpcidem: the key is
// the idempotency-key metadata, the tenant the x-account metadata. "idemdemo pay" is a client of it,
// through runtime/grpcretry:
//
//	idemdemo pay [-grpc-addr 127.0.0.1:9090] -amount 1250 [-currency EUR] [-account A] [-key K] [-timeout 10s]
//
// Every error the service writes is application/problem+json (RFC 9457).
//
// It logs with log/slog (text, on stderr) and stops cleanly on SIGTERM or
// SIGINT.
package main

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/redis/go-redis/v9"
	"google.golang.org/grpc"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/pgstore"
	"github.com/idemlint/idemlint/runtime/redisstore"
	"github.com/idemlint/idemlint/runtime/retry"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "idemdemo: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) > 0 && args[0] == "pay" {
		return runPay(args[1:], os.Stdout)
	}
	fs := flag.NewFlagSet("idemdemo", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "listen address")
	grpcAddr := fs.String("grpc-addr", "", "listen address of the gRPC server (payments.v1.Payments); empty: none")
	storeKind := fs.String("store", "memory", "idempotency store: memory, postgres (payments and outbox too) or redis")
	dsn := fs.String("dsn", os.Getenv("DATABASE_URL"), "PostgreSQL URL for -store postgres (default $DATABASE_URL)")
	redisAddr := fs.String("redis-addr", "127.0.0.1:6379", "Redis address for -store redis")
	redisPrefix := fs.String("redis-prefix", "idem", "prefix of the Redis keys for -store redis")
	maxKeys := fs.Int("max-keys", idempotency.DefaultMaxEntries, "capacity of the memory store (-store memory): once full of live keys it answers 503")
	lockTTL := fs.Duration("lock-ttl", idempotency.DefaultLease, "lease of an attempt: after it a crashed attempt's key is taken over")
	workDelay := fs.Duration("work-delay", 0, "processing time of a payment before its commit")
	receiptsFile := fs.String("receipts", "", "file that receives one line per delivered receipt (default: the log on stderr)")
	logLevel := fs.String("log-level", "info", "log level: debug (one line per request), info, warn or error")
	var hc httpConfig
	fs.DurationVar(&hc.readHeaderTimeout, "read-header-timeout", 5*time.Second, "time to read a request's headers")
	fs.DurationVar(&hc.readTimeout, "read-timeout", 30*time.Second, "time to read a whole request, body included")
	fs.DurationVar(&hc.writeTimeout, "write-timeout", 0, "time from the end of the headers to the end of the response (default: -lock-ttl + -work-delay + 30s)")
	fs.DurationVar(&hc.idleTimeout, "idle-timeout", 2*time.Minute, "time a keep-alive connection may stay idle")
	fs.IntVar(&hc.maxHeaderBytes, "max-header-bytes", 64<<10, "largest request header block, in bytes")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		return fmt.Errorf("-log-level: %w", err)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()

	var receiptLog io.Writer = logLines{logger}
	if *receiptsFile != "" {
		f, err := os.OpenFile(*receiptsFile, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return fmt.Errorf("receipts file: %w", err)
		}
		defer f.Close()
		receiptLog = f
	}

	var (
		store    idempotency.Store
		payments paymentStore
		outbox   *idempotency.Outbox
		receipts receiptSink
		reap     func(context.Context) (int, error)
		ready    func(context.Context) error
	)
	switch *storeKind {
	case "memory":
		ms := idempotency.NewMemoryStore(idempotency.WithMaxEntries(*maxKeys))
		store, payments, reap = ms, newMemoryPayments(), ms.Reap
		outbox, receipts = idempotency.NewMemoryOutbox(), newLogReceipts(receiptLog)
	case "redis":
		rdb := redis.NewClient(&redis.Options{Addr: *redisAddr, DialTimeout: 2 * time.Second,
			ReadTimeout: 2 * time.Second, WriteTimeout: 2 * time.Second})
		defer rdb.Close()
		rs, err := redisstore.NewRedisStore(rdb, redisstore.WithRedisPrefix(*redisPrefix))
		if err != nil {
			return err
		}
		if err := rs.Ping(ctx); err != nil {
			return err
		}
		store, payments, ready = rs, newMemoryPayments(), rs.Ping
		reap = func(context.Context) (int, error) { return 0, nil } // keys expire in Redis
		outbox, receipts = idempotency.NewMemoryOutbox(), newLogReceipts(receiptLog)
	case "postgres":
		if *dsn == "" {
			return errors.New("-store postgres needs -dsn or $DATABASE_URL")
		}
		db, err := sql.Open("pgx", *dsn)
		if err != nil {
			return fmt.Errorf("open database: %w", err)
		}
		defer db.Close()
		db.SetMaxOpenConns(20)
		db.SetMaxIdleConns(20)
		ps, err := pgstore.NewPostgresStore(ctx, db)
		if err != nil {
			return err
		}
		pp, err := newPostgresPayments(ctx, db)
		if err != nil {
			return err
		}
		ob, err := pgstore.NewPostgresOutbox(ctx, db)
		if err != nil {
			return err
		}
		pr, err := newPostgresReceipts(ctx, db, receiptLog)
		if err != nil {
			return err
		}
		store, payments, outbox, receipts, ready = ps, pp, ob, pr, ps.Ping
		reap = func(ctx context.Context) (int, error) { return ps.Reap(ctx, 1000) }
	default:
		return fmt.Errorf("unknown -store %q (want memory, postgres or redis)", *storeKind)
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	if hc.writeTimeout == 0 {
		hc.writeTimeout = *lockTTL + *workDelay + 30*time.Second
	}
	// The relay is the one retry layer of the receipts: its Policy retries a delivery (observed for
	// /metrics) through a circuit breaker, so that while the receipts log keeps failing a pass stops fast
	// and the entries wait for a later one.
	breaker := retry.NewBreaker(retry.BreakerConfig{Name: "receipts"})
	m := newMetrics(breaker)
	deliver := func(ctx context.Context, e idempotency.OutboxEntry) error {
		err := receipts.deliver(ctx, e)
		m.delivered(err)
		return err
	}
	scfg := serverConfig{store: store, payments: payments, outbox: outbox, receipts: receipts,
		lease: *lockTTL, workDelay: *workDelay, log: logger, metrics: m, ready: ready}
	srv := newHTTPServer(newServer(scfg), hc)
	srv.ErrorLog = slog.NewLogLogger(logger.Handler(), slog.LevelWarn)
	relay := relayOptions(logger)
	relay.Policy = retry.Policy{MaxAttempts: 3, BaseDelay: 50 * time.Millisecond, Deadline: 2 * time.Second,
		Breaker: breaker, Observe: m.observeRetry}
	go reapLoop(ctx, logger, reap, outbox)
	// The relay outlives ctx: it stops after the server, once the last requests have recorded their receipts.
	relayCtx, stopRelay := context.WithCancel(context.Background())
	defer stopRelay()
	relayed := make(chan struct{})
	go func() {
		defer close(relayed)
		_ = outbox.Run(relayCtx, deliver, relay) // returns relayCtx's error
	}()
	logger.Info("listening", "url", "http://"+ln.Addr().String(), "store", *storeKind, "lease", *lockTTL,
		"work_delay", *workDelay, "read_timeout", hc.readTimeout, "write_timeout", hc.writeTimeout)
	errc := make(chan error, 2)
	go func() { errc <- srv.Serve(ln) }()
	var gsrv *grpc.Server
	if *grpcAddr != "" {
		gln, err := net.Listen("tcp", *grpcAddr)
		if err != nil {
			return fmt.Errorf("listen: %w", err)
		}
		gsrv = newGRPCServer(scfg)
		logger.Info("listening", "grpc", gln.Addr().String())
		go func() { errc <- gsrv.Serve(gln) }()
	}
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	logger.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if gsrv != nil {
		stopped := make(chan struct{})
		go func() { gsrv.GracefulStop(); close(stopped) }()
		select {
		case <-stopped:
		case <-sctx.Done():
			gsrv.Stop()
		}
	}
	err = srv.Shutdown(sctx)
	stopRelay()
	<-relayed
	// A last pass for the receipts of the requests that finished during the shutdown. Those it misses
	// stay pending: delivered at the next start with postgres, lost with memory and redis.
	for sctx.Err() == nil {
		n, err := outbox.RelayOnce(sctx, deliver, relay)
		if err != nil || n == 0 {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// httpConfig is the HTTP server's limits (flags).
type httpConfig struct {
	readHeaderTimeout, readTimeout, writeTimeout, idleTimeout time.Duration
	maxHeaderBytes                                            int
}

// newHTTPServer returns the demo's server with its limits: a slow client cannot hold a connection by
// trickling headers (ReadHeaderTimeout) or a body (ReadTimeout), nor by reading the answer slowly
// (WriteTimeout), nor idle (IdleTimeout); MaxHeaderBytes bounds the header block.
func newHTTPServer(h http.Handler, c httpConfig) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: c.readHeaderTimeout,
		ReadTimeout:       c.readTimeout,
		WriteTimeout:      c.writeTimeout,
		IdleTimeout:       c.idleTimeout,
		MaxHeaderBytes:    c.maxHeaderBytes,
	}
}

// logLines writes each line it is given as a log record.
type logLines struct{ l *slog.Logger }

func (w logLines) Write(p []byte) (int, error) {
	w.l.Info("receipt", "line", string(bytes.TrimSpace(p)))
	return len(p), nil
}

// relayOptions are the receipts relay's: failed deliveries are logged and retried later.
func relayOptions(l *slog.Logger) idempotency.RelayOptions {
	return idempotency.RelayOptions{
		OnError: func(e *idempotency.OutboxEntry, err error) {
			if e == nil {
				l.Error("receipts relay", "error", err)
				return
			}
			l.Warn("receipt delivery failed", "entry", e.ID, "payment", e.EntityID, "error", err)
		},
	}
}

// reapLoop removes expired keys every ten minutes, and the receipts
// delivered more than twice the keys' lifetime ago.
func reapLoop(ctx context.Context, l *slog.Logger, reap func(context.Context) (int, error), outbox *idempotency.Outbox) {
	t := time.NewTicker(10 * time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if _, err := reap(ctx); err != nil && ctx.Err() == nil {
				l.Error("reap", "error", err)
			}
			if _, err := outbox.Prune(ctx, 2*idempotency.DefaultTTL); err != nil && ctx.Err() == nil {
				l.Error("prune outbox", "error", err)
			}
		}
	}
}
