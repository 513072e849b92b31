// Package consumers holds message consumers and job handlers done right in
// the shapes of the recall corpus's jobretry bugs and jobretry's test
// positives: each effect is an upsert, a guarded update, an insert keyed by
// the message's identity, keyed downstream by an id derived from it, or
// deduped in an inbox (the runtime's, or one written by hand).
package consumers

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"

	"github.com/IBM/sarama"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/hibiken/asynq"
	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/segmentio/kafka-go"
	"github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/paymentintent"
)

var db *sql.DB

var pool *pgxpool.Pool

var inbox = idempotency.NewMemoryInbox()

const schema = `
CREATE TABLE notifications (id bigserial PRIMARY KEY, user_id text, event_id text, body text);
CREATE TABLE receipts (room_id text, user_id text, event_id text, PRIMARY KEY (room_id, user_id));
CREATE TABLE presence (user_id text PRIMARY KEY, state text, updated bigint);
CREATE TABLE orders (id text PRIMARY KEY, status text);
CREATE TABLE send_to_device (message_id text PRIMARY KEY, user_id text, body text);
CREATE TABLE payouts (payout_ref text NOT NULL, amount bigint, UNIQUE (payout_ref));
CREATE TABLE events (id bigserial PRIMARY KEY, body text);`

// Receipts is a sarama handler whose write is an upsert of the receipt's
// absolute value: a redelivery rewrites the same row.
type Receipts struct{}

func (Receipts) Setup(sarama.ConsumerGroupSession) error   { return nil }
func (Receipts) Cleanup(sarama.ConsumerGroupSession) error { return nil }

// ConsumeClaim upserts each receipt and marks the message after.
//
// lookalike jobretry dendrite-userapi-notification: a consumer's INSERT with no key, redelivered
func (Receipts) ConsumeClaim(sess sarama.ConsumerGroupSession, claim sarama.ConsumerGroupClaim) error {
	for msg := range claim.Messages() {
		_, err := db.ExecContext(sess.Context(),
			`INSERT INTO receipts (room_id, user_id, event_id) VALUES ($1, $2, $3)
			 ON CONFLICT (room_id, user_id) DO UPDATE SET event_id = excluded.event_id`,
			string(msg.Key), "user", string(msg.Value))
		if err != nil {
			return err
		}
		sess.MarkMessage(msg, "")
	}
	return nil
}

// Orders is a sarama handler whose write is a guarded state transition.
type Orders struct{}

func (Orders) Setup(sarama.ConsumerGroupSession) error   { return nil }
func (Orders) Cleanup(sarama.ConsumerGroupSession) error { return nil }

// ConsumeClaim moves an order from pending to paid once: a redelivery
// updates no row.
//
// lookalike jobretry sarama-claim-retry: a claim handler whose effect repeats on redelivery
func (Orders) ConsumeClaim(sess sarama.ConsumerGroupSession, claim sarama.ConsumerGroupClaim) error {
	for msg := range claim.Messages() {
		if _, err := db.ExecContext(sess.Context(), `UPDATE orders SET status = 'paid' WHERE id = $1 AND status = 'pending'`, string(msg.Key)); err != nil {
			return err
		}
		sess.MarkMessage(msg, "")
	}
	return nil
}

// SendToDevice stores each to-device message keyed by the message id the
// sender gave it: a redelivery fails on the key, and is skipped.
//
// lookalike jobretry dendrite-syncapi-sendtodevice: an INSERT of a to-device message with a generated key
func SendToDevice(ctx context.Context, r *kafka.Reader) error {
	for {
		m, err := r.FetchMessage(ctx)
		if err != nil {
			return err
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO send_to_device (message_id, user_id, body) VALUES ($1, $2, $3) ON CONFLICT (message_id) DO NOTHING`,
			messageIDHeader(m), string(m.Key), string(m.Value)); err != nil {
			return err
		}
		if err := r.CommitMessages(ctx, m); err != nil {
			return err
		}
	}
}

func messageIDHeader(m kafka.Message) string {
	for _, h := range m.Headers {
		if h.Key == "message_id" {
			return string(h.Value)
		}
	}
	return fmt.Sprintf("%s/%d/%d", m.Topic, m.Partition, m.Offset)
}

// Notify writes its notification in the runtime inbox's transaction.
//
// lookalike jobretry dendrite-syncapi-invite: a notification row inserted again on each redelivery
func Notify(ctx context.Context, c jetstream.Consumer) (jetstream.ConsumeContext, error) {
	return c.Consume(func(msg jetstream.Msg) {
		meta, err := msg.Metadata()
		if err != nil {
			msg.Nak()
			return
		}
		id := fmt.Sprintf("%s/%d", meta.Stream, meta.Sequence.Stream)
		if _, err := inbox.Consume(context.Background(), id, func(ctx context.Context) error {
			_, err := idempotency.Tx(ctx).ExecContext(ctx, `INSERT INTO notifications (user_id, event_id, body) VALUES ($1, $2, $3)`, "user", "event", string(msg.Data()))
			return err
		}); err != nil {
			msg.Nak()
			return
		}
		msg.Ack()
	})
}

// Charge keys the payment by the stream sequence.
//
// lookalike jobretry dendrite-fedapi-sendtodevice-msgid: a fresh id minted per redelivery
func Charge(ctx context.Context, c jetstream.Consumer) (jetstream.ConsumeContext, error) {
	return c.Consume(func(msg jetstream.Msg) {
		meta, err := msg.Metadata()
		if err != nil {
			msg.Nak()
			return
		}
		params := &stripe.PaymentIntentParams{Amount: stripe.Int64(100)}
		params.SetIdempotencyKey(idempotency.Derive(fmt.Sprint(meta.Sequence.Stream), "charge"))
		if _, err := paymentintent.New(params); err != nil {
			msg.Nak()
			return
		}
		msg.Ack()
	})
}

// Payout is an asynq handler whose insert is keyed by the task id, into a
// table with a unique key.
//
// lookalike jobretry passes/jobretry/testdata/src/pgxjobs/pgxjobs.go: an INSERT into a table with a generated key in a job handler
func Payout(ctx context.Context, t *asynq.Task) error {
	id, _ := asynq.GetTaskID(ctx)
	_, err := pool.Exec(ctx, `INSERT INTO payouts (payout_ref, amount) VALUES ($1, $2)`, id, 10)
	return err
}

// ChargeTask derives the provider key from the task id.
//
// lookalike jobretry passes/jobretry/testdata/src/asynqjobs/asynqjobs.go: a POST from an asynq handler without a key
func ChargeTask(ctx context.Context, t *asynq.Task) error {
	id, ok := asynq.GetTaskID(ctx)
	if !ok {
		return fmt.Errorf("no task id")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/charges", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", idempotency.Derive(id, "charge"))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Presence rewrites the user's presence with its absolute value, newer
// versions only.
//
// lookalike jobretry passes/jobretry/testdata/src/consumerjobs/consumerjobs.go: an SQS receive loop inserting on each redelivery
func Presence(ctx context.Context, c *sqs.Client, url *string) error {
	for {
		out, err := c.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: url})
		if err != nil {
			return err
		}
		for _, m := range out.Messages {
			if _, err := db.ExecContext(ctx, `INSERT INTO presence (user_id, state, updated) VALUES ($1, $2, $3)
				ON CONFLICT (user_id) DO UPDATE SET state = excluded.state, updated = excluded.updated WHERE presence.updated < excluded.updated`,
				aws.ToString(m.MessageId), aws.ToString(m.Body), 1); err != nil {
				return err
			}
			if _, err := c.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: url, ReceiptHandle: m.ReceiptHandle}); err != nil {
				return err
			}
		}
	}
}

// Audit inserts into a generated-key table only where no row of the
// message exists yet: a guarded insert.
//
// lookalike jobretry passes/jobretry/testdata/src/asynqjobs/asynqjobs.go: an INSERT into an audit log with no key
func Audit(ctx context.Context, t *asynq.Task) error {
	id, _ := asynq.GetTaskID(ctx)
	_, err := db.ExecContext(ctx, `INSERT INTO events (body) SELECT $1 WHERE NOT EXISTS (SELECT 1 FROM events WHERE body = $1)`, id+":"+t.Type())
	return err
}
