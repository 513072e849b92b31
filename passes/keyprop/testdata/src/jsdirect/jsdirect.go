// Package jsdirect publishes to JetStream straight from handlers with an
// incoming key.
package jsdirect

import (
	"net/http"

	"github.com/google/uuid"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

func Unkeyed(js nats.JetStreamContext) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		key := r.Header.Get("Idempotency-Key")
		_ = key
		js.Publish("orders", []byte("x")) // want "`js.Publish` publishes with no Nats-Msg-Id; set nats.MsgId\\(idempotency.Derive\\(key, step\\)\\)"
	}
}

func Fresh(js nats.JetStreamContext) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		key := r.Header.Get("Idempotency-Key")
		_ = key
		js.Publish("orders", []byte("x"), nats.MsgId(uuid.NewString())) // want "`js.Publish` publishes with a fresh Nats-Msg-Id; set nats.MsgId\\(idempotency.Derive\\(key, step\\)\\)"
	}
}

func Keyed(js nats.JetStreamContext) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		key := r.Header.Get("Idempotency-Key")
		js.Publish("orders", []byte("x"), nats.MsgId(key+":order"))
		id := nats.MsgId(key + ":ship")
		js.PublishAsync("shipments", []byte("x"), id)
	}
}

// The route's key in a header literal of the message.
func PathKeyed(js nats.JetStreamContext) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		key := r.PathValue("txnId")
		m := &nats.Msg{Subject: "orders", Header: nats.Header{nats.MsgIdHdr: []string{key}}}
		js.PublishMsg(m)
		m2 := nats.NewMsg("shipments")
		m2.Header[nats.MsgIdHdr] = []string{key + ":ship"}
		js.PublishMsgAsync(m2)
	}
}

func PathUnkeyed(js jetstream.JetStream) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		txn := r.PathValue("txnId")
		_ = txn
		m := nats.NewMsg("orders")
		m.Header.Set("Content-Type", "application/json")
		js.PublishMsg(r.Context(), m) // want "`js.PublishMsg` publishes with no Nats-Msg-Id; set nats.MsgId\\(idempotency.Derive\\(txn, step\\)\\)"
	}
}

// Options and messages the check cannot see into.
func Opaque(js nats.JetStreamContext, opts []nats.PubOpt, set func(*nats.Msg)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		key := r.Header.Get("Idempotency-Key")
		_ = key
		js.Publish("orders", []byte("x"), opts...)
		m := nats.NewMsg("orders")
		set(m)
		js.PublishMsg(m)
	}
}

// No incoming key: a publish with no id is no dropped key.
func NoKey(js nats.JetStreamContext) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		js.Publish("events", []byte(r.URL.Path))
		room := r.PathValue("roomId")
		js.Publish("rooms", []byte(room))
	}
}
