// Package inboxnats consumes NATS JetStream messages through an
// idempotency.Inbox: JetStream redelivers a message that was not acked
// within the consumer's AckWait (a crash, a lost ack, a Nak), so a handler
// sees some messages twice; the inbox runs it once per message.
//
// It is a package of its own so that only the services that consume from
// NATS link the NATS client.
package inboxnats

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

// MessageID returns the inbox id of msg for the named consumer: the
// consumer name and the producer's Nats-Msg-Id header when it is set (it
// also covers a producer's re-sends), else the stream name and stream
// sequence, which every redelivery of the message keeps. Never the
// consumer sequence or NumDelivered, which change with each delivery.
func MessageID(consumer string, msg jetstream.Msg) (string, error) {
	if id := msg.Headers().Get(jetstream.MsgIDHeader); id != "" {
		return consumer + ":id:" + id, nil
	}
	meta, err := msg.Metadata()
	if err != nil {
		return "", fmt.Errorf("inboxnats: message metadata: %w", err)
	}
	return consumer + ":seq:" + meta.Stream + ":" + strconv.FormatUint(meta.Sequence.Stream, 10), nil
}

// Handle runs handle for msg at most once per message id (MessageID) and
// then acks it: with a PostgreSQL inbox, handle's writes (through
// idempotency.Tx(ctx)) commit with the message id, and the ack follows the
// commit. A redelivery of a message already consumed is acked without
// running handle. When handle fails, nothing is recorded and msg is Nak'ed
// for redelivery; the error is returned.
//
// A crash before the commit rolls the work back and JetStream redelivers
// the message; a crash after the commit but before the ack leaves the id
// in the inbox, so the redelivery is acked without a second effect.
func Handle(ctx context.Context, in *idempotency.Inbox, consumer string, msg jetstream.Msg, handle func(ctx context.Context, msg jetstream.Msg) error) error {
	id, err := MessageID(consumer, msg)
	if err != nil {
		return errors.Join(err, msg.Nak())
	}
	if _, err := in.Consume(ctx, id, func(ctx context.Context) error { return handle(ctx, msg) }); err != nil {
		return errors.Join(err, msg.Nak())
	}
	// DoubleAck waits for the server: a lost ack means one more
	// redelivery, which the inbox absorbs.
	return msg.DoubleAck(ctx)
}

// Handler returns a jetstream.MessageHandler for Consumer.Consume that runs
// Handle for each message; errors go to onError when it is not nil.
func Handler(ctx context.Context, in *idempotency.Inbox, consumer string, handle func(ctx context.Context, msg jetstream.Msg) error, onError func(error)) jetstream.MessageHandler {
	return func(msg jetstream.Msg) {
		if err := Handle(ctx, in, consumer, msg, handle); err != nil && onError != nil {
			onError(err)
		}
	}
}
