// Package pubsub is a stub of cloud.google.com/go/internal/pubsub
// (cloud.google.com/go v0.123.0), where cloud.google.com/go/pubsub/v2's
// Message is declared.
package pubsub

import "time"

type AckHandler interface {
	OnAck()
	OnNack()
}

type AckResult struct{}

type Message struct {
	ID              string
	Data            []byte
	Attributes      map[string]string
	PublishTime     time.Time
	DeliveryAttempt *int
	OrderingKey     string

	ackh AckHandler
}

func (m *Message) Ack()                       {}
func (m *Message) Nack()                      {}
func (m *Message) AckWithResult() *AckResult  { return &AckResult{} }
func (m *Message) NackWithResult() *AckResult { return &AckResult{} }
