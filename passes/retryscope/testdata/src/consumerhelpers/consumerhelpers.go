// Package consumerhelpers consumes through consumerkit's helpers of
// another package, and one of its own: the handlers passed to a helper
// that acks after them are redelivered (job handler scopes); those passed
// to one that acks first, or that get no message, are not.
package consumerhelpers

import (
	"context"

	"github.com/nats-io/nats.go"

	"consumerkit"
)

func store(context.Context, []byte) error { return nil }

type consumer struct {
	ctx context.Context
	js  nats.JetStreamContext
}

func (c *consumer) Start() error {
	return consumerkit.Pull(c.ctx, c.js, "orders", "orders", c.onMessage)
}

func (c *consumer) onMessage(ctx context.Context, msgs []*nats.Msg) bool { // want `job-handler cap=unknown deadline=unknown waits=unknown body`
	return store(ctx, msgs[0].Data) == nil
}

func startLiteral(ctx context.Context, js nats.JetStreamContext) error {
	return consumerkit.Pull(ctx, js, "payments", "payments", func(ctx context.Context, msgs []*nats.Msg) bool { // want `job-handler cap=unknown deadline=unknown waits=unknown body`
		return store(ctx, msgs[0].Data) == nil
	})
}

func save(data []byte) error { return store(context.Background(), data) } // want `job-handler cap=unknown deadline=unknown waits=unknown body`

func each(m *nats.Msg) error { return consumerkit.Each(m, save) }

// Acked before the handler runs, or no message handed over: no scope.

func audit(m *nats.Msg) error { return store(context.Background(), m.Data) }

func first(m *nats.Msg) error { return consumerkit.AckFirst(m, audit) }

func logLine(s string) { _ = store(context.Background(), []byte(s)) }

func tick(m *nats.Msg) error { return consumerkit.Tick(m, logLine) }

// A helper of this package: it acks after handle returns.
func settle(m *nats.Msg, handle func(*nats.Msg) error) {
	if handle(m) == nil {
		_ = m.Ack()
	}
}

func apply(m *nats.Msg) error { return store(context.Background(), m.Data) } // want `job-handler cap=unknown deadline=unknown waits=unknown body`

func run(m *nats.Msg) { settle(m, apply) }
