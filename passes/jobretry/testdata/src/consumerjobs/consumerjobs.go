// Package consumerjobs holds message consumers with side effects: the
// broker redelivers a message whose handler did not ack it, so each effect
// needs the message's id (an inbox, a key derived from it).
package consumerjobs

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"net/http"

	"cloud.google.com/go/pubsub/v2"
	"github.com/IBM/sarama"
	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/google/uuid"
	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/inboxamqp"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	amqp "github.com/rabbitmq/amqp091-go"
	"github.com/segmentio/kafka-go"
	"github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/paymentintent"
	"github.com/twmb/franz-go/pkg/kgo"
)

var db *sql.DB

var inbox = idempotency.NewMemoryInbox()

const schema = `
CREATE TABLE events (id bigserial PRIMARY KEY, body text);
CREATE TABLE shipments (message_id text PRIMARY KEY, body text);`

type handler struct{}

func (handler) Setup(sarama.ConsumerGroupSession) error   { return nil }
func (handler) Cleanup(sarama.ConsumerGroupSession) error { return nil }

func (handler) ConsumeClaim(sess sarama.ConsumerGroupSession, claim sarama.ConsumerGroupClaim) error {
	for msg := range claim.Messages() {
		if _, err := http.Post("https://hooks.example.com/orders", "application/json", bytes.NewReader(msg.Value)); err != nil { // want `POST sends no idempotency key; dedupe on msg\.Topic, msg\.Partition and msg\.Offset with idempotency\.Inbox`
			return err
		}
		sess.MarkMessage(msg, "")
	}
	return nil
}

// Marks before the work: at most once, not redelivered.
type markFirst struct{ handler }

func (markFirst) ConsumeClaim(sess sarama.ConsumerGroupSession, claim sarama.ConsumerGroupClaim) error {
	for msg := range claim.Messages() {
		sess.MarkMessage(msg, "")
		_, _ = http.Post("https://hooks.example.com/orders", "application/json", bytes.NewReader(msg.Value))
	}
	return nil
}

func kafkaGo(ctx context.Context, r *kafka.Reader) {
	for {
		m, err := r.FetchMessage(ctx)
		if err != nil {
			return
		}
		db.ExecContext(ctx, `INSERT INTO events (body) VALUES ($1)`, string(m.Value)) // want `INSERT INTO events has no ON CONFLICT or natural key; dedupe on m\.Topic, m\.Partition and m\.Offset with idempotency\.Inbox`
		// Keyed by the message's offset: a redelivery fails on the key.
		db.ExecContext(ctx, `INSERT INTO events (id, body) VALUES ($1, $2)`, m.Offset, string(m.Value))
		r.CommitMessages(ctx, m)
	}
}

// ReadMessage commits first: at most once, not redelivered.
func kafkaGoRead(ctx context.Context, r *kafka.Reader) {
	for {
		m, err := r.ReadMessage(ctx)
		if err != nil {
			return
		}
		db.ExecContext(ctx, `INSERT INTO events (body) VALUES ($1)`, string(m.Value))
	}
}

func franz(ctx context.Context, cl *kgo.Client) {
	for {
		fs := cl.PollFetches(ctx)
		if fs.IsClientClosed() {
			return
		}
		for _, r := range fs.Records() {
			params := &stripe.PaymentIntentParams{Amount: stripe.Int64(100)}
			params.SetIdempotencyKey(uuid.NewString()) // want `\(\*stripe\.Params\)\.SetIdempotencyKey gets a new key each run; dedupe on the message id with idempotency\.Inbox`
			paymentintent.New(params)
			// Derived from the record's offset: the same key on every redelivery.
			keyed := &stripe.PaymentIntentParams{Amount: stripe.Int64(100)}
			keyed.SetIdempotencyKey(idempotency.Derive(fmt.Sprintf("%s/%d/%d", r.Topic, r.Partition, r.Offset), "charge"))
			paymentintent.New(keyed)
		}
	}
}

func jetStream(ctx context.Context, c jetstream.Consumer) {
	c.Consume(func(msg jetstream.Msg) {
		params := &stripe.PaymentIntentParams{Amount: stripe.Int64(100)}
		paymentintent.New(params) // want `paymentintent\.New sends no idempotency key; dedupe on the message id with idempotency\.Inbox`
		msg.Ack()
	})
	// Keyed by the stream sequence.
	c.Consume(func(msg jetstream.Msg) {
		meta, _ := msg.Metadata()
		params := &stripe.PaymentIntentParams{Amount: stripe.Int64(100)}
		params.SetIdempotencyKey(idempotency.Derive(fmt.Sprint(meta.Sequence.Stream), "charge"))
		paymentintent.New(params)
		msg.Ack()
	})
	// Acks first: at most once.
	c.Consume(func(msg jetstream.Msg) {
		msg.Ack()
		paymentintent.New(&stripe.PaymentIntentParams{Amount: stripe.Int64(100)})
	})
}

func natsLegacy(ctx context.Context, nc *nats.Conn) {
	js, _ := nc.JetStream()
	js.Subscribe("orders", func(m *nats.Msg) {
		http.Post("https://hooks.example.com/orders", "application/json", bytes.NewReader(m.Data)) // want `POST sends no idempotency key; dedupe on Metadata\(\)\.Sequence\.Stream or the Nats-Msg-Id header with idempotency\.Inbox`
	})
	// Core NATS is at most once.
	nc.Subscribe("orders", func(m *nats.Msg) {
		http.Post("https://hooks.example.com/orders", "application/json", bytes.NewReader(m.Data))
	})
}

func rabbit(ctx context.Context, ch *amqp.Channel) {
	msgs, _ := ch.Consume("orders", "", false, false, false, false, nil)
	for d := range msgs {
		// Deduped with the inbox: the insert commits with the message id.
		inbox.Consume(ctx, d.MessageId, func(ctx context.Context) error {
			_, err := idempotency.Tx(ctx).ExecContext(ctx, `INSERT INTO events (body) VALUES ($1)`, string(d.Body))
			if err != nil {
				return err
			}
			// An HTTP call is outside the inbox's transaction.
			_, err = http.Post("https://hooks.example.com/orders", "application/json", nil) // want `POST sends no idempotency key; key by idempotency\.Derive of d\.MessageId \(set by the publisher\)`
			return err
		})
		d.Ack(false)
	}
	// Deduped with the runtime's adapter, which acks after the inbox commits.
	adapted, _ := ch.Consume("orders", "", false, false, false, false, nil)
	for d := range adapted {
		inboxamqp.Handle(ctx, inbox, "orders", d, func(ctx context.Context, d amqp.Delivery) error {
			_, err := idempotency.Tx(ctx).ExecContext(ctx, `INSERT INTO events (body) VALUES ($1)`, string(d.Body))
			return err
		})
	}
	// autoAck: at most once.
	auto, _ := ch.Consume("orders", "", true, false, false, false, nil)
	for d := range auto {
		db.ExecContext(ctx, `INSERT INTO events (body) VALUES ($1)`, string(d.Body))
	}
	// The delivery tag changes with each delivery: not a key.
	again, _ := ch.Consume("orders", "", false, false, false, false, nil)
	for d := range again {
		db.ExecContext(ctx, `INSERT INTO events (id, body) VALUES ($1, $2)`, d.DeliveryTag, string(d.Body)) // want `INSERT INTO events has no ON CONFLICT or natural key; dedupe on the message id with idempotency\.Inbox`
		d.Ack(false)
	}
}

func sqsLoop(ctx context.Context, c *sqs.Client, url *string) {
	for {
		out, err := c.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: url})
		if err != nil {
			return
		}
		for _, m := range out.Messages {
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/charges", nil)
			http.DefaultClient.Do(req) // want `POST sends no idempotency key in an SQS receive loop \(redelivered\); dedupe on m\.MessageId with idempotency\.Inbox`
			// Keyed with the message id, in a helper.
			charge(ctx, aws.ToString(m.MessageId))
			// Idempotent: an upsert and a table with a natural key.
			db.ExecContext(ctx, `INSERT INTO events (body) VALUES ($1) ON CONFLICT (id) DO NOTHING`, "x")
			db.ExecContext(ctx, `INSERT INTO shipments (message_id, body) VALUES ($1, $2)`, aws.ToString(m.MessageId), "x")
			c.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: url, ReceiptHandle: m.ReceiptHandle})
		}
	}
}

func charge(ctx context.Context, id string) {
	keyed, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/charges", nil)
	keyed.Header.Set("Idempotency-Key", idempotency.Derive(id, "charge"))
	http.DefaultClient.Do(keyed)
}

func onSQS(ctx context.Context, ev events.SQSEvent) error {
	for _, r := range ev.Records {
		if _, err := db.ExecContext(ctx, `INSERT INTO events (body) VALUES ($1)`, r.Body); err != nil { // want `INSERT INTO events has no ON CONFLICT or natural key; dedupe on record\.MessageId with idempotency\.Inbox`
			return err
		}
		// Keyed with the message id.
		db.ExecContext(ctx, `INSERT INTO events (id, body) VALUES ($1, $2)`, r.MessageId, r.Body)
	}
	return nil
}

func main() { lambda.Start(onSQS) }

func pubSub(ctx context.Context, s *pubsub.Subscriber) {
	s.Receive(ctx, func(ctx context.Context, m *pubsub.Message) {
		http.Post("https://hooks.example.com/orders", "application/json", bytes.NewReader(m.Data)) // want `POST sends no idempotency key in a Pub/Sub receiver \(redelivered\); dedupe on m\.ID with idempotency\.Inbox`
		m.Ack()
	})
	// Inbox-deduped on the message id: its insert commits once.
	s.Receive(ctx, func(ctx context.Context, m *pubsub.Message) {
		if _, err := inbox.Consume(ctx, m.ID, func(ctx context.Context) error {
			_, err := idempotency.Tx(ctx).ExecContext(ctx, `INSERT INTO events (body) VALUES ($1)`, string(m.Data))
			return err
		}); err != nil {
			m.Nack()
			return
		}
		m.Ack()
	})
}
