// want package:"publishers"

// Package routing is a Matrix client-server API: its PUT handlers take the
// client's transaction id ({txnId}), the key its retries carry.
package routing

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/nats-io/nats.go"

	"matrix/producers"
)

// urlDecode decodes the route variables (dendrite's URLDecodeMapValues).
func urlDecode(vars map[string]string) (map[string]string, error) { return vars, nil }

func Setup(r *mux.Router, p *producers.SyncAPIProducer) {
	r.HandleFunc("/sendToDevice/{eventType}/{txnId}", func(w http.ResponseWriter, req *http.Request) {
		vars, err := urlDecode(mux.Vars(req))
		if err != nil {
			return
		}
		txnID := vars["txnId"]
		SendToDevice(req, p, vars["eventType"], &txnID)
	})
	r.HandleFunc("/sendKeyed/{txnID}", func(w http.ResponseWriter, req *http.Request) {
		txnID := mux.Vars(req)["txnID"]
		SendKeyed(req, p, txnID)
	})
	r.HandleFunc("/rooms/{roomId}/typing", func(w http.ResponseWriter, req *http.Request) {
		// no transaction id: nothing to carry down
		room := mux.Vars(req)["roomId"]
		_ = p.SendToDevice(req.Context(), room, room, nil)
	})
}

// SendToDevice receives the transaction id and drops it: each message is
// published with no Nats-Msg-Id, so the client's retry publishes it again.
func SendToDevice(req *http.Request, p *producers.SyncAPIProducer, eventType string, txnID *string) { // want SendToDevice:"publishes to JetStream with no Nats-Msg-Id through p.SendToDevice"
	if txnID != nil && seen(*txnID) {
		return
	}
	for _, user := range []string{"@a:x", "@b:x"} {
		if err := p.SendToDevice(req.Context(), eventType, user, nil); err != nil { // want "`p.SendToDevice` publishes with no Nats-Msg-Id; derive its nats.MsgId from \\*txnID"
			return
		}
	}
	_ = p.SendEDU(req.Context(), nil)       // want "`p.SendEDU` publishes with no Nats-Msg-Id; derive its nats.MsgId from \\*txnID"
	_ = p.SendMsg(nats.NewMsg("to_device")) // the message is published by a function that takes it: not seen into
	remember(*txnID)
}

// SendKeyed derives each message's id from the transaction id.
func SendKeyed(req *http.Request, p *producers.SyncAPIProducer, txnID string) {
	for _, user := range []string{"@a:x", "@b:x"} {
		_ = p.SendKeyed(req.Context(), txnID+"/"+user, nil)
		_ = p.SendWithOption(req.Context(), txnID+"/"+user, nil)
	}
	_ = p.SendLiteral(txnID, nil)
}

func seen(string) bool { return false }

func remember(string) {}
