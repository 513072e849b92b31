// Package kgo is a stub of github.com/twmb/franz-go/pkg/kgo (v1.22.3): the
// consumer API, with the real signatures.
package kgo

import (
	"context"
	"time"
)

type Opt interface{ apply() }

type ConsumerOpt interface {
	Opt
	consumerOpt()
}

type GroupOpt interface {
	Opt
	groupOpt()
}

type opt struct{}

func (opt) apply()       {}
func (opt) consumerOpt() {}
func (opt) groupOpt()    {}

func ConsumeTopics(topics ...string) ConsumerOpt { return opt{} }
func ConsumerGroup(group string) GroupOpt        { return opt{} }
func DisableAutoCommit() GroupOpt                { return opt{} }
func GreedyAutoCommit() GroupOpt                 { return opt{} }
func SeedBrokers(seeds ...string) Opt            { return opt{} }

type RecordHeader struct {
	Key   string
	Value []byte
}

type RecordAttrs struct{ attrs uint8 }

type Record struct {
	Key           []byte
	Value         []byte
	Headers       []RecordHeader
	Timestamp     time.Time
	Topic         string
	Partition     int32
	Attrs         RecordAttrs
	ProducerEpoch int16
	ProducerID    int64
	LeaderEpoch   int32
	Offset        int64
	Context       context.Context
}

type FetchError struct {
	Topic     string
	Partition int32
	Err       error
}

type Fetch struct{}

type Fetches []Fetch

func (fs Fetches) Errors() []FetchError                    { return nil }
func (fs Fetches) Err() error                              { return nil }
func (fs Fetches) IsClientClosed() bool                    { return false }
func (fs Fetches) EachRecord(fn func(*Record))             {}
func (fs Fetches) Records() []*Record                      { return nil }
func (fs Fetches) EachError(fn func(string, int32, error)) {}

type Client struct{}

func NewClient(opts ...Opt) (*Client, error) { return &Client{}, nil }

func (cl *Client) Close() {}

func (cl *Client) PollFetches(ctx context.Context) Fetches { return nil }

func (cl *Client) PollRecords(ctx context.Context, maxPollRecords int) Fetches { return nil }

func (cl *Client) CommitRecords(ctx context.Context, rs ...*Record) error { return nil }

func (cl *Client) CommitUncommittedOffsets(ctx context.Context) error { return nil }
