package inboxamqp_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/inboxamqp"
	"github.com/idemlint/idemlint/runtime/internal/brokertest"
)

const (
	addr = "127.0.0.1:5672"
	url  = "amqp://guest:guest@" + addr + "/"
)

// Environment of the consumer child process (TestConsumerChild).
const (
	envChild = "IDEMLINT_INBOXAMQP_CHILD" // the mode: "work" or "commit"
	envDSN   = "IDEMLINT_INBOXAMQP_DSN"
	envQueue = "IDEMLINT_INBOXAMQP_QUEUE"
)

const consumerName = "orders"

var adapter = brokertest.Adapter[amqp.Delivery]{Handle: inboxamqp.Handle, MessageID: inboxamqp.MessageID,
	Body: func(d amqp.Delivery) []byte { return d.Body }}

// channel opens a channel of a connection closed when t ends.
func channel(t testing.TB) *amqp.Channel {
	t.Helper()
	conn, err := amqp.Dial(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	ch, err := conn.Channel()
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

// consume opens a channel consuming queue with manual acks.
func consume(t testing.TB, queue string) (*amqp.Channel, <-chan amqp.Delivery) {
	t.Helper()
	ch := channel(t)
	if err := ch.Qos(1, 0, false); err != nil {
		t.Fatal(err)
	}
	ds, err := ch.Consume(queue, "", false, false, false, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ch, ds
}

func next(t testing.TB, ds <-chan amqp.Delivery) amqp.Delivery {
	t.Helper()
	select {
	case d := <-ds:
		return d
	case <-time.After(15 * time.Second):
		t.Fatal("no (re)delivery within 15s")
	}
	panic("unreachable")
}

// TestConsumerChild is not a test: it is the consumer process of
// TestRedeliveredAfterKill, run by re-executing the test binary with
// IDEMLINT_INBOXAMQP_CHILD set. It takes one delivery and hangs, until it
// is killed: in the handler before the inbox commits ("work"), or after
// the commit and before the ack ("commit").
func TestConsumerChild(t *testing.T) {
	mode := os.Getenv(envChild)
	if mode == "" {
		return // not in the child process
	}
	brokertest.ConsumerChild(t, mode, os.Getenv(envDSN), adapter, consumerName,
		func() amqp.Delivery {
			_, ds := consume(t, os.Getenv(envQueue))
			return next(t, ds)
		})
}

func declare(t testing.TB) (*amqp.Channel, string) {
	t.Helper()
	ch := channel(t)
	q, err := ch.QueueDeclare(brokertest.Name("idemtest_"), false, false, false, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ch.QueueDelete(q.Name, false, false, false) })
	return ch, q.Name
}

func TestRedeliveredAfterKill(t *testing.T) {
	in, dsn, effects := brokertest.Inbox(t, "IDEMLINT_REQUIRE_RABBITMQ", addr)
	ctx := context.Background()
	pub, queue := declare(t)
	if err := pub.PublishWithContext(ctx, "", queue, false, false, amqp.Publishing{MessageId: "order-1", Body: []byte("order-1 paid")}); err != nil {
		t.Fatal(err)
	}
	// Killed mid-message, then after the commit and before the ack:
	// RabbitMQ requeues the delivery each time the connection drops.
	brokertest.KillTwice(t, "TestConsumerChild", envChild, []string{envDSN + "=" + dsn, envQueue + "=" + queue}, effects)

	// The third delivery: the inbox has the id, so Handle acks it without
	// running the handler again.
	_, ds := consume(t, queue)
	d := next(t, ds)
	if !d.Redelivered || d.MessageId != "order-1" {
		t.Errorf("delivery %q redelivered=%v, want order-1 redelivered", d.MessageId, d.Redelivered)
	}
	brokertest.Replayed(t, adapter, in, consumerName, d, effects)
	// Acked: the queue is empty.
	select {
	case d := <-ds:
		t.Errorf("delivered again after the ack: %q", d.MessageId)
	case <-time.After(2 * time.Second):
	}
	q, err := pub.QueueDeclarePassive(queue, false, false, false, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if q.Messages != 0 {
		t.Errorf("%d messages in the queue, want 0", q.Messages)
	}
}

// TestNoMessageID: a delivery the publisher gave no MessageId cannot be
// deduplicated; Handle rejects it without running the handler.
func TestNoMessageID(t *testing.T) {
	brokertest.Require(t, "IDEMLINT_REQUIRE_RABBITMQ", addr)
	ctx := context.Background()
	pub, queue := declare(t)
	if err := pub.PublishWithContext(ctx, "", queue, false, false, amqp.Publishing{Body: []byte("anonymous")}); err != nil {
		t.Fatal(err)
	}
	_, ds := consume(t, queue)
	ran := false
	err := inboxamqp.Handle(ctx, idempotency.NewMemoryInbox(), consumerName, next(t, ds), func(context.Context, amqp.Delivery) error {
		ran = true
		return nil
	})
	if !errors.Is(err, inboxamqp.ErrNoMessageID) || ran {
		t.Errorf("Handle: %v, ran %v; want ErrNoMessageID and no run", err, ran)
	}
	select {
	case d := <-ds:
		t.Errorf("the rejected delivery came back: %q", d.Body)
	case <-time.After(time.Second):
	}
}
