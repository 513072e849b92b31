package temporaljobs

import (
	"context"
	"net/http"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/worker"

	"github.com/google/uuid"
	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/paymentintent"
)

func Register(w worker.Worker) {
	w.RegisterActivity(Charge)
	w.RegisterActivity(&Activities{})
	w.RegisterActivity(ChargeKeyed)
	refunds := &Refunds{}
	w.RegisterActivityWithOptions(refunds.Refund, activity.RegisterOptions{Name: "refund"})
}

type Refunds struct{}

func (r *Refunds) Refund(ctx context.Context, id string) error {
	_, err := http.Post("https://api.example.com/refunds/"+id, "text/plain", nil) // want `POST sends no idempotency key in a Temporal activity`
	return err
}

// Other is a method of Refunds, which is registered only through Refund.
func (r *Refunds) Other(ctx context.Context) error {
	_, err := http.Post("https://api.example.com/other", "text/plain", nil)
	return err
}

func Charge(ctx context.Context, amount int64) error {
	params := &stripe.PaymentIntentParams{
		Amount: stripe.Int64(amount),
	}
	params.IdempotencyKey = stripe.String(uuid.NewString()) // want `field IdempotencyKey is new on every run in a Temporal activity; key by the activity id via idempotency\.Derive`
	_, err := paymentintent.New(params)
	return err
}

func ChargeKeyed(ctx context.Context, amount int64) error {
	info := activity.GetInfo(ctx)
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(amount)}
	params.SetIdempotencyKey(idempotency.Derive(info.WorkflowExecution.ID+"/"+info.ActivityID, "charge"))
	_, err := paymentintent.New(params)
	return err
}

type Activities struct{ client *http.Client }

func (a *Activities) Notify(ctx context.Context, to string) error {
	_, err := a.client.Post("https://api.example.com/notify", "text/plain", nil) // want `POST sends no idempotency key in a Temporal activity`
	return err
}

// helper is unexported: not an activity of the registered struct.
func (a *Activities) helper(ctx context.Context) error {
	_, err := a.client.Post("https://api.example.com/helper", "text/plain", nil)
	return err
}

// NotRegistered is never registered as an activity.
func NotRegistered(ctx context.Context) error {
	_, err := http.Post("https://api.example.com/x", "text/plain", nil)
	return err
}
