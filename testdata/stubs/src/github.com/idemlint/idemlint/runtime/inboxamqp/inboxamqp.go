// Package inboxamqp is a test stub of idemlint's own runtime/inboxamqp:
// signatures only.
package inboxamqp

import (
	"context"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

// Handle runs handle for d at most once per message id and then acks it.
func Handle(ctx context.Context, in *idempotency.Inbox, consumer string, d amqp.Delivery, handle func(ctx context.Context, d amqp.Delivery) error) error {
	panic("stub")
}
