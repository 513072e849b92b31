// Package payments is idemlint's demo: a payments client with the retry
// mistakes idemlint finds. `make demo` runs idemlint over it.
package payments

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"time"
)

// Client calls a payments API.
type Client struct {
	HTTP    *http.Client
	BaseURL string
}

var errTransient = errors.New("transient")

// Charge retries until the charge goes through: no cap, no deadline, and a
// fixed one-second wait that lines every client up into waves.
func (c *Client) Charge(ctx context.Context, body []byte) error {
	for {
		err := c.post(ctx, "/charges", body, "")
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
}

// Refund retries five times with a doubling delay and no jitter.
func (c *Client) Refund(ctx context.Context, body []byte) error {
	delay := 200 * time.Millisecond
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = c.post(ctx, "/refunds", body, ""); err == nil {
			return nil
		}
		time.Sleep(delay)
		delay *= 2
	}
	return err
}

// Capture is done right: one idempotency key for every attempt, bounded,
// with a deadline, and fully jittered.
func (c *Client) Capture(ctx context.Context, body []byte) error {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	key := newKey()
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		if err = c.post(ctx, "/captures", body, key); err == nil {
			return nil
		}
		wait := time.Duration(rand.Int64N(int64(100 * time.Millisecond << attempt)))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
	return err
}

// Poll is a poller, not a retry: idemlint leaves it alone.
func (c *Client) Poll(ctx context.Context, handle func(*http.Response)) {
	t := time.NewTicker(10 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			resp, err := c.HTTP.Get(c.BaseURL + "/events")
			if err != nil {
				continue
			}
			handle(resp)
		}
	}
}

// post sends body, under the idempotency key when key is not empty.
func (c *Client) post(ctx context.Context, path string, body []byte, key string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.BaseURL+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 500 {
		return errTransient
	}
	return nil
}
