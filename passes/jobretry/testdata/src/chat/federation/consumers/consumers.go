// Package consumers sends what the federation consumers of dendrite send
// (typing, presence, receipts, device list updates, room events) through
// the outgoing queues, and keeps invites. A redelivered message queues its
// unit again; whether that repeats an effect depends on the receiver.
package consumers

import (
	"context"
	"encoding/json"

	"github.com/matrix-org/gomatrixserverlib"
	"github.com/matrix-org/gomatrixserverlib/spec"
	"github.com/nats-io/nats.go"

	"chat/federation/queue"
	"chat/federation/store"
	"consumerkit"
)

type Consumer struct {
	ctx    context.Context
	js     nats.JetStreamContext
	queues *queue.OutgoingQueues
	db     *store.Database
}

func (c *Consumer) Start() error {
	_ = consumerkit.Pull(c.ctx, c.js, "typing", "typing-pull", c.onTyping)
	_ = consumerkit.Pull(c.ctx, c.js, "presence", "presence-pull", c.onPresence)
	_ = consumerkit.Pull(c.ctx, c.js, "device-lists", "device-lists-pull", c.onDeviceList)
	_ = consumerkit.Pull(c.ctx, c.js, "room-events", "room-events-pull", c.onRoomEvent)
	_ = consumerkit.Pull(c.ctx, c.js, "to-device", "to-device-pull", c.onToDevice)
	_ = consumerkit.Pull(c.ctx, c.js, "edus", "edus-pull", c.onEDU)
	return consumerkit.Pull(c.ctx, c.js, "invites", "invites-pull", c.onInvite)
}

// A state the remote overwrites: a second copy changes nothing there, and
// the queue's row is deleted once sent.
func (c *Consumer) onTyping(ctx context.Context, msgs []*nats.Msg) bool {
	edu := &gomatrixserverlib.EDU{Type: "m.typing"}
	edu.Content = msgs[0].Data
	return c.queues.SendEDU(edu, "example.org", []string{"remote.org"}) == nil
}

func (c *Consumer) onPresence(ctx context.Context, msgs []*nats.Msg) bool {
	return c.sendPresence(msgs[0].Data) == nil
}

func (c *Consumer) sendPresence(content []byte) error {
	edu := &gomatrixserverlib.EDU{
		Type:   spec.MPresence,
		Origin: "example.org",
	}
	edu.Content = content
	return c.queues.SendEDU(edu, "example.org", []string{"remote.org"})
}

// The update carries its stream id: the remote applies it once.
func (c *Consumer) onDeviceList(ctx context.Context, msgs []*nats.Msg) bool {
	edu := gomatrixserverlib.EDU{Type: spec.MDeviceListUpdate, Content: msgs[0].Data}
	return c.queues.SendEDU(&edu, "example.org", []string{"remote.org"}) == nil
}

// The remote dedupes room events by their event id.
func (c *Consumer) onRoomEvent(ctx context.Context, msgs []*nats.Msg) bool {
	var ev queue.HeaderedEvent
	if err := json.Unmarshal(msgs[0].Data, &ev); err != nil {
		return true
	}
	return c.queues.SendEvent(&ev, "example.org", []string{"remote.org"}) == nil
}

// A to-device message is delivered again to the device: its EDU is no
// state, and its message_id is fresh per delivery here.
func (c *Consumer) onToDevice(ctx context.Context, msgs []*nats.Msg) bool {
	edu := &gomatrixserverlib.EDU{Type: spec.MDirectToDevice, Content: msgs[0].Data}
	return c.queues.SendEDU(edu, "example.org", []string{"remote.org"}) == nil // want `^INSERT INTO federationsender_queue_edus has no natural key; dedupe on the message id with idempotency\.Inbox$`
}

// An EDU of a type read from the message: nothing says the remote applies
// it once.
func (c *Consumer) onEDU(ctx context.Context, msgs []*nats.Msg) bool {
	edu := &gomatrixserverlib.EDU{Type: msgs[0].Header.Get("type"), Content: msgs[0].Data}
	return c.queues.SendEDU(edu, "example.org", []string{"remote.org"}) == nil // want `^INSERT INTO federationsender_queue_edus has no natural key; dedupe on the message id with idempotency\.Inbox$`
}

// The invite is an event with an id, but the table it goes into lasts and
// has no key on it: a redelivery streams the invite twice.
func (c *Consumer) onInvite(ctx context.Context, msgs []*nats.Msg) bool {
	var ev queue.HeaderedEvent
	if err := json.Unmarshal(msgs[0].Data, &ev); err != nil {
		return true
	}
	_, err := c.db.AddInviteEvent(ctx, ev) // want `INSERT INTO syncapi_invite_events has no ON CONFLICT or natural key`
	return err == nil
}
