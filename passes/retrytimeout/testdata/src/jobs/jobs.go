// Package jobs: a job handler's framework retries it, so an HTTP call with
// no timeout in it keeps the retry from ever coming.
package jobs

import (
	"context"
	"net/http"
	"time"

	"github.com/hibiken/asynq"
)

func Register(mux *asynq.ServeMux) {
	mux.HandleFunc("report:fetch", fetch)
	mux.HandleFunc("report:fetch-bounded", fetchBounded)
}

func fetch(ctx context.Context, t *asynq.Task) error {
	resp, err := http.Get("https://reports.example.com/daily") // want `http\.Get in a retry can hang: no client Timeout, no context deadline`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

var client = &http.Client{Timeout: 10 * time.Second}

func fetchBounded(ctx context.Context, t *asynq.Task) error {
	resp, err := client.Get("https://reports.example.com/daily")
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
