// Package layersoff holds look-alikes of POSTs re-sent by a retrying
// client (issue 47): the go-retryablehttp client makes one attempt, set
// after construction, so nothing re-sends the POST.
package layersoff

import (
	"bytes"
	"context"
	"net/http"

	"github.com/hashicorp/go-retryablehttp"
)

const endpoint = "https://api.example.com/payments"

func postOnce(ctx context.Context, body []byte) error {
	c := retryablehttp.NewClient()
	c.RetryMax = 0
	hc := c.StandardClient()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Payments keeps the standard client of a retryablehttp client made for
// its logging hooks, with retries off.
type Payments struct {
	http *http.Client
}

func NewPayments() *Payments {
	rc := retryablehttp.NewClient()
	rc.RetryMax = 0
	rc.Logger = nil
	return &Payments{http: rc.StandardClient()}
}

func (p *Payments) Create(ctx context.Context, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := p.http.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Refunds keeps the retryablehttp client itself, with retries off.
type Refunds struct {
	rc *retryablehttp.Client
}

func NewRefunds() *Refunds {
	r := &Refunds{rc: retryablehttp.NewClient()}
	r.rc.RetryMax = 0
	return r
}

func (r *Refunds) Create(ctx context.Context) error {
	resp, err := r.rc.Post(endpoint, "application/json", nil)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Orders' client retries reads only: its CheckRetry, set after
// construction, leaves every other method to the caller.
type Orders struct {
	http *http.Client
}

func NewOrders() *Orders {
	rc := retryablehttp.NewClient()
	rc.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if resp != nil && resp.Request.Method != http.MethodGet {
			return false, nil
		}
		return retryablehttp.DefaultRetryPolicy(ctx, resp, err)
	}
	return &Orders{http: rc.StandardClient()}
}

func (o *Orders) Place(ctx context.Context, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := o.http.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// idempotentOnly is the package's policy: retry only what is safe to send
// again.
func idempotentOnly(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if resp != nil && resp.Request.Method == http.MethodPost {
		return false, nil
	}
	return retryablehttp.DefaultRetryPolicy(ctx, resp, err)
}

func postWithPolicy(ctx context.Context) error {
	c := retryablehttp.NewClient()
	c.CheckRetry = idempotentOnly
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, endpoint, nil)
	if err != nil {
		return err
	}
	_, err = c.Do(req)
	return err
}
