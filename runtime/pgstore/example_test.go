package pgstore_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/pgstore"
	"github.com/idemlint/idemlint/runtime/retry"
)

func ExampleNewPostgresStore() {
	ctx := context.Background()
	db, err := sql.Open("pgx", "postgres://postgres@127.0.0.1:5432/test") // import _ "github.com/jackc/pgx/v5/stdlib"
	if err != nil {
		log.Fatal(err)
	}
	store, err := pgstore.NewPostgresStore(ctx, db, pgstore.WithTable("idempotency_keys"))
	if err != nil {
		log.Fatal(err)
	}
	go store.RunReaper(ctx, 10*time.Minute, 1000, func(err error) { log.Print(err) })
	http.Handle("POST /payments", idempotency.Middleware(store)(http.NotFoundHandler()))
}

func ExampleNewPostgresInbox() {
	ctx := context.Background()
	db, err := sql.Open("pgx", "postgres://postgres@127.0.0.1:5432/test") // import _ "github.com/jackc/pgx/v5/stdlib"
	if err != nil {
		log.Fatal(err)
	}
	inbox, err := pgstore.NewPostgresInbox(ctx, db)
	if err != nil {
		log.Fatal(err)
	}
	// In the consumer loop: acknowledge the message unless Consume fails.
	ran, err := inbox.Consume(ctx, "msg-0001", func(ctx context.Context) error {
		// The message id and these writes commit together.
		_, err := idempotency.Tx(ctx).ExecContext(ctx, `UPDATE orders SET status = 'paid' WHERE id = $1`, 42)
		return err
	})
	if err != nil {
		log.Print(err) // do not acknowledge: the broker redelivers, and the handler runs again
		return
	}
	fmt.Println("handler ran:", ran) // false for a redelivery; acknowledge either way
}

func ExampleNewPostgresOutbox() {
	ctx := context.Background()
	db, err := sql.Open("pgx", "postgres://postgres@127.0.0.1:5432/test") // import _ "github.com/jackc/pgx/v5/stdlib"
	if err != nil {
		log.Fatal(err)
	}
	outbox, err := pgstore.NewPostgresOutbox(ctx, db)
	if err != nil {
		log.Fatal(err)
	}
	// In a transaction of your own (under Middleware with PostgresStore, r.Context() already carries one).
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE orders SET status = 'paid' WHERE id = $1`, 42); err != nil {
		log.Fatal(err)
	}
	err = outbox.Add(idempotency.ContextWithTx(ctx, tx), idempotency.OutboxMessage{
		Kind: "email.receipt", EntityID: "order-42", Key: "pay-42", Payload: []byte(`{"to":"a@example.com"}`)})
	if err != nil {
		log.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		log.Fatal(err)
	}

	// The relay, in the background of every instance: delivery at least once, with retries.
	mailer := func(ctx context.Context, e idempotency.OutboxEntry) error {
		// Send e.ID as the provider's idempotency key so that a second delivery is dropped.
		return sendMail(ctx, fmt.Sprint(e.ID), e.Payload)
	}
	go outbox.Run(ctx, mailer, idempotency.RelayOptions{
		Policy: retry.Policy{Breaker: retry.NewBreaker(retry.BreakerConfig{Name: "mailer"})},
	})
}

func sendMail(ctx context.Context, key string, payload []byte) error {
	return errors.New("not in this example")
}
