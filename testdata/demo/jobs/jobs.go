// Package jobs holds the demo's background jobs: asynq retries a failed
// task 25 times by default, so every side effect here must be keyed.
package jobs

import (
	"context"
	"database/sql"
	"net/http"
	"strings"

	"github.com/hibiken/asynq"
)

// Register routes the demo's tasks.
func Register(mux *asynq.ServeMux, db *sql.DB, c *http.Client) {
	mux.HandleFunc("receipt:send", func(ctx context.Context, t *asynq.Task) error {
		return sendReceipt(ctx, db, c, t)
	})
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
