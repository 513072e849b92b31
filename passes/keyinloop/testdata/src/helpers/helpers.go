// Package helpers mints keys inside operations passed to an in-house retry
// helper of another package.
package helpers

import (
	"context"
	"net/http"
	"strings"

	"example.com/retrykit"
	"github.com/google/uuid"
)

func charge(ctx context.Context, c *http.Client) error {
	return retrykit.Do(ctx, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/charges", strings.NewReader("{}"))
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", uuid.NewString()) // want `uuid\.NewString mints a new key for the Idempotency-Key header on every attempt`
		_, err = c.Do(req)
		return err
	})
}

// chargeOnce is the look-alike: the key is minted once, before the helper.
func chargeOnce(ctx context.Context, c *http.Client) error {
	key := uuid.NewString()
	return retrykit.Do(ctx, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/charges", strings.NewReader("{}"))
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", key)
		_, err = c.Do(req)
		return err
	})
}

// perItem is the other look-alike: a helper that does not retry.
func perItem(c *http.Client, items []string) error {
	return retrykit.Each(items, func(s string) error {
		req, err := http.NewRequest(http.MethodPost, "https://api.example.com/items", strings.NewReader(s))
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", uuid.NewString())
		_, err = c.Do(req)
		return err
	})
}
