// Package jobs holds job handlers: each is a retry scope whose cap is its
// framework's default.
package jobs

import (
	"context"
	"time"

	"github.com/hibiken/asynq"
	"github.com/riverqueue/river"
	"go.temporal.io/sdk/worker"
)

func send(context.Context) error { return nil }

func Register(mux *asynq.ServeMux) {
	mux.HandleFunc("email:welcome", welcome)
	mux.HandleFunc("order:charge", func(ctx context.Context, t *asynq.Task) error { // want `job-handler cap=26 deadline=none waits=jittered body`
		return send(ctx)
	})
	mux.Handle("audit:log", &audit{})
}

func welcome(ctx context.Context, t *asynq.Task) error { // want `job-handler cap=26 deadline=none waits=jittered body`
	// A retry loop inside a handler is a scope of its own.
	for i := 0; i < 3; i++ { // want `loop cap=3 deadline=none waits=constant body`
		if err := send(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return nil
}

type audit struct{}

func (a *audit) ProcessTask(ctx context.Context, t *asynq.Task) error { // want `job-handler cap=26 deadline=none waits=jittered body`
	return send(ctx)
}

// Not registered and not shaped like a handler: no scope.
func helper(ctx context.Context) error { return send(ctx) }

type ShipArgs struct{}

func (ShipArgs) Kind() string { return "ship" }

type ShipWorker struct {
	river.WorkerDefaults[ShipArgs]
}

func (w *ShipWorker) Work(ctx context.Context, job *river.Job[ShipArgs]) error { // want `job-handler cap=25 deadline=none waits=jittered body`
	return send(ctx)
}

func RegisterActivities(w worker.Worker) {
	w.RegisterActivity(Charge)
}

func Charge(ctx context.Context, amount int64) error { // want `job-handler cap=none deadline=unknown waits=unknown body`
	return send(ctx)
}
