// Package secrets is a stand-in for a generated Google Cloud client: its
// methods run the RPC through gax.Invoke with per-method call options.
package secrets

import (
	"context"

	gax "github.com/googleapis/gax-go/v2"
)

type CallOptions struct {
	GetSecret []gax.CallOption
}

type Client struct {
	CallOptions *CallOptions
}

type Secret struct{ Name string }

func (c *Client) GetSecret(ctx context.Context, name string, opts ...gax.CallOption) (*Secret, error) { // want GetSecret:`retries\(gax\.Invoke, in \(\*secrets\.Client\)\.GetSecret\)`
	opts = append(c.CallOptions.GetSecret[0:len(c.CallOptions.GetSecret):len(c.CallOptions.GetSecret)], opts...)
	var resp *Secret
	err := gax.Invoke(ctx, func(ctx context.Context, settings gax.CallSettings) error {
		resp = &Secret{Name: name}
		return nil
	}, opts...)
	return resp, err
}

// Close makes no RPC.
func (c *Client) Close() error { return nil }
