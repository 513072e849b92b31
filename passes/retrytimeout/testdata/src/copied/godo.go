// Package copied holds go-retryablehttp clients whose HTTPClient.Timeout
// is copied from another client (godo's New): the attempts have the
// timeout of that client, none when the package passes one without.
package copied

import (
	"context"
	"net/http"

	"github.com/hashicorp/go-retryablehttp"
	"golang.org/x/oauth2"
)

// godo's shape: the constructor stores the caller's client, New copies its
// Timeout into the retrying client and replaces it with StandardClient();
// NewFromToken passes an oauth2.NewClient client, which has no Timeout.
type Client struct {
	HTTPClient *http.Client
	RetryMax   int
}

type ClientOpt func(*Client) error

func WithRetryMax(n int) ClientOpt {
	return func(c *Client) error {
		c.RetryMax = n
		return nil
	}
}

func NewFromToken(token string) *Client {
	ctx := context.Background()
	ts := oauth2.StaticTokenSource(&oauth2.Token{AccessToken: token})
	oauthClient := oauth2.NewClient(ctx, ts)
	c, err := New(oauthClient, WithRetryMax(4))
	if err != nil {
		panic(err)
	}
	return c
}

func NewClient(httpClient *http.Client) *Client {
	if httpClient == nil {
		httpClient = http.DefaultClient
	}
	c := &Client{HTTPClient: httpClient}
	return c
}

func New(httpClient *http.Client, opts ...ClientOpt) (*Client, error) {
	c := NewClient(httpClient)
	for _, opt := range opts {
		if err := opt(c); err != nil {
			return nil, err
		}
	}
	if c.RetryMax > 0 {
		rc := retryablehttp.NewClient()
		rc.RetryMax = c.RetryMax
		rc.HTTPClient.Timeout = c.HTTPClient.Timeout // want `copied c\.HTTPClient\.Timeout is 0 \(oauth2\.NewClient of NewFromToken\): no attempt times out; default it when 0`
		var source *oauth2.Transport
		if t, ok := c.HTTPClient.Transport.(*oauth2.Transport); ok {
			source = t
		}
		c.HTTPClient = rc.StandardClient()
		c.HTTPClient.Transport = &oauth2.Transport{Base: c.HTTPClient.Transport, Source: source.Source}
	}
	return c, nil
}

func (c *Client) Do(ctx context.Context, req *http.Request) (*http.Response, error) {
	return DoRequestWithClient(ctx, c.HTTPClient, req)
}

func DoRequestWithClient(ctx context.Context, client *http.Client, req *http.Request) (*http.Response, error) {
	return client.Do(req.WithContext(ctx))
}

// The same shape, but the package's caller passes a client with a Timeout.
type Timed struct {
	HTTPClient *http.Client
}

func NewTimed() *Timed { return newTimedRetrying(&http.Client{Timeout: 30e9}) }

func newTimedClient(hc *http.Client) *Timed {
	if hc == nil {
		hc = http.DefaultClient
	}
	return &Timed{HTTPClient: hc}
}

func newTimedRetrying(hc *http.Client) *Timed {
	t := newTimedClient(hc)
	rc := retryablehttp.NewClient()
	rc.HTTPClient.Timeout = t.HTTPClient.Timeout
	t.HTTPClient = rc.StandardClient()
	return t
}

// The same shape, but an option may replace the stored client before the
// copy: the users' choice.
type Opted struct {
	HTTPClient *http.Client
}

type OptedOpt func(*Opted)

func WithHTTPClient(hc *http.Client) OptedOpt {
	return func(o *Opted) { o.HTTPClient = hc }
}

func NewOptedDefault() *Opted { return NewOpted(nil) }

func NewOpted(hc *http.Client, opts ...OptedOpt) *Opted {
	if hc == nil {
		hc = http.DefaultClient
	}
	o := newOpted(hc)
	for _, opt := range opts {
		opt(o)
	}
	rc := retryablehttp.NewClient()
	rc.HTTPClient.Timeout = o.HTTPClient.Timeout
	o.HTTPClient = rc.StandardClient()
	return o
}

func newOpted(hc *http.Client) *Opted { return &Opted{HTTPClient: hc} }
