// Package jobs: keys minted in job handlers are jobretry's findings, not
// keyinloop's; a retry loop inside a handler is still keyinloop's.
package jobs

import (
	"context"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

func Register(mux *asynq.ServeMux) {
	mux.HandleFunc("order:charge", charge)
	mux.HandleFunc("order:refund", refund)
}

// A fresh key per run of the handler: jobretry reports it, keyinloop does not.
func charge(ctx context.Context, t *asynq.Task) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://pay.example.com/charges", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", uuid.NewString())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// A retry loop inside the handler that mints its key per attempt.
func refund(ctx context.Context, t *asynq.Task) error {
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://pay.example.com/refunds", nil)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", uuid.NewString()) // want `uuid\.NewString mints a new key for the Idempotency-Key header on every attempt`
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return nil
}
