// Package producers publishes to NATS JetStream the way a Matrix
// homeserver's producers do, each message with the Nats-Msg-Id its caller
// derives from the client's transaction id: the helper the routing
// look-alikes call.
package producers

import (
	"context"
	"encoding/json"

	"github.com/nats-io/nats.go"
)

// SyncAPIProducer publishes to-device messages.
type SyncAPIProducer struct {
	JetStream nats.JetStreamContext
	Topic     string
}

// SendToDevice publishes one message with the id its caller gives.
func (p *SyncAPIProducer) SendToDevice(ctx context.Context, msgID, userID string, message json.RawMessage) error {
	m := nats.NewMsg(p.Topic)
	m.Data = message
	m.Header.Set("user_id", userID)
	m.Header.Set(nats.MsgIdHdr, msgID)
	_, err := p.JetStream.PublishMsg(m, nats.Context(ctx))
	return err
}
