// Package jobs holds the demo's background jobs and message consumer:
// asynq retries a failed task 25 times by default, and RabbitMQ redelivers
// a delivery that was not acked (a crash, a closed channel), so every side
// effect here must be keyed or deduplicated on the message id.
package jobs

import (
	"bytes"
	"context"
	"database/sql"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/hibiken/asynq"
	amqp "github.com/rabbitmq/amqp091-go"
)

// Register routes the demo's tasks.
func Register(mux *asynq.ServeMux, db *sql.DB, c *http.Client) {
	mux.HandleFunc("receipt:send", func(ctx context.Context, t *asynq.Task) error {
		return sendReceipt(ctx, db, c, t)
	})
	mux.HandleFunc("ledger:sync", func(ctx context.Context, t *asynq.Task) error {
		return syncLedger(ctx, c)
	})
}

// syncLedger retries inside a task that asynq retries already: a ledger
// outage turns one task into 26 × 5 = 130 calls.
func syncLedger(ctx context.Context, c *http.Client) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		req, rerr := http.NewRequestWithContext(ctx, http.MethodGet, "https://ledger.example.com/sync", nil)
		if rerr != nil {
			return rerr
		}
		resp, derr := c.Do(req)
		if derr == nil {
			return resp.Body.Close()
		}
		err = derr
		time.Sleep(rand.N(time.Duration(attempt+1) * time.Second)) // jittered
	}
	return err
}

// sendReceipt repeats both of its effects on every retry: the notification
// POST carries no key, and the INSERT has nothing that makes it idempotent.
func sendReceipt(ctx context.Context, db *sql.DB, c *http.Client, t *asynq.Task) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://notify.example.com/send", strings.NewReader(string(t.Payload())))
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	_, err = db.ExecContext(ctx, "INSERT INTO receipts_sent (body) VALUES ($1)", t.Payload())
	return err
}

// Notify posts each order event to a webhook and acks it after the work:
// at least once, so a redelivered event posts twice.
func Notify(ctx context.Context, ch *amqp.Channel, c *http.Client) error {
	deliveries, err := ch.Consume("orders", "notify", false, false, false, false, nil)
	if err != nil {
		return err
	}
	for d := range deliveries {
		resp, err := c.Post("https://hooks.example.com/orders", "application/json", bytes.NewReader(d.Body))
		if err != nil {
			_ = d.Nack(false, true)
			continue
		}
		resp.Body.Close()
		_ = d.Ack(false)
	}
	return nil
}
