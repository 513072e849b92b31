// Package consumers consumes through consumerkit.Pull and writes through
// the storage interface, whose implementations it never sees: the effects
// come from the facts of storage's interface methods.
package consumers

import (
	"context"
	"encoding/json"

	"github.com/nats-io/nats.go"

	"chat/storage"
	"consumerkit"
)

type event struct {
	UserID, DeviceID, RoomID, EventID, Content string
	Pos                                        int64
}

type SendToDeviceConsumer struct {
	ctx context.Context
	js  nats.JetStreamContext
	db  storage.Database
}

func (s *SendToDeviceConsumer) Start() error {
	if err := consumerkit.Pull(s.ctx, s.js, "send-to-device", "send-to-device-pull", s.onMessage); err != nil {
		return err
	}
	if err := consumerkit.Pull(s.ctx, s.js, "receipts", "receipts-pull", s.onReceipt); err != nil {
		return err
	}
	return consumerkit.Pull(s.ctx, s.js, "presence", "presence-pull", s.onPresence)
}

// The message is stored, then acked: a redelivery after the INSERT
// committed stores it twice.
func (s *SendToDeviceConsumer) onMessage(ctx context.Context, msgs []*nats.Msg) bool {
	var ev event
	if err := json.Unmarshal(msgs[0].Data, &ev); err != nil {
		return true
	}
	_, err := s.db.StoreNewSendForDeviceMessage(ctx, ev.UserID, ev.DeviceID, ev.Content) // want `INSERT INTO syncapi_send_to_device has no ON CONFLICT or natural key; dedupe on the message id with idempotency\.Inbox`
	return err == nil
}

// An upsert (postgres) or a natural key (sqlite3): no duplicate.
func (s *SendToDeviceConsumer) onReceipt(ctx context.Context, msgs []*nats.Msg) bool {
	var ev event
	if err := json.Unmarshal(msgs[0].Data, &ev); err != nil {
		return true
	}
	_, err := s.db.StoreReceipt(ctx, ev.RoomID, ev.UserID, ev.EventID)
	return err == nil
}

// An INSERT into a table with a natural key: a redelivery fails on it.
func (s *SendToDeviceConsumer) onPresence(ctx context.Context, msgs []*nats.Msg) bool {
	return s.db.UpdatePresence(ctx, msgs[0].Header.Get("user_id"), string(msgs[0].Data)) == nil
}

type RoomEventConsumer struct {
	ctx context.Context
	js  nats.JetStreamContext
	db  storage.Database
}

func (s *RoomEventConsumer) Start() error {
	if err := consumerkit.Pull(s.ctx, s.js, "room-events", "room-events-pull", s.onMessage); err != nil {
		return err
	}
	return consumerkit.Pull(s.ctx, s.js, "read-markers", "read-markers-pull", s.onReadMarker)
}

func (s *RoomEventConsumer) onMessage(ctx context.Context, msgs []*nats.Msg) bool {
	var ev event
	if err := json.Unmarshal(msgs[0].Data, &ev); err != nil {
		return true
	}
	return s.processMessage(ctx, &ev) == nil
}

func (s *RoomEventConsumer) processMessage(ctx context.Context, ev *event) error {
	for _, member := range []string{"alice", "bob"} {
		if err := s.notifyLocal(ctx, ev, member); err != nil {
			return err
		}
	}
	return nil
}

// A notification row per delivery, through an interface method of the
// embedded Notification interface.
func (s *RoomEventConsumer) notifyLocal(ctx context.Context, ev *event, localpart string) error {
	return s.db.InsertNotification(ctx, localpart, ev.RoomID, ev.EventID) // want `INSERT INTO userapi_notifications has no ON CONFLICT or natural key; dedupe on the message id with idempotency\.Inbox`
}

// A guarded UPDATE: a redelivery changes no row.
func (s *RoomEventConsumer) onReadMarker(ctx context.Context, msgs []*nats.Msg) bool {
	var ev event
	if err := json.Unmarshal(msgs[0].Data, &ev); err != nil {
		return true
	}
	changed, err := s.db.SetNotificationsRead(ctx, ev.UserID, ev.RoomID, ev.Pos)
	if err != nil {
		return false
	}
	_ = changed
	return true
}
