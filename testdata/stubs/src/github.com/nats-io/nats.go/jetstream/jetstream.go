// Package jetstream is a stub of github.com/nats-io/nats.go/jetstream
// (v1.55.0): consumers and messages, with the real signatures.
package jetstream

import (
	"context"
	"time"

	"github.com/nats-io/nats.go"
)

const MsgIDHeader = "Nats-Msg-Id"

type JetStreamOpt func(*jsOpts) error

type jsOpts struct{}

type AckPolicy int

const (
	AckExplicitPolicy AckPolicy = iota
	AckAllPolicy
	AckNonePolicy
)

type ConsumerConfig struct {
	Durable   string
	AckPolicy AckPolicy
	AckWait   time.Duration
}

type (
	JetStream interface {
		Publisher
		CreateOrUpdateConsumer(ctx context.Context, stream string, cfg ConsumerConfig) (Consumer, error)
		CreateConsumer(ctx context.Context, stream string, cfg ConsumerConfig) (Consumer, error)
		Consumer(ctx context.Context, stream string, consumer string) (Consumer, error)
	}

	Publisher interface {
		Publish(ctx context.Context, subject string, payload []byte, opts ...PublishOpt) (*PubAck, error)
		PublishMsg(ctx context.Context, msg *nats.Msg, opts ...PublishOpt) (*PubAck, error)
		PublishAsync(subject string, payload []byte, opts ...PublishOpt) (PubAckFuture, error)
		PublishMsgAsync(msg *nats.Msg, opts ...PublishOpt) (PubAckFuture, error)
	}

	PublishOpt func(*pubOpts) error

	pubOpts struct{ id string }

	PubAck struct {
		Stream   string
		Sequence uint64
	}

	PubAckFuture interface {
		Ok() <-chan *PubAck
		Err() <-chan error
		Msg() *nats.Msg
	}

	Consumer interface {
		Fetch(batch int, opts ...FetchOpt) (MessageBatch, error)
		FetchNoWait(batch int) (MessageBatch, error)
		Consume(handler MessageHandler, opts ...PullConsumeOpt) (ConsumeContext, error)
		Messages(opts ...PullMessagesOpt) (MessagesContext, error)
		Next(opts ...FetchOpt) (Msg, error)
	}

	MessageBatch interface {
		Messages() <-chan Msg
		Error() error
	}

	MessagesContext interface {
		Next(opts ...NextOpt) (Msg, error)
		Stop()
	}

	ConsumeContext interface {
		Stop()
		Drain()
		Closed() <-chan struct{}
	}

	MessageHandler func(msg Msg)

	PullConsumeOpt  interface{ configureConsume(*consumeOpts) error }
	PullMessagesOpt interface{ configureMessages(*consumeOpts) error }
	FetchOpt        func(*pullRequest) error
	NextOpt         interface{ configureNext(*nextOpts) }

	consumeOpts struct{}
	pullRequest struct{}
	nextOpts    struct{}

	Msg interface {
		Metadata() (*MsgMetadata, error)
		Data() []byte
		Headers() nats.Header
		Subject() string
		Reply() string
		Ack() error
		DoubleAck(context.Context) error
		Nak() error
		NakWithDelay(delay time.Duration) error
		InProgress() error
		Term() error
		TermWithReason(reason string) error
	}

	MsgMetadata struct {
		Sequence     SequencePair
		NumDelivered uint64
		NumPending   uint64
		Timestamp    time.Time
		Stream       string
		Consumer     string
		Domain       string
	}

	SequencePair struct {
		Consumer uint64 `json:"consumer_seq"`
		Stream   uint64 `json:"stream_seq"`
	}
)

func New(nc *nats.Conn, opts ...JetStreamOpt) (JetStream, error) { return nil, nil }

func WithMsgID(id string) PublishOpt {
	return func(opts *pubOpts) error { opts.id = id; return nil }
}

func WithExpectStream(stream string) PublishOpt {
	return func(opts *pubOpts) error { return nil }
}

func WithMsgTTL(dur time.Duration) PublishOpt {
	return func(opts *pubOpts) error { return nil }
}
