package idempotency_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/idemlint/idemlint/runtime/idempotency"
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
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = inbox.Consume(context.Background(), "msg-0001", charge)
		}()
	}
	wg.Wait()
	ran, err := inbox.Consume(context.Background(), "msg-0001", charge)
	fmt.Println("third delivery ran:", ran, err)
	// Output:
	// charging order 42
	// third delivery ran: false <nil>
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
