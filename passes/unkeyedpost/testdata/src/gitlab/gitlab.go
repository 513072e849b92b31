// Package gitlab holds go-gitlab's shape: the retrying client is built in
// a constructor's literal whose CheckRetry is a method value of the client,
// and Do sends every request of the package through it.
package gitlab

import (
	"context"
	"net/http"

	"github.com/hashicorp/go-retryablehttp"
)

type Client struct {
	client         *retryablehttp.Client
	disableRetries bool
}

func newClient(options ...ClientOptionFunc) (*Client, error) {
	c := &Client{}
	c.client = &retryablehttp.Client{
		CheckRetry: c.retryHTTPCheck,
		RetryMax:   5,
	}
	for _, fn := range options {
		if err := fn(c); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// ClientOptionFunc configures a Client; WithCustomRetry's policy is the
// choice of the users who ask for it: the client's own policy is
// retryHTTPCheck.
type ClientOptionFunc func(*Client) error

func WithCustomRetry(checkRetry retryablehttp.CheckRetry) ClientOptionFunc {
	return func(c *Client) error {
		c.client.CheckRetry = checkRetry
		return nil
	}
}

// retryHTTPCheck retries rate limits and server errors; it tests the
// status alone, so a POST is re-sent as a GET is.
func (c *Client) retryHTTPCheck(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if err != nil {
		return false, err
	}
	if !c.disableRetries && (resp.StatusCode == 429 || resp.StatusCode >= 500) {
		return true, nil
	}
	return false, nil
}

func (c *Client) Do(req *retryablehttp.Request) (*http.Response, error) {
	req.Header.Set("PRIVATE-TOKEN", "token")
	return c.client.Do(req) // want `POST \(\*retryablehttp.Client\).Do through a retryablehttp client has no idempotency key`
}

func (c *Client) CreateIssue() error {
	req, err := retryablehttp.NewRequest(http.MethodPost, "https://gitlab.example.com/api/v4/issues", nil)
	if err != nil {
		return err
	}
	_, err = c.Do(req)
	return err
}

// SafeClient's check is a method value too, but it leaves non-idempotent
// methods alone through a helper of the package: no finding.
type SafeClient struct {
	client *retryablehttp.Client
}

func newSafeClient() *SafeClient {
	c := &SafeClient{}
	c.client = &retryablehttp.Client{
		CheckRetry: c.retryCheck,
		RetryMax:   5,
	}
	return c
}

func (c *SafeClient) retryCheck(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if resp != nil && !idempotent(resp.Request) {
		return false, nil
	}
	return retryablehttp.DefaultRetryPolicy(ctx, resp, err)
}

func idempotent(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete:
		return true
	}
	return false
}

func (c *SafeClient) Do(req *retryablehttp.Request) (*http.Response, error) {
	return c.client.Do(req)
}

func (c *SafeClient) CreateIssue() error {
	req, err := retryablehttp.NewRequest(http.MethodPost, "https://gitlab.example.com/api/v4/issues", nil)
	if err != nil {
		return err
	}
	_, err = c.Do(req)
	return err
}

// NeverClient's check never says retry: its client re-sends nothing.
type NeverClient struct {
	client *retryablehttp.Client
}

func newNeverClient() *NeverClient {
	c := &NeverClient{}
	c.client = &retryablehttp.Client{CheckRetry: neverRetry, RetryMax: 5}
	return c
}

func neverRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if err != nil {
		return false, err
	}
	return false, nil
}

func (c *NeverClient) Create() error {
	req, err := retryablehttp.NewRequest(http.MethodPost, "https://gitlab.example.com/api/v4/issues", nil)
	if err != nil {
		return err
	}
	_, err = c.client.Do(req)
	return err
}
