// Package jobs holds job handlers, activities and producers done right:
// keys derived from the job's identity, upserts, and messages published
// with an id set once per logical message.
package jobs

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/retry"
	"github.com/nats-io/nats.go/jetstream"
	amqp "github.com/rabbitmq/amqp091-go"
	"github.com/riverqueue/river"
	"github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/paymentintent"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/worker"
)

var db *sql.DB

const schema = `
CREATE TABLE shipments (order_id text PRIMARY KEY, carrier text);
CREATE TABLE invoices (id bigserial PRIMARY KEY, job_id bigint UNIQUE, amount bigint);`

// ShipArgs are the arguments of a shipping job.
type ShipArgs struct{ OrderID string }

// Kind names the job.
func (ShipArgs) Kind() string { return "ship" }

// ShipWorker ships an order once: the shipment row is keyed by the order.
type ShipWorker struct {
	river.WorkerDefaults[ShipArgs]
}

// Work inserts the shipment keyed by its order and skips a second insert.
//
// lookalike jobretry passes/jobretry/testdata/src/riverjobs/riverjobs.go: a river worker's INSERT with no key
func (w *ShipWorker) Work(ctx context.Context, job *river.Job[ShipArgs]) error {
	_, err := db.ExecContext(ctx, `INSERT INTO shipments (order_id, carrier) VALUES ($1, $2) ON CONFLICT (order_id) DO NOTHING`, job.Args.OrderID, "ups")
	return err
}

// InvoiceArgs are the arguments of an invoicing job.
type InvoiceArgs struct{ Amount int64 }

// Kind names the job.
func (InvoiceArgs) Kind() string { return "invoice" }

// InvoiceWorker writes an invoice keyed by the job id, and charges with a
// key derived from it.
type InvoiceWorker struct {
	river.WorkerDefaults[InvoiceArgs]
}

// Work keys both effects by job.ID.
//
// lookalike jobretry passes/jobretry/testdata/src/riverjobs/riverjobs.go: a river worker's POST without a key
func (w *InvoiceWorker) Work(ctx context.Context, job *river.Job[InvoiceArgs]) error {
	if _, err := db.ExecContext(ctx, `INSERT INTO invoices (job_id, amount) VALUES ($1, $2) ON CONFLICT (job_id) DO NOTHING`, job.ID, job.Args.Amount); err != nil {
		return err
	}
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(job.Args.Amount)}
	params.SetIdempotencyKey(idempotency.Derive(strconv.FormatInt(job.ID, 10), "charge"))
	_, err := paymentintent.New(params)
	return err
}

// RegisterActivities registers the package's Temporal activities.
func RegisterActivities(w worker.Worker) {
	w.RegisterActivity(ChargeActivity)
}

// ChargeActivity keys the charge by the workflow and activity ids, the
// same on every retry of the activity.
//
// lookalike jobretry passes/jobretry/testdata/src/temporaljobs: a fresh key in a Temporal activity
func ChargeActivity(ctx context.Context, amount int64) error {
	info := activity.GetInfo(ctx)
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(amount)}
	params.IdempotencyKey = stripe.String(fmt.Sprintf("%s/%s:charge", info.WorkflowExecution.ID, info.ActivityID))
	_, err := paymentintent.New(params)
	return err
}

// EnqueueWelcome enqueues a task whose id is derived from the user: a
// second enqueue of the same welcome is refused by asynq.
//
// lookalike keyinloop passes/keyinloop/testdata/src/jobs: a task id minted in a retry loop
func EnqueueWelcome(ctx context.Context, c *asynq.Client, userID string) error {
	task := asynq.NewTask("email:welcome", []byte(userID))
	id := "welcome:" + userID
	return retry.Do(ctx, retry.Policy{MaxAttempts: 3, Deadline: 5 * time.Second}, func(ctx context.Context) error {
		_, err := c.EnqueueContext(ctx, task, asynq.TaskID(id), asynq.MaxRetry(5))
		return err
	})
}

// PublishOrder publishes to JetStream with a message id set once above
// the retry: the stream dedupes a second publish.
//
// lookalike keyinloop,unkeyedpost nats-js-publish-noresponders: a JetStream publish retried
func PublishOrder(ctx context.Context, js jetstream.JetStream, order []byte) error {
	id := uuid.NewString()
	return retry.Do(ctx, retry.Policy{MaxAttempts: 4, Deadline: 10 * time.Second}, func(ctx context.Context) error {
		_, err := js.Publish(ctx, "orders", order, jetstream.WithMsgID(id))
		return err
	})
}

// Forward publishes with the incoming key, derived, as the message id.
//
// lookalike keyprop passes/keyprop/testdata/src/jsdirect: a JetStream publish from a keyed handler with no Nats-Msg-Id
func Forward(js jetstream.JetStream) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		key := r.Header.Get("Idempotency-Key")
		if _, err := js.Publish(r.Context(), "orders", []byte("x"), jetstream.WithMsgID(idempotency.Derive(key, "order"))); err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		w.WriteHeader(http.StatusAccepted)
	}
}

// PublishAMQP publishes with a MessageId set once above the retry, so a
// consumer's inbox dedupes the republish.
//
// lookalike keyinloop,nojitter amqpcommon-retry-nojitter: a publish retried after a constant wait
func PublishAMQP(ctx context.Context, ch *amqp.Channel, body []byte) error {
	msg := amqp.Publishing{ContentType: "application/json", MessageId: uuid.NewString(), Body: body}
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = ch.PublishWithContext(ctx, "orders", "created", false, false, msg); err == nil {
			return nil
		}
		time.Sleep(retry.Jitter(200 * time.Millisecond << attempt))
	}
	return err
}
