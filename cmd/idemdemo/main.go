// Command idemdemo is a small payments service built on the
// runtime/idempotency middleware, to try the middleware by hand and to test
// it end to end (crash, restart, retry).
//
//	POST /payments                {"amount": 1250, "currency": "EUR"} -> 201 with the payment
//	GET  /payments/count          -> {"count": N}, all payments of the service
//	GET  /payments/receipts/count -> {"count": N}, distinct receipts delivered
//
// POST requires an Idempotency-Key header. The tenant is the X-Account
// header (absent: the default tenant). With -store postgres the payment row
// is inserted in the same transaction as the idempotency completion.
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
//	idemdemo [-addr 127.0.0.1:8080] [-store memory|postgres] [-dsn URL]
//	         [-lock-ttl 30s] [-work-delay 0] [-receipts FILE]
//	         [-read-header-timeout 5s] [-read-timeout 30s] [-write-timeout D]
//	         [-idle-timeout 2m] [-max-header-bytes 65536]
//
// Every error the service writes is application/problem+json (RFC 9457).
//
// It stops cleanly on SIGTERM or SIGINT.
package main

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		log.Fatalf("idemdemo: %v", err)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("idemdemo", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "listen address")
	storeKind := fs.String("store", "memory", "idempotency and payment store: memory or postgres")
	dsn := fs.String("dsn", os.Getenv("DATABASE_URL"), "PostgreSQL URL for -store postgres (default $DATABASE_URL)")
	lockTTL := fs.Duration("lock-ttl", idempotency.DefaultLease, "lease of an attempt: after it a crashed attempt's key is taken over")
	workDelay := fs.Duration("work-delay", 0, "processing time of a payment before its commit")
	receiptsFile := fs.String("receipts", "", "file that receives one line per delivered receipt (default: the log on stderr)")
	var hc httpConfig
	fs.DurationVar(&hc.readHeaderTimeout, "read-header-timeout", 5*time.Second, "time to read a request's headers")
	fs.DurationVar(&hc.readTimeout, "read-timeout", 30*time.Second, "time to read a whole request, body included")
	fs.DurationVar(&hc.writeTimeout, "write-timeout", 0, "time from the end of the headers to the end of the response (default: -lock-ttl + -work-delay + 30s)")
	fs.DurationVar(&hc.idleTimeout, "idle-timeout", 2*time.Minute, "time a keep-alive connection may stay idle")
	fs.IntVar(&hc.maxHeaderBytes, "max-header-bytes", 64<<10, "largest request header block, in bytes")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()

	var receiptLog io.Writer = logLines{}
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
	)
	switch *storeKind {
	case "memory":
		ms := idempotency.NewMemoryStore()
		store, payments, reap = ms, newMemoryPayments(), ms.Reap
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
		ps, err := idempotency.NewPostgresStore(ctx, db)
		if err != nil {
			return err
		}
		pp, err := newPostgresPayments(ctx, db)
		if err != nil {
			return err
		}
		ob, err := idempotency.NewPostgresOutbox(ctx, db)
		if err != nil {
			return err
		}
		pr, err := newPostgresReceipts(ctx, db, receiptLog)
		if err != nil {
			return err
		}
		store, payments, outbox, receipts = ps, pp, ob, pr
		reap = func(ctx context.Context) (int, error) { return ps.Reap(ctx, 1000) }
	default:
		return fmt.Errorf("unknown -store %q (want memory or postgres)", *storeKind)
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	if hc.writeTimeout == 0 {
		hc.writeTimeout = *lockTTL + *workDelay + 30*time.Second
	}
	srv := newHTTPServer(newServer(serverConfig{store: store, payments: payments, outbox: outbox, receipts: receipts,
		lease: *lockTTL, workDelay: *workDelay}), hc)
	go reapLoop(ctx, reap, outbox)
	// The relay outlives ctx: it stops after the server, once the last requests have recorded their receipts.
	relayCtx, stopRelay := context.WithCancel(context.Background())
	defer stopRelay()
	relayed := make(chan struct{})
	go func() {
		defer close(relayed)
		_ = outbox.Run(relayCtx, receipts.deliver, relayOptions) // returns relayCtx's error
	}()
	log.Printf("idemdemo: listening on http://%s (store %s, lease %s, work delay %s)", ln.Addr(), *storeKind, *lockTTL, *workDelay)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	log.Printf("idemdemo: shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = srv.Shutdown(sctx)
	stopRelay()
	<-relayed
	// A last pass for the receipts of the requests that finished during the shutdown. Those it misses
	// stay pending: delivered at the next start with postgres, lost with memory.
	for sctx.Err() == nil {
		n, err := outbox.RelayOnce(sctx, receipts.deliver, relayOptions)
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

// logLines writes each line it is given as a log line.
type logLines struct{}

func (logLines) Write(p []byte) (int, error) {
	log.Printf("idemdemo: receipt %s", bytes.TrimSpace(p))
	return len(p), nil
}

// relayOptions are the receipts relay's: failed deliveries are logged and retried later.
var relayOptions = idempotency.RelayOptions{
	OnError: func(e *idempotency.OutboxEntry, err error) {
		if e == nil {
			log.Printf("idemdemo: receipts relay: %v", err)
			return
		}
		log.Printf("idemdemo: receipt %d (payment %s): %v", e.ID, e.EntityID, err)
	},
}

// reapLoop removes expired keys every ten minutes, and the receipts
// delivered more than twice the keys' lifetime ago.
func reapLoop(ctx context.Context, reap func(context.Context) (int, error), outbox *idempotency.Outbox) {
	t := time.NewTicker(10 * time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if _, err := reap(ctx); err != nil && ctx.Err() == nil {
				log.Printf("idemdemo: reap: %v", err)
			}
			if _, err := outbox.Prune(ctx, 2*idempotency.DefaultTTL); err != nil && ctx.Err() == nil {
				log.Printf("idemdemo: prune outbox: %v", err)
			}
		}
	}
}
