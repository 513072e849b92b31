// Package pubsub is a stub of cloud.google.com/go/pubsub/v2 (v2.9.0): the
// subscriber API, with the real signatures (client options omitted).
package pubsub

import (
	"context"

	ipubsub "cloud.google.com/go/internal/pubsub"
)

type Message = ipubsub.Message

type Client struct{}

func NewClient(ctx context.Context, projectID string) (c *Client, err error) { return &Client{}, nil }

type Subscriber struct{}

func (c *Client) Subscriber(nameOrID string) *Subscriber { return &Subscriber{} }

func (s *Subscriber) Receive(ctx context.Context, f func(context.Context, *Message)) error {
	return nil
}
