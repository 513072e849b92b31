// Package federation processes a Matrix server-server transaction's EDUs:
// a to-device EDU's message_id is the key the spec gives it.
package federation

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/matrix-org/gomatrixserverlib"

	"matrix/producers"
)

type EDU struct {
	Type    string
	Content []byte
}

type TxnReq struct {
	producer *producers.SyncAPIProducer
}

func (t *TxnReq) processEDUs(ctx context.Context, edus []EDU) {
	for _, e := range edus {
		switch e.Type {
		case "m.typing":
			// no decoded key here
			_ = t.producer.SendToDevice(ctx, "@a:x", "@b:x", nil)
		case "m.direct_to_device":
			var directPayload gomatrixserverlib.ToDeviceMessage
			if err := json.Unmarshal(e.Content, &directPayload); err != nil {
				continue
			}
			for userID, byUser := range directPayload.Messages {
				for _, message := range byUser {
					_ = t.producer.SendToDevice(ctx, directPayload.Sender, userID, message) // want "`t.producer.SendToDevice` publishes with no Nats-Msg-Id; derive its nats.MsgId from directPayload.MessageID"
				}
			}
		case "m.keyed_to_device":
			// the decoded message id carried down as a publish's id, and dropped
			var payload gomatrixserverlib.ToDeviceMessage
			if json.NewDecoder(bytes.NewReader(e.Content)).Decode(&payload) == nil {
				id := payload.MessageID
				_ = t.producer.SendKeyed(ctx, id, nil)
				_ = t.producer.SendEDU(ctx, nil) // want "`t.producer.SendEDU` publishes with no Nats-Msg-Id; derive its nats.MsgId from payload.MessageID"
			}
		}
	}
}
