// Package temporaloff runs its activities with a single attempt: not reported.
package temporaloff

import (
	"context"
	"net/http"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

var opts = workflow.ActivityOptions{
	StartToCloseTimeout: time.Minute,
	RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
}

func Register(w worker.Worker) { w.RegisterActivity(Send) }

func Send(ctx context.Context) error {
	_, err := http.Post("https://api.example.com/x", "text/plain", nil)
	return err
}
