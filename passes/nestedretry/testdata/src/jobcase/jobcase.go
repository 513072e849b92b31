// Package jobcase: retries written inside job handlers, which their
// framework retries already.
package jobcase

import (
	"context"
	"time"

	"github.com/hibiken/asynq"
	"github.com/riverqueue/river"
	stripe "github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/paymentintent"
	"go.temporal.io/sdk/worker"
)

func send(context.Context) error { return nil }

func Register(mux *asynq.ServeMux) {
	mux.HandleFunc("email:welcome", welcome)
	mux.HandleFunc("order:charge", charge)
	mux.HandleFunc("order:ship", ship)
}

func welcome(ctx context.Context, t *asynq.Task) error {
	for i := 0; i < 3; i++ { // want `retry loop \(3 attempts\) inside asynq handler welcome \(26 attempts\), up to 26×3 = 78 calls; retry in one layer only: drop the inner retry and let asynq retry the task, or enqueue the task with asynq.MaxRetry\(0\) and keep the inner retry`
		if err := send(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return nil
}

// A client that retries by itself by default (stripe-go) inside a handler
// is not reported: its retries are everywhere, keyed, and short.
func charge(ctx context.Context, t *asynq.Task) error {
	_, err := paymentintent.New(&stripe.PaymentIntentParams{})
	return err
}

// The handler reaches a retry loop through a helper.
func ship(ctx context.Context, t *asynq.Task) error {
	return sendWithRetry(ctx) // want `call to jobcase.sendWithRetry reaches retry loop \(5 attempts\) inside asynq handler ship \(26 attempts\)`
}

func sendWithRetry(ctx context.Context) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = send(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

type PingArgs struct{}

func (PingArgs) Kind() string { return "ping" }

type PingWorker struct {
	river.WorkerDefaults[PingArgs]
}

func (w *PingWorker) Work(ctx context.Context, job *river.Job[PingArgs]) error { // want Work:`retries\(retry loop, 2 attempts, in \(\*jobcase.PingWorker\).Work\)`
	for i := 0; i < 2; i++ { // want `retry loop \(2 attempts\) inside river worker Work \(25 attempts\), up to 25×2 = 50 calls; retry in one layer only: drop the inner retry and let river retry the job`
		if err := send(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return nil
}

func RegisterActivities(w worker.Worker) {
	w.RegisterActivity(Notify)
}

func Notify(ctx context.Context, to string) error { // want Notify:`retries\(retry loop, 3 attempts, in jobcase.Notify\)`
	for i := 0; i < 3; i++ { // want `retry loop \(3 attempts\) inside Temporal activity Notify \(no attempt cap\); retry in one layer only: drop the inner retry and let Temporal retry the activity`
		if err := send(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return nil
}
