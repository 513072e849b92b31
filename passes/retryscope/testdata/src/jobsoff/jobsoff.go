// Package jobsoff enqueues its tasks with retries disabled: its handlers
// are not retry scopes.
package jobsoff

import (
	"context"

	"github.com/hibiken/asynq"
)

func send(context.Context) error { return nil }

func Register(mux *asynq.ServeMux) {
	mux.HandleFunc("order:charge", charge)
}

func charge(ctx context.Context, t *asynq.Task) error {
	return send(ctx)
}

func Enqueue(c *asynq.Client) error {
	_, err := c.Enqueue(asynq.NewTask("order:charge", nil), asynq.MaxRetry(0))
	return err
}
