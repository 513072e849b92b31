// Package consumerkit runs handlers over JetStream pull subscriptions, for
// the consumers of other packages: Pull and Each ack a message only after
// the handler returns (consumer helpers); AckFirst acks before it, and
// Tick hands the handler no message. jobretry's tests borrow it (their
// testdata/borrow.txt) for consumers that go through Pull.
package consumerkit

import (
	"context"

	"github.com/nats-io/nats.go"
)

// Pull fetches batches and acks a batch when f returns true, naks it
// otherwise.
func Pull(ctx context.Context, js nats.JetStreamContext, subj, name string, f func(context.Context, []*nats.Msg) bool) error {
	sub, err := js.PullSubscribe(subj, name)
	if err != nil {
		return err
	}
	go func() {
		for ctx.Err() == nil {
			msgs, err := sub.Fetch(16)
			if err != nil || len(msgs) == 0 {
				continue
			}
			if f(ctx, msgs) {
				for _, m := range msgs {
					_ = m.AckSync()
				}
			} else {
				for _, m := range msgs {
					_ = m.Nak()
				}
			}
		}
	}()
	return nil
}

// Each hands one message's payload to f and acks it once f succeeds.
func Each(m *nats.Msg, f func([]byte) error) error {
	if err := f(m.Data); err != nil {
		return m.Nak()
	}
	return m.Ack()
}

// AckFirst acks the message, then runs f: at most once.
func AckFirst(m *nats.Msg, f func(*nats.Msg) error) error {
	if err := m.Ack(); err != nil {
		return err
	}
	return f(m)
}

// Tick acks the message and calls f, which gets no message: no consumer.
func Tick(m *nats.Msg, f func(string)) error {
	f("received")
	return m.Ack()
}
