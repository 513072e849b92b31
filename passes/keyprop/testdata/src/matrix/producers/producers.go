// want package:"publishers"

// Package producers publishes to NATS JetStream the way dendrite's
// producers do: a message with headers, with or without a Nats-Msg-Id.
package producers

import (
	"context"
	"encoding/json"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

type SyncAPIProducer struct {
	JetStream nats.JetStreamContext
	Topic     string
}

// SendToDevice publishes each message with headers but no Nats-Msg-Id.
func (p *SyncAPIProducer) SendToDevice(ctx context.Context, sender, userID string, message json.RawMessage) error { // want SendToDevice:"publishes to JetStream with no Nats-Msg-Id through p.JetStream.PublishMsg"
	m := nats.NewMsg(p.Topic)
	m.Data = message
	m.Header.Set("sender", sender)
	m.Header.Set("user_id", userID)
	_, err := p.JetStream.PublishMsg(m, nats.Context(ctx))
	return err
}

// SendKeyed publishes with the id its caller gives.
func (p *SyncAPIProducer) SendKeyed(ctx context.Context, msgID string, message json.RawMessage) error {
	m := nats.NewMsg(p.Topic)
	m.Data = message
	m.Header.Set(nats.MsgIdHdr, msgID)
	_, err := p.JetStream.PublishMsg(m, nats.Context(ctx))
	return err
}

// SendWithOption sets the id by the publish option.
func (p *SyncAPIProducer) SendWithOption(ctx context.Context, msgID string, data []byte) error {
	_, err := p.JetStream.Publish(p.Topic, data, nats.MsgId(msgID), nats.Context(ctx))
	return err
}

// SendEDU publishes through an unexported helper that sets no id.
func (p *SyncAPIProducer) SendEDU(ctx context.Context, data []byte) error { // want SendEDU:"publishes to JetStream with no Nats-Msg-Id through p.sendRaw"
	return p.sendRaw(data)
}

func (p *SyncAPIProducer) sendRaw(data []byte) error {
	_, err := p.JetStream.PublishAsync(p.Topic, data)
	return err
}

// SendMsg publishes a message it is given: whether it has an id is the
// caller's, not seen here.
func (p *SyncAPIProducer) SendMsg(m *nats.Msg) error {
	_, err := p.JetStream.PublishMsg(m)
	return err
}

// SendLiteral publishes a literal whose header holds the id.
func (p *SyncAPIProducer) SendLiteral(msgID string, data []byte) error {
	_, err := p.JetStream.PublishMsg(&nats.Msg{Subject: p.Topic, Data: data, Header: nats.Header{nats.MsgIdHdr: []string{msgID}}})
	return err
}

// Producer uses the newer jetstream package.
type Producer struct {
	JS jetstream.JetStream
}

// Send publishes with no id.
func (p *Producer) Send(ctx context.Context, data []byte) error { // want Send:"publishes to JetStream with no Nats-Msg-Id through p.JS.Publish"
	_, err := p.JS.Publish(ctx, "orders", data, jetstream.WithExpectStream("ORDERS"))
	return err
}

// SendID publishes with the caller's id.
func (p *Producer) SendID(ctx context.Context, id string, data []byte) error {
	_, err := p.JS.Publish(ctx, "orders", data, jetstream.WithMsgID(id))
	return err
}
