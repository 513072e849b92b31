// Package queue is the federation sender's outgoing queues, shaped like
// dendrite's federationapi/queue: SendEDU and SendEvent store the unit in
// the queue tables of store, from which a destination queue sends it to
// the remote servers and deletes it.
package queue

import (
	"context"
	"encoding/json"

	"github.com/matrix-org/gomatrixserverlib"

	"chat/federation/store"
)

// HeaderedEvent is a room event with its room version, as dendrite's
// roomserver types wrap a PDU.
type HeaderedEvent struct {
	gomatrixserverlib.PDU
	Visibility string
}

type OutgoingQueues struct {
	db *store.Database
}

func (q *OutgoingQueues) SendEDU(e *gomatrixserverlib.EDU, origin string, destinations []string) error { // want SendEDU:`inserts\(federationsender_queue_edus, federationsender_queue_json\)`
	body, err := json.Marshal(e)
	if err != nil {
		return err
	}
	nid, err := q.db.StoreJSON(context.Background(), string(body))
	if err != nil {
		return err
	}
	for _, d := range destinations {
		if err := q.db.QueueEDU(context.Background(), e.Type, d, nid); err != nil {
			return err
		}
	}
	return nil
}

func (q *OutgoingQueues) SendEvent(ev *HeaderedEvent, origin string, destinations []string) error { // want SendEvent:`inserts\(federationsender_queue_json\)`
	_, err := q.db.StoreJSON(context.Background(), string(ev.JSON()))
	return err
}
