// Package kafka is a stub of github.com/segmentio/kafka-go (v0.4.51): the
// Reader, with the real signatures.
package kafka

import (
	"context"
	"time"
)

type Header struct {
	Key   string
	Value []byte
}

type Message struct {
	Topic         string
	Partition     int
	Offset        int64
	HighWaterMark int64
	Key           []byte
	Value         []byte
	Headers       []Header
	WriterData    interface{}
	Time          time.Time
}

type ReaderConfig struct {
	Brokers        []string
	GroupID        string
	Topic          string
	Partition      int
	CommitInterval time.Duration
}

type Reader struct{}

func NewReader(config ReaderConfig) *Reader { return &Reader{} }

func (r *Reader) Close() error { return nil }

func (r *Reader) ReadMessage(ctx context.Context) (Message, error) { return Message{}, nil }

func (r *Reader) FetchMessage(ctx context.Context) (Message, error) { return Message{}, nil }

func (r *Reader) CommitMessages(ctx context.Context, msgs ...Message) error { return nil }
