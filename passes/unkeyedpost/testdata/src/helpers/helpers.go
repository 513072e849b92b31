// Package helpers sends POSTs inside operations passed to an in-house retry
// helper of another package.
package helpers

import (
	"context"
	"net/http"
	"strings"

	"example.com/retrykit"
)

func create(ctx context.Context, c *http.Client) error {
	return retrykit.Do(ctx, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/orders", strings.NewReader("{}"))
		if err != nil {
			return err
		}
		_, err = c.Do(req) // want `POST \(\*http\.Client\)\.Do in retrykit\.Do has no idempotency key`
		return err
	})
}

// keyed is the look-alike: the key is minted once and sent on every attempt.
func keyed(ctx context.Context, c *http.Client, key string) error {
	return retrykit.Do(ctx, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/orders", strings.NewReader("{}"))
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", key)
		_, err = c.Do(req)
		return err
	})
}

// read is the other look-alike: a GET is idempotent.
func read(ctx context.Context, c *http.Client) error {
	return retrykit.Do(ctx, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://api.example.com/orders", nil)
		if err != nil {
			return err
		}
		_, err = c.Do(req)
		return err
	})
}
