// Package gomatrixserverlib is a stub of
// github.com/matrix-org/gomatrixserverlib
// (v0.0.0-20240910190622-2c764912ce93): the to-device EDU's content, with
// the real fields.
package gomatrixserverlib

import "encoding/json"

type ToDeviceMessage struct {
	Sender    string                                `json:"sender"`
	Type      string                                `json:"type"`
	MessageID string                                `json:"message_id"`
	Messages  map[string]map[string]json.RawMessage `json:"messages"`
}

// EDU is an ephemeral data unit of the server-server API.
type EDU struct {
	Type        string          `json:"edu_type"`
	Origin      string          `json:"origin"`
	Destination string          `json:"destination,omitempty"`
	Content     json.RawMessage `json:"content,omitempty"`
}

// PDU is a persistent data unit, a room event.
type PDU interface {
	EventID() string
	RoomID() string
	JSON() []byte
}
