// Package jobs holds the demo's background jobs: asynq retries a failed
// task 25 times by default, so every side effect here must be keyed.
package jobs

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/hibiken/asynq"
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
