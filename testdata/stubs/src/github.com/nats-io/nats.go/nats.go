// Package nats is a stub of github.com/nats-io/nats.go (v1.55.0): the core
// and legacy JetStream subscription API, with the real signatures.
package nats

import "context"

type Option func(*Options) error

type Options struct{ Url string }

type Conn struct{}

func Connect(url string, options ...Option) (*Conn, error) { return &Conn{}, nil }

func (nc *Conn) Close() {}

type Header map[string][]string

func (h Header) Get(key string) string                  { return "" }
func (h Header) Add(key, value string)                  {}
func (h Header) Set(key, value string)                  {}
func (h Header) Values(key string) []string             { return nil }
func (h Header) Del(key string)                         {}
func NewMsg(subject string) *Msg                        { return &Msg{Subject: subject, Header: make(Header)} }
func (nc *Conn) Publish(subj string, data []byte) error { return nil }
func (nc *Conn) PublishMsg(m *Msg) error                { return nil }

type Msg struct {
	Subject string
	Reply   string
	Header  Header
	Data    []byte
}

type AckOpt interface{ configureAck(*ackOpts) error }

type ackOpts struct{}

func (m *Msg) Ack(opts ...AckOpt) error        { return nil }
func (m *Msg) AckSync(opts ...AckOpt) error    { return nil }
func (m *Msg) Nak(opts ...AckOpt) error        { return nil }
func (m *Msg) Term(opts ...AckOpt) error       { return nil }
func (m *Msg) InProgress(opts ...AckOpt) error { return nil }

type SequencePair struct {
	Consumer uint64 `json:"consumer_seq"`
	Stream   uint64 `json:"stream_seq"`
}

// MsgMetadata is the metadata of a JetStream message (field subset).
type MsgMetadata struct {
	Sequence     SequencePair
	NumDelivered uint64
	Stream       string
	Consumer     string
}

func (m *Msg) Metadata() (*MsgMetadata, error) { return &MsgMetadata{}, nil }

type MsgHandler func(msg *Msg)

type Subscription struct{}

type PullOpt interface{ configurePull(*pullOpts) error }

type pullOpts struct{}

func (sub *Subscription) Fetch(batch int, opts ...PullOpt) ([]*Msg, error) { return nil, nil }

func (sub *Subscription) Unsubscribe() error { return nil }

func (nc *Conn) Subscribe(subj string, cb MsgHandler) (*Subscription, error) {
	return &Subscription{}, nil
}

func (nc *Conn) QueueSubscribe(subj, queue string, cb MsgHandler) (*Subscription, error) {
	return &Subscription{}, nil
}

type SubOpt interface{ configureSubscribe(*subOpts) error }

type subOpts struct{}

type subOptFn func(*subOpts) error

func (f subOptFn) configureSubscribe(o *subOpts) error { return f(o) }

func ManualAck() SubOpt { return subOptFn(func(*subOpts) error { return nil }) }

type PubOpt interface{ configurePublish(*pubOpts) error }

type pubOpts struct{ id string }

type pubOptFn func(opts *pubOpts) error

func (opt pubOptFn) configurePublish(opts *pubOpts) error { return opt(opts) }

const (
	MsgIdHdr             = "Nats-Msg-Id"
	ExpectedLastMsgIdHdr = "Nats-Expected-Last-Msg-Id"
)

func MsgId(id string) PubOpt {
	return pubOptFn(func(opts *pubOpts) error { opts.id = id; return nil })
}

func ExpectStream(stream string) PubOpt {
	return pubOptFn(func(opts *pubOpts) error { return nil })
}

func RetryAttempts(num int) PubOpt {
	return pubOptFn(func(opts *pubOpts) error { return nil })
}

type ContextOpt struct{ context.Context }

func (ctx ContextOpt) configurePublish(opts *pubOpts) error   { return nil }
func (ctx ContextOpt) configureJSContext(opts *jsOpts) error  { return nil }
func (ctx ContextOpt) configureSubscribe(opts *subOpts) error { return nil }
func (ctx ContextOpt) configurePull(opts *pullOpts) error     { return nil }

func Context(ctx context.Context) ContextOpt { return ContextOpt{ctx} }

type PubAckFuture interface {
	Ok() <-chan *PubAck
	Err() <-chan error
	Msg() *Msg
}

type PubAck struct {
	Stream   string
	Sequence uint64
}

type JSOpt interface{ configureJSContext(*jsOpts) error }

type jsOpts struct{}

type JetStream interface {
	Publish(subj string, data []byte, opts ...PubOpt) (*PubAck, error)
	PublishMsg(m *Msg, opts ...PubOpt) (*PubAck, error)
	PublishAsync(subj string, data []byte, opts ...PubOpt) (PubAckFuture, error)
	PublishMsgAsync(m *Msg, opts ...PubOpt) (PubAckFuture, error)
	Subscribe(subj string, cb MsgHandler, opts ...SubOpt) (*Subscription, error)
	QueueSubscribe(subj, queue string, cb MsgHandler, opts ...SubOpt) (*Subscription, error)
	PullSubscribe(subj, durable string, opts ...SubOpt) (*Subscription, error)
}

type JetStreamManager interface{}

type JetStreamContext interface {
	JetStream
	JetStreamManager
}

func (nc *Conn) JetStream(opts ...JSOpt) (JetStreamContext, error) { return nil, nil }
