package inboxnats_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/inboxnats"
	"github.com/idemlint/idemlint/runtime/internal/brokertest"
)

const addr = "127.0.0.1:4222"

// Environment of the consumer child process (TestConsumerChild).
const (
	envChild  = "IDEMLINT_INBOXNATS_CHILD" // the mode: "work" or "commit"
	envDSN    = "IDEMLINT_INBOXNATS_DSN"
	envStream = "IDEMLINT_INBOXNATS_STREAM"
)

const consumerName = "orders"

var adapter = brokertest.Adapter[jetstream.Msg]{Handle: inboxnats.Handle, MessageID: inboxnats.MessageID,
	Body: jetstream.Msg.Data}

// jetStream connects to the test server, until the test ends.
func jetStream(t testing.TB) jetstream.JetStream {
	t.Helper()
	nc, err := nats.Connect("nats://" + addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

func connect(t testing.TB, stream string) (jetstream.JetStream, jetstream.Consumer) {
	t.Helper()
	js := jetStream(t)
	ctx := context.Background()
	cons, err := js.CreateOrUpdateConsumer(ctx, stream, jetstream.ConsumerConfig{
		Durable: consumerName, AckPolicy: jetstream.AckExplicitPolicy, AckWait: time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	return js, cons
}

func next(t testing.TB, cons jetstream.Consumer) jetstream.Msg {
	t.Helper()
	msg, err := cons.Next(jetstream.FetchMaxWait(15 * time.Second))
	if err != nil {
		t.Fatalf("no (re)delivery within 15s: %v", err)
	}
	return msg
}

// TestConsumerChild is not a test: it is the consumer process of
// TestRedeliveredAfterKill, run by re-executing the test binary with
// IDEMLINT_INBOXNATS_CHILD set. It takes one message and hangs, until it is
// killed: in the handler before the inbox commits ("work"), or after the
// commit and before the ack ("commit").
func TestConsumerChild(t *testing.T) {
	mode := os.Getenv(envChild)
	if mode == "" {
		return // not in the child process
	}
	brokertest.ConsumerChild(t, mode, os.Getenv(envDSN), adapter, consumerName,
		func() jetstream.Msg {
			_, cons := connect(t, os.Getenv(envStream))
			return next(t, cons)
		})
}

// newStream makes a stream of its own for the test, deleted when it ends.
func newStream(t testing.TB) (jetstream.JetStream, string) {
	t.Helper()
	js := jetStream(t)
	stream := brokertest.Name("IDEMTEST_")
	if _, err := js.CreateStream(context.Background(), jetstream.StreamConfig{Name: stream, Subjects: []string{stream + ".>"}}); err != nil {
		t.Fatalf("create stream (is JetStream enabled on %s?): %v", addr, err)
	}
	t.Cleanup(func() { js.DeleteStream(context.Background(), stream) })
	return js, stream
}

func TestRedeliveredAfterKill(t *testing.T) {
	in, dsn, effects := brokertest.Inbox(t, "IDEMLINT_REQUIRE_NATS", addr)
	ctx := context.Background()
	js, stream := newStream(t)
	_, cons := connect(t, stream)
	if _, err := js.Publish(ctx, stream+".paid", []byte("order-1 paid")); err != nil {
		t.Fatal(err)
	}
	// Killed mid-message, then after the commit and before the ack.
	brokertest.KillTwice(t, "TestConsumerChild", envChild, []string{envDSN + "=" + dsn, envStream + "=" + stream}, effects)

	// The third delivery: the inbox has the id, so Handle acks it without
	// running the handler again.
	msg := next(t, cons)
	meta, err := msg.Metadata()
	if err != nil {
		t.Fatal(err)
	}
	if meta.NumDelivered < 3 {
		t.Errorf("delivered %d times, want at least 3 (two consumers killed)", meta.NumDelivered)
	}
	brokertest.Replayed(t, adapter, in, consumerName, msg, effects)
	// Acked: no further delivery.
	if m, err := cons.Next(jetstream.FetchMaxWait(3 * time.Second)); err == nil {
		t.Errorf("delivered again after the ack: %q", m.Data())
	}
	info, err := cons.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.NumAckPending != 0 {
		t.Errorf("%d messages pending ack, want 0", info.NumAckPending)
	}
}

// TestHandleFailureNaks: a failing handler records nothing and the message
// is redelivered at once; the next run consumes it once.
func TestHandleFailureNaks(t *testing.T) {
	brokertest.Require(t, "IDEMLINT_REQUIRE_NATS", addr)
	ctx := context.Background()
	in := idempotency.NewMemoryInbox()
	js, stream := newStream(t)
	_, cons := connect(t, stream)
	if _, err := js.Publish(ctx, stream+".paid", []byte("x"), jetstream.WithMsgID("order-7")); err != nil {
		t.Fatal(err)
	}
	runs := 0
	fail := func(ctx context.Context, msg jetstream.Msg) error { runs++; return fmt.Errorf("down") }
	ok := func(ctx context.Context, msg jetstream.Msg) error { runs++; return nil }
	if err := inboxnats.Handle(ctx, in, consumerName, next(t, cons), fail); err == nil {
		t.Fatal("Handle hid the handler's error")
	}
	if err := inboxnats.Handle(ctx, in, consumerName, next(t, cons), ok); err != nil {
		t.Fatal(err)
	}
	// The inbox keys the message on its Nats-Msg-Id.
	if seen, _ := in.Seen(ctx, consumerName+":id:order-7"); !seen || runs != 2 {
		t.Errorf("seen %v after %d runs; want the id recorded after 2 runs", seen, runs)
	}
}
