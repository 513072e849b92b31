// Package helperjobs consumes through pullkit.Consume, a helper of another
// package that acks after the handler: the handlers passed as method values
// are redelivered, so their effects need the message's id.
package helperjobs

import (
	"context"
	"database/sql"

	"github.com/nats-io/nats.go"

	"pullkit"
)

type deviceConsumer struct {
	ctx context.Context
	js  nats.JetStreamContext
	db  *sql.DB
}

func (c *deviceConsumer) Start() error {
	if err := pullkit.Consume(c.ctx, c.js, "to-device", c.onMessage); err != nil {
		return err
	}
	if err := pullkit.Consume(c.ctx, c.js, "receipts", c.onReceipt); err != nil {
		return err
	}
	return pullkit.Consume(c.ctx, c.js, "read", c.onRead)
}

// A row per delivery: a redelivery after the INSERT committed queues the
// message twice.
func (c *deviceConsumer) onMessage(ctx context.Context, msgs []*nats.Msg) bool {
	_, err := c.db.ExecContext(ctx, `INSERT INTO device_inbox (device, body) VALUES ($1, $2)`, msgs[0].Subject, msgs[0].Data) // want `INSERT INTO device_inbox has no ON CONFLICT or natural key; dedupe on the message id with idempotency\.Inbox`
	return err == nil
}

// An upsert of the message's values: a redelivery rewrites the same row.
func (c *deviceConsumer) onReceipt(ctx context.Context, msgs []*nats.Msg) bool {
	_, err := c.db.ExecContext(ctx, `INSERT INTO receipts (room, body) VALUES ($1, $2) ON CONFLICT (room) DO UPDATE SET body = $2`, msgs[0].Subject, msgs[0].Data)
	return err == nil
}

// A guarded UPDATE applies once.
func (c *deviceConsumer) onRead(ctx context.Context, msgs []*nats.Msg) bool {
	_, err := c.db.ExecContext(ctx, `UPDATE notifications SET read = true WHERE room = $1 AND read = false`, msgs[0].Subject)
	return err == nil
}
