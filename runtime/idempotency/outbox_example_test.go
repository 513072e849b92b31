package idempotency_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/retry"
)

func ExampleInbox() {
	inbox := idempotency.NewMemoryInbox()
	charge := func(ctx context.Context) error {
		fmt.Println("charging order 42")
		return nil
	}
	// The broker delivers the same message three times, two of them at once.
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() { _, _ = inbox.Consume(context.Background(), "msg-0001", charge) })
	}
	wg.Wait()
	ran, err := inbox.Consume(context.Background(), "msg-0001", charge)
	fmt.Println("third delivery ran:", ran, err)
	// Output:
	// charging order 42
	// third delivery ran: false <nil>
}

func ExampleNewPostgresInbox() {
	ctx := context.Background()
	db, err := sql.Open("pgx", "postgres://postgres@127.0.0.1:5432/test") // import _ "github.com/jackc/pgx/v5/stdlib"
	if err != nil {
		log.Fatal(err)
	}
	inbox, err := idempotency.NewPostgresInbox(ctx, db)
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

func ExampleOutbox() {
	outbox := idempotency.NewMemoryOutbox()
	// The handler records the email in the same unit of work as the order: a failed attempt records none.
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		err := outbox.Add(r.Context(), idempotency.OutboxMessage{
			Kind: "email.receipt", EntityID: "order-42", Key: r.Header.Get("Idempotency-Key"),
			Payload: []byte("Thanks for order 42"),
		})
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusCreated)
	})
	srv := httptest.NewServer(idempotency.Middleware(idempotency.NewMemoryStore())(handler))
	defer srv.Close()
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/orders", strings.NewReader(`{"item":1}`))
	req.Header.Set("Idempotency-Key", "order-42-key")
	for range 2 { // a retried request: its response is replayed, no second email
		req.Body, _ = req.GetBody()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			log.Fatal(err)
		}
		resp.Body.Close()
	}

	// The relay sends pending entries at least once; the mailer drops duplicates by entry id.
	send := func(ctx context.Context, e idempotency.OutboxEntry) error {
		fmt.Printf("mail #%d: %s\n", e.ID, e.Payload)
		return nil
	}
	n, err := outbox.RelayOnce(context.Background(), send, idempotency.RelayOptions{})
	fmt.Println("delivered:", n, err)
	ok, _ := outbox.Delivered(context.Background(), "email.receipt", "order-42", "order-42-key")
	fmt.Println("receipt delivered:", ok)
	// Output:
	// mail #1: Thanks for order 42
	// delivered: 1 <nil>
	// receipt delivered: true
}

func ExampleNewPostgresOutbox() {
	ctx := context.Background()
	db, err := sql.Open("pgx", "postgres://postgres@127.0.0.1:5432/test") // import _ "github.com/jackc/pgx/v5/stdlib"
	if err != nil {
		log.Fatal(err)
	}
	outbox, err := idempotency.NewPostgresOutbox(ctx, db)
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
