// Package routing is a Matrix-like client API whose PUT handlers take the
// client's transaction id from the route and carry it to every message
// they publish.
package routing

import (
	"net/http"

	"github.com/gorilla/mux"

	"lookalikes/producers"
)

// Setup registers the handlers.
func Setup(r *mux.Router, p *producers.SyncAPIProducer) {
	r.HandleFunc("/sendToDevice/{eventType}/{txnId}", func(w http.ResponseWriter, req *http.Request) {
		vars := mux.Vars(req)
		txnID := vars["txnId"]
		SendToDevice(w, req, p, vars["eventType"], &txnID)
	})
}

// SendToDevice publishes each recipient's message with a Nats-Msg-Id
// derived from the transaction id and the recipient: the client's retry
// of the PUT publishes nothing twice.
//
// lookalike keyprop dendrite-clientapi-sendtodevice-keyprop: a txnId path variable dropped before a JetStream publish
func SendToDevice(w http.ResponseWriter, req *http.Request, p *producers.SyncAPIProducer, eventType string, txnID *string) {
	for _, user := range []string{"@a:example.org", "@b:example.org"} {
		if err := p.SendToDevice(req.Context(), *txnID+"/"+eventType+"/"+user, user, nil); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
	}
	w.WriteHeader(http.StatusOK)
}
