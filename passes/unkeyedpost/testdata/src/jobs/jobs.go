// Package jobs: unkeyed POSTs in job handlers are jobretry's findings, not
// unkeyedpost's; a retry loop inside a handler is still unkeyedpost's.
package jobs

import (
	"context"
	"net/http"
	"time"

	"github.com/hibiken/asynq"
)

func Register(mux *asynq.ServeMux) {
	mux.HandleFunc("order:charge", charge)
	mux.HandleFunc("order:refund", refund)
}

// An unkeyed POST the framework retries: jobretry reports it, unkeyedpost does not.
func charge(ctx context.Context, t *asynq.Task) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://pay.example.com/charges", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// A retry loop inside the handler around an unkeyed POST.
func refund(ctx context.Context, t *asynq.Task) error {
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://pay.example.com/refunds", nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req) // want `POST \(\*http\.Client\)\.Do in a retry has no idempotency key`
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return nil
}
