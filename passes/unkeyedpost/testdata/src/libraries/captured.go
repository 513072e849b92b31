package libraries

import (
	"bytes"
	"context"
	"net/http"

	retrygo "github.com/avast/retry-go/v4"
)

// A request built before the retry, declared then assigned, sent by the
// retried closure that captures it; one keyed in the closure is not.
func capturedRequest(ctx context.Context, c *http.Client, body []byte) error {
	var req *http.Request
	var err error
	req, err = http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return err
	}
	return retrygo.Do(func() error {
		_, err := c.Do(req) // want `POST \(\*http\.Client\)\.Do in retry\.Do has no idempotency key`
		return err
	}, retrygo.Attempts(3))
}

func capturedKeyed(ctx context.Context, c *http.Client, key string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, nil)
	if err != nil {
		return err
	}
	return retrygo.Do(func() error {
		req.Header.Set("Idempotency-Key", key)
		_, err := c.Do(req)
		return err
	}, retrygo.Attempts(3))
}
