// Package helperjobs consumes through consumerkit.Pull, a helper of another
// package that acks after the handler: the handlers passed as method values
// are redelivered, so their effects need the message's id.
package helperjobs

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/matrix-org/gomatrixserverlib"
	"github.com/matrix-org/util"
	"github.com/nats-io/nats.go"

	"consumerkit"
)

// The schema, in SQLite's and MySQL's dialects: an AUTOINCREMENT or
// AUTO_INCREMENT primary key is generated, no natural key; a text primary
// key the INSERT supplies is one.
const schema = `
CREATE TABLE IF NOT EXISTS device_inbox (id INTEGER PRIMARY KEY AUTOINCREMENT, device TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS audit (id INT AUTO_INCREMENT PRIMARY KEY, body TEXT);
CREATE TABLE IF NOT EXISTS deliveries (delivery_id TEXT PRIMARY KEY, body TEXT);
`

type deviceConsumer struct {
	ctx context.Context
	js  nats.JetStreamContext
	db  *sql.DB
}

func (c *deviceConsumer) Start() error {
	if err := consumerkit.Pull(c.ctx, c.js, "to-device", "to-device-pull", c.onMessage); err != nil {
		return err
	}
	if err := consumerkit.Pull(c.ctx, c.js, "receipts", "receipts-pull", c.onReceipt); err != nil {
		return err
	}
	if err := consumerkit.Pull(c.ctx, c.js, "audit", "audit-pull", c.onAudit); err != nil {
		return err
	}
	return consumerkit.Pull(c.ctx, c.js, "read", "read-pull", c.onRead)
}

func (c *deviceConsumer) onAudit(ctx context.Context, msgs []*nats.Msg) bool {
	if _, err := c.db.ExecContext(ctx, `INSERT INTO audit (body) VALUES (?)`, msgs[0].Data); err != nil { // want `INSERT INTO audit has no ON CONFLICT or natural key; dedupe on the message id with idempotency\.Inbox`
		return false
	}
	// The natural key: a redelivery fails on it instead of duplicating.
	_, err := c.db.ExecContext(ctx, `INSERT INTO deliveries (delivery_id, body) VALUES (?, ?)`, msgs[0].Header.Get("Nats-Msg-Id"), msgs[0].Data)
	return err == nil
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

type forwarder struct {
	ctx   context.Context
	js    nats.JetStreamContext
	queue func(ctx context.Context, edu []byte) error
}

func (f *forwarder) Start() error {
	if err := consumerkit.Pull(f.ctx, f.js, "to-device", "to-device-pull", f.onMessage); err != nil {
		return err
	}
	if err := consumerkit.Pull(f.ctx, f.js, "to-device-seq", "to-device-seq-pull", f.onSequenced); err != nil {
		return err
	}
	return consumerkit.Pull(f.ctx, f.js, "notes", "notes-pull", f.onNote)
}

// A new message_id on every delivery: the remote server cannot dedupe a
// redelivered message.
func (f *forwarder) onMessage(ctx context.Context, msgs []*nats.Msg) bool {
	tdm := gomatrixserverlib.ToDeviceMessage{
		Sender:    msgs[0].Header.Get("sender"),
		MessageID: util.RandomString(32), // want `field MessageID is new on every run; dedupe on the message id with idempotency\.Inbox`
	}
	edu, err := json.Marshal(tdm)
	return err == nil && f.queue(ctx, edu) == nil
}

// The message_id from the stream sequence: the same on every delivery.
func (f *forwarder) onSequenced(ctx context.Context, msgs []*nats.Msg) bool {
	meta, err := msgs[0].Metadata()
	if err != nil {
		return false
	}
	tdm := gomatrixserverlib.ToDeviceMessage{
		Sender:    msgs[0].Header.Get("sender"),
		MessageID: fmt.Sprint(meta.Sequence.Stream),
	}
	edu, err := json.Marshal(tdm)
	return err == nil && f.queue(ctx, edu) == nil
}

// A field named MessageID of a type of this package is no protocol key.
type note struct {
	MessageID string
	Text      string
}

func (f *forwarder) onNote(ctx context.Context, msgs []*nats.Msg) bool {
	n := note{MessageID: util.RandomString(16), Text: string(msgs[0].Data)}
	b, err := json.Marshal(n)
	return err == nil && f.queue(ctx, b) == nil
}
