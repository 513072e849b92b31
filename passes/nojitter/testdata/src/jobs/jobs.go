// Package jobs: job handlers wait as their framework decides (asynq and river jitter;
// Temporal's policy is not visible), and are retry scopes with their
// framework's cap (Temporal's unlimited default is bounded by timeouts the
// workflow sets, which the model cannot see). None is reported: nojitter
// runs over this package, and unboundedretry borrows it (its
// testdata/borrow.txt).
package jobs

import (
	"context"

	"github.com/hibiken/asynq"
	"go.temporal.io/sdk/worker"
)

func send(context.Context) error { return nil }

func Register(mux *asynq.ServeMux, w worker.Worker) {
	mux.HandleFunc("email:welcome", welcome)
	w.RegisterActivity(Notify)
}

func welcome(ctx context.Context, t *asynq.Task) error { return send(ctx) }

func Notify(ctx context.Context, to string) error { return send(ctx) }
