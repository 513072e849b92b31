// Package inboxamqp consumes RabbitMQ deliveries (amqp091-go) through an
// idempotency.Inbox: RabbitMQ requeues a delivery that was not acked when
// its channel or connection closes (a crash), or when it is Nack'ed, so a
// handler sees some messages twice; the inbox runs it once per message.
//
// It is a package of its own so that only the services that consume from
// RabbitMQ link the AMQP client.
package inboxamqp

import (
	"context"
	"errors"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

// ErrNoMessageID is returned for a delivery whose publisher set no
// MessageId: RabbitMQ assigns none, and the delivery tag changes with every
// delivery, so such a message cannot be deduplicated.
var ErrNoMessageID = errors.New("inboxamqp: delivery has no MessageId (set Publishing.MessageId)")

// MessageID returns the inbox id of d for the named consumer: the consumer
// name and the MessageId the publisher set, or ErrNoMessageID.
func MessageID(consumer string, d amqp.Delivery) (string, error) {
	if d.MessageId == "" {
		return "", ErrNoMessageID
	}
	return consumer + ":" + d.MessageId, nil
}

// Handle runs handle for d at most once per message id (MessageID) and
// then acks it: with a PostgreSQL inbox, handle's writes (through
// idempotency.Tx(ctx)) commit with the message id, and the ack follows the
// commit. A redelivery of a message already consumed is acked without
// running handle. When handle fails, nothing is recorded and d is Nack'ed
// with requeue; the error is returned. A delivery with no MessageId is
// rejected without requeue (to the queue's dead-letter exchange, if any).
//
// Consume with autoAck false: an auto-acked delivery is gone before the
// work, and a crash loses it.
func Handle(ctx context.Context, in *idempotency.Inbox, consumer string, d amqp.Delivery, handle func(ctx context.Context, d amqp.Delivery) error) error {
	id, err := MessageID(consumer, d)
	if err != nil {
		return errors.Join(err, d.Reject(false))
	}
	if _, err := in.Consume(ctx, id, func(ctx context.Context) error { return handle(ctx, d) }); err != nil {
		return errors.Join(err, d.Nack(false, true))
	}
	return d.Ack(false)
}
