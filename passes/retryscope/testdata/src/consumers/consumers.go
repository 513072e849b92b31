// Package consumers holds message consumers: each is a scope its broker
// retries by redelivering, and look-alikes that are not (auto-ack,
// ack before the work, core NATS, ReadMessage).
package consumers

import (
	"context"
	"time"

	"cloud.google.com/go/pubsub/v2"
	"github.com/IBM/sarama"
	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	amqp "github.com/rabbitmq/amqp091-go"
	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kgo"
)

func work(context.Context, []byte) error { return nil }

type handler struct{}

func (handler) Setup(sarama.ConsumerGroupSession) error   { return nil }
func (handler) Cleanup(sarama.ConsumerGroupSession) error { return nil }

func (handler) ConsumeClaim(sess sarama.ConsumerGroupSession, claim sarama.ConsumerGroupClaim) error { // want `job-handler cap=unknown deadline=unknown waits=unknown body`
	for msg := range claim.Messages() {
		if err := work(sess.Context(), msg.Value); err != nil {
			return err
		}
		sess.MarkMessage(msg, "")
	}
	return nil
}

// Marks before the work: at most once, no scope.
type markFirst struct{ handler }

func (markFirst) ConsumeClaim(sess sarama.ConsumerGroupSession, claim sarama.ConsumerGroupClaim) error {
	for msg := range claim.Messages() {
		sess.MarkMessage(msg, "")
		_ = work(sess.Context(), msg.Value)
	}
	return nil
}

// A method named ConsumeClaim of another signature: no scope.
type other struct{}

func (other) ConsumeClaim(ctx context.Context) error { return work(ctx, nil) }

func kafkaGo(ctx context.Context, r *kafka.Reader) {
	for { // want `job-handler cap=unknown deadline=unknown waits=unknown body`
		m, err := r.FetchMessage(ctx)
		if err != nil {
			return
		}
		if err := work(ctx, m.Value); err != nil {
			continue
		}
		_ = r.CommitMessages(ctx, m)
	}
}

// ReadMessage commits before it returns: at most once, no scope.
func kafkaGoRead(ctx context.Context, r *kafka.Reader) {
	for {
		m, err := r.ReadMessage(ctx)
		if err != nil {
			return
		}
		_ = work(ctx, m.Value)
	}
}

func franz(ctx context.Context, cl *kgo.Client) {
	for { // want `job-handler cap=unknown deadline=unknown waits=unknown body`
		fs := cl.PollFetches(ctx)
		if fs.IsClientClosed() {
			return
		}
		fs.EachRecord(func(r *kgo.Record) {
			_ = work(ctx, r.Value)
		})
	}
}

func jetStream(ctx context.Context, c jetstream.Consumer) {
	c.Consume(func(msg jetstream.Msg) { // want `job-handler cap=unknown deadline=unknown waits=unknown body`
		if err := work(ctx, msg.Data()); err != nil {
			msg.Nak()
			return
		}
		msg.Ack()
	})
	// Acks first: at most once, no scope.
	c.Consume(func(msg jetstream.Msg) {
		msg.Ack()
		_ = work(ctx, msg.Data())
	})
	c.Consume(handle)
}

func handle(msg jetstream.Msg) { // want `job-handler cap=unknown deadline=unknown waits=unknown body`
	_ = work(context.Background(), msg.Data())
	msg.Ack()
}

func natsLegacy(ctx context.Context, nc *nats.Conn) {
	js, _ := nc.JetStream()
	js.Subscribe("orders", func(m *nats.Msg) { // want `job-handler cap=unknown deadline=unknown waits=unknown body`
		_ = work(ctx, m.Data)
		m.Ack()
	}, nats.ManualAck())
	// Core NATS: at most once, no scope.
	nc.Subscribe("orders", func(m *nats.Msg) {
		_ = work(ctx, m.Data)
	})
}

func rabbit(ctx context.Context, ch *amqp.Channel) {
	msgs, _ := ch.Consume("orders", "", false, false, false, false, nil)
	for d := range msgs { // want `job-handler cap=unknown deadline=unknown waits=unknown body`
		if err := work(ctx, d.Body); err != nil {
			d.Nack(false, true)
			continue
		}
		d.Ack(false)
	}
	// autoAck: at most once, no scope.
	auto, _ := ch.Consume("orders", "", true, false, false, false, nil)
	for d := range auto {
		_ = work(ctx, d.Body)
	}
}

// The receive loop never leaves on success, and each pass takes the next
// batch: a queue worker, not a retry of ReceiveMessage (issue 47); its
// range over the batch is the handler.
func sqsLoop(ctx context.Context, c *sqs.Client, url *string) {
	for {
		out, err := c.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: url, WaitTimeSeconds: 20})
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		for _, m := range out.Messages { // want `job-handler cap=unknown deadline=unknown waits=unknown body`
			if err := work(ctx, []byte(*m.Body)); err != nil {
				continue
			}
			c.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: url, ReceiptHandle: m.ReceiptHandle})
		}
	}
}

func onSQS(ctx context.Context, ev events.SQSEvent) error { // want `job-handler cap=unknown deadline=unknown waits=unknown body`
	for _, r := range ev.Records {
		if err := work(ctx, []byte(r.Body)); err != nil {
			return err
		}
	}
	return nil
}

func onOther(ctx context.Context, s string) error { return work(ctx, []byte(s)) }

func startLambda(other bool) {
	if other {
		lambda.Start(onOther) // not an SQS handler: no scope
		return
	}
	lambda.Start(onSQS)
}

func pubSub(ctx context.Context, s *pubsub.Subscriber) {
	s.Receive(ctx, func(ctx context.Context, m *pubsub.Message) { // want `job-handler cap=unknown deadline=unknown waits=unknown body`
		if err := work(ctx, m.Data); err != nil {
			m.Nack()
			return
		}
		m.Ack()
	})
}
