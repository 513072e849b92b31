// Command idemdemo is a small payments service built on the
// runtime/idempotency middleware, to try the middleware by hand and to test
// it end to end (crash, restart, retry).
//
//	POST /payments        {"amount": 1250, "currency": "EUR"} -> 201 with the payment
//	GET  /payments/count  -> {"count": N}, all payments of the service
//
// POST requires an Idempotency-Key header. The tenant is the X-Account
// header (absent: the default tenant). With -store postgres the payment row
// is inserted in the same transaction as the idempotency completion.
//
// Usage:
//
//	idemdemo [-addr 127.0.0.1:8080] [-store memory|postgres] [-dsn URL]
//	         [-lock-ttl 30s] [-work-delay 0]
//
// It stops cleanly on SIGTERM or SIGINT.
package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
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
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()

	var (
		store    idempotency.Store
		payments paymentStore
		reap     func(context.Context) (int, error)
	)
	switch *storeKind {
	case "memory":
		ms := idempotency.NewMemoryStore()
		store, payments, reap = ms, newMemoryPayments(), ms.Reap
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
		store, payments = ps, pp
		reap = func(ctx context.Context) (int, error) { return ps.Reap(ctx, 1000) }
	default:
		return fmt.Errorf("unknown -store %q (want memory or postgres)", *storeKind)
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	srv := &http.Server{
		Handler:           newServer(store, payments, *lockTTL, *workDelay),
		ReadHeaderTimeout: 10 * time.Second,
	}
	go reapLoop(ctx, reap)
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
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// reapLoop removes expired keys every ten minutes.
func reapLoop(ctx context.Context, reap func(context.Context) (int, error)) {
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
		}
	}
}
