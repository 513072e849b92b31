// Package clientfields holds API clients whose constructor stores the
// *http.Client of a go-retryablehttp client in a field, and sends its
// requests through that field (godo).
package clientfields

import (
	"context"
	"net/http"
	"strings"

	"github.com/hashicorp/go-retryablehttp"
)

// Client swaps in a retrying client when retries are configured; its
// CheckRetry falls back on DefaultRetryPolicy, which retries every method.
type Client struct {
	HTTPClient *http.Client
	RetryMax   int
}

func New(hc *http.Client, retries int) *Client {
	c := &Client{HTTPClient: hc, RetryMax: retries}
	if retries > 0 {
		rc := retryablehttp.NewClient() // want `this retrying client re-sends the POSTs sent through HTTPClient without an idempotency key; key them or check the method`
		rc.RetryMax = retries
		rc.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
			if err != nil && strings.Contains(err.Error(), "INTERNAL_ERROR") {
				return true, nil
			}
			return retryablehttp.DefaultRetryPolicy(ctx, resp, err)
		}
		c.HTTPClient = rc.StandardClient()
	}
	return c
}

func (c *Client) NewRequest(ctx context.Context, method, url string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	return req, nil
}

// DoRequestWithClient sends with the client it is given.
func DoRequestWithClient(ctx context.Context, client *http.Client, req *http.Request) (*http.Response, error) {
	req = req.WithContext(ctx)
	return client.Do(req)
}

func (c *Client) Do(ctx context.Context, req *http.Request) (*http.Response, error) {
	return DoRequestWithClient(ctx, c.HTTPClient, req)
}

func (c *Client) CreateDroplet(ctx context.Context) error {
	req, err := c.NewRequest(ctx, http.MethodPost, "/v2/droplets")
	if err != nil {
		return err
	}
	_, err = c.Do(ctx, req)
	return err
}

// Direct is built with a stock policy and sends through its field itself.
type Direct struct{ hc *http.Client }

func newDirect() *Direct {
	rc := retryablehttp.NewClient() // want `this retrying client re-sends the PATCHes sent through hc without an idempotency key`
	rc.CheckRetry = retryablehttp.ErrorPropagatedRetryPolicy
	return &Direct{hc: rc.StandardClient()}
}

func (d *Direct) Rename(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPatch, "/v2/volumes/1", nil)
	if err != nil {
		return err
	}
	_, err = d.hc.Do(req)
	return err
}

// ---- look-alikes

// Idempotent's policy retries only GET and HEAD.
type Idempotent struct{ hc *http.Client }

func newIdempotent() *Idempotent {
	rc := retryablehttp.NewClient()
	rc.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if resp != nil && resp.Request.Method != http.MethodGet && resp.Request.Method != http.MethodHead {
			return false, nil
		}
		return retryablehttp.DefaultRetryPolicy(ctx, resp, err)
	}
	return &Idempotent{hc: rc.StandardClient()}
}

func (i *Idempotent) Create(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "/v2/droplets", nil)
	if err != nil {
		return err
	}
	_, err = i.hc.Do(req)
	return err
}

func policy(ctx context.Context, resp *http.Response, err error) (bool, error) {
	return err != nil, nil
}

// Custom's policy is the package's own and retries any error without
// looking at the method: a POST is re-sent as a GET is.
type Custom struct{ hc *http.Client }

func newCustom() *Custom {
	rc := retryablehttp.NewClient() // want `this retrying client re-sends the POSTs sent through hc without an idempotency key; key them or check the method`
	rc.CheckRetry = policy
	return &Custom{hc: rc.StandardClient()}
}

func (c *Custom) Create(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "/v2/droplets", nil)
	if err != nil {
		return err
	}
	_, err = c.hc.Do(req)
	return err
}

// Reads sends only GETs through its retrying client.
type Reads struct{ hc *http.Client }

func newReads() *Reads {
	rc := retryablehttp.NewClient()
	return &Reads{hc: rc.StandardClient()}
}

func (r *Reads) List(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "/v2/droplets", nil)
	if err != nil {
		return err
	}
	_, err = r.hc.Do(req)
	return err
}

// Keyed keys its POSTs.
type Keyed struct{ hc *http.Client }

func newKeyed() *Keyed {
	rc := retryablehttp.NewClient()
	return &Keyed{hc: rc.StandardClient()}
}

func (k *Keyed) Create(ctx context.Context, key string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "/v2/droplets", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	_, err = k.hc.Do(req)
	return err
}

// Replaced gives the stored client another transport: no retries left.
type Replaced struct{ hc *http.Client }

func newReplaced() *Replaced {
	rc := retryablehttp.NewClient()
	r := &Replaced{}
	r.hc = rc.StandardClient()
	r.hc.Transport = http.DefaultTransport
	return r
}

func (r *Replaced) Create(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "/v2/droplets", nil)
	if err != nil {
		return err
	}
	_, err = r.hc.Do(req)
	return err
}
