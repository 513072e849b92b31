// Package stored holds go-retryablehttp clients that a constructor builds
// and stores in a field, sent in another method (go-gitlab's newClient and
// Do): the attempts run on the HTTPClient the constructor chose.
package stored

import (
	"net/http"
	"time"

	"github.com/hashicorp/go-cleanhttp"
	"github.com/hashicorp/go-retryablehttp"
)

type Client struct {
	client *retryablehttp.Client
}

func newClient() *Client {
	c := &Client{}
	c.client = &retryablehttp.Client{
		HTTPClient: cleanhttp.DefaultPooledClient(), // want `go-retryablehttp client in field client has no timeout; set its HTTPClient.Timeout`
		RetryMax:   5,
	}
	return c
}

// WithHTTPClient passes the caller's client on: the caller's choice.
func WithHTTPClient(hc *http.Client) func(*Client) {
	return func(c *Client) { c.client.HTTPClient = hc }
}

func (c *Client) Do(req *retryablehttp.Request) (*http.Response, error) {
	return c.client.Do(req)
}

// No HTTPClient: go-retryablehttp's Do falls back to
// cleanhttp.DefaultPooledClient().
type Bare struct {
	rc *retryablehttp.Client
}

func NewBare() *Bare {
	return &Bare{rc: &retryablehttp.Client{RetryMax: 3}} // want `client in field rc has no timeout; set its HTTPClient.Timeout`
}

func (b *Bare) Do(req *retryablehttp.Request) (*http.Response, error) {
	return b.rc.Do(req)
}

// Look-alikes.

// A timeout in the literal's HTTPClient.
type Timed struct {
	client *retryablehttp.Client
}

func NewTimed() *Timed {
	return &Timed{client: &retryablehttp.Client{HTTPClient: &http.Client{Timeout: 10 * time.Second}, RetryMax: 3}}
}

// A timeout set on the stored client's HTTPClient afterwards.
type Later struct {
	client *retryablehttp.Client
}

func NewLater() *Later {
	l := &Later{client: &retryablehttp.Client{HTTPClient: cleanhttp.DefaultPooledClient(), RetryMax: 3}}
	l.client.HTTPClient.Timeout = 30 * time.Second
	return l
}

// The constructor replaces the HTTPClient with one of its own.
type Replaced struct {
	client *retryablehttp.Client
}

func NewReplaced() *Replaced {
	r := &Replaced{client: &retryablehttp.Client{RetryMax: 3}}
	r.client.HTTPClient = newTimedClient()
	return r
}

func newTimedClient() *http.Client { return &http.Client{Timeout: 5 * time.Second} }

// No retries: RetryMax 0 is a single attempt.
type Once struct {
	client *retryablehttp.Client
}

func NewOnce() *Once {
	return &Once{client: &retryablehttp.Client{HTTPClient: cleanhttp.DefaultPooledClient()}}
}

// Not stored in a field: a local client, judged at its sends.
func local(req *retryablehttp.Request) error {
	rc := &retryablehttp.Client{HTTPClient: cleanhttp.DefaultPooledClient(), RetryMax: 2}
	_, err := rc.Do(req)
	return err
}

// cleanhttp's clients have no Timeout: inside a retry loop, a send with a
// context of no deadline is reported at the send.
func pooled(url string) error {
	hc := cleanhttp.DefaultPooledClient()
	var err error
	for i := 0; i < 3; i++ {
		req, rerr := http.NewRequest(http.MethodGet, url, nil)
		if rerr != nil {
			return rerr
		}
		resp, derr := hc.Do(req) // want `\(\*http.Client\).Do in a retry can hang: no client Timeout, no context deadline`
		if derr == nil {
			return resp.Body.Close()
		}
		err = derr
		time.Sleep(time.Duration(i) * time.Second)
	}
	return err
}
