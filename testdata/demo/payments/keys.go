package payments

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	mrand "math/rand/v2"
	"net/http"
	"strings"
	"time"
)

// newKey returns a random idempotency key.
func newKey() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func jitter(attempt int) time.Duration {
	return time.Duration(mrand.Int64N(int64(100 * time.Millisecond << attempt)))
}

// Payout mints its idempotency key inside the retry loop: every attempt
// sends a new key, so the server cannot tell a retry from a new payout.
func (c *Client) Payout(ctx context.Context, body string) error {
	for attempt := 0; attempt < 3; attempt++ {
		key := newKey()
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.BaseURL+"/payouts", strings.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", key)
		resp, doErr := c.HTTP.Do(req)
		if doErr == nil && resp.StatusCode < 500 {
			return resp.Body.Close()
		}
		time.Sleep(jitter(attempt))
	}
	return errTransient
}

// Transfer retries a POST that carries no key at all: a timeout after the
// server applied it, then a retry, moves the money twice.
func (c *Client) Transfer(ctx context.Context, body string) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.BaseURL+"/transfers", strings.NewReader(body))
		if err != nil {
			return err
		}
		resp, doErr := c.HTTP.Do(req)
		if doErr == nil && resp.StatusCode < 500 {
			return resp.Body.Close()
		}
		time.Sleep(jitter(attempt))
	}
	return errTransient
}

// Deposit is done right: one key per deposit, minted before the first
// attempt and sent with every retry.
func (c *Client) Deposit(ctx context.Context, body string) error {
	key := newKey()
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.BaseURL+"/deposits", strings.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", key)
		resp, doErr := c.HTTP.Do(req)
		if doErr == nil && resp.StatusCode < 500 {
			return resp.Body.Close()
		}
		time.Sleep(jitter(attempt))
	}
	return errTransient
}
