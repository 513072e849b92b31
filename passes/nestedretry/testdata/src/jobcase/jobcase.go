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
	for i := 0; i < 3; i++ { // want `retry loop \(3 attempts\) inside a retry \(26 attempts\), up to 26×3 = 78 calls; drop one layer \(asynq\.MaxRetry\(0\)\)`
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
	return sendWithRetry(ctx) // want `jobcase\.sendWithRetry reaches a retry \(5 attempts\) inside a retry \(26 attempts\); drop one layer`
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
	for i := 0; i < 2; i++ { // want `retry loop \(2 attempts\) inside a retry \(25 attempts\), up to 25×2 = 50 calls; drop one layer \(InsertOpts\{MaxAttempts: 1\}\)`
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
	for i := 0; i < 3; i++ { // want `retry loop \(3 attempts\) inside a retry \(no attempt cap\); drop one layer \(RetryPolicy MaximumAttempts: 1\)`
		if err := send(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return nil
}
