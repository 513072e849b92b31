// Package asynqoff enqueues its task with retries disabled: its handler is
// not reported.
package asynqoff

import (
	"bytes"
	"context"
	"net/http"

	"github.com/hibiken/asynq"
)

func Enqueue(c *asynq.Client, body []byte) error {
	task := asynq.NewTask("notify:once", body)
	_, err := c.Enqueue(task, asynq.MaxRetry(0))
	return err
}

func Enqueue2(c *asynq.Client, body []byte) error {
	_, err := c.Enqueue(asynq.NewTask("notify:retried", body, asynq.MaxRetry(3)))
	return err
}

func Register(mux *asynq.ServeMux) {
	mux.HandleFunc("notify:once", notifyOnce)
	mux.HandleFunc("notify:retried", notifyRetried)
}

func notifyOnce(ctx context.Context, t *asynq.Task) error {
	_, err := http.Post("https://api.example.com/notify", "application/json", bytes.NewReader(t.Payload()))
	return err
}

func notifyRetried(ctx context.Context, t *asynq.Task) error {
	_, err := http.Post("https://api.example.com/notify", "application/json", bytes.NewReader(t.Payload())) // want `POST sends no idempotency key in an asynq handler \(25 retries\)`
	return err
}
