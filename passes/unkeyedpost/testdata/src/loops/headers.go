package loops

import (
	"context"
	"fmt"
	"net/http"
)

// A header built apart and given to the request: keyed when it carries a
// key, not when its names are other constants.
func headerGiven(ctx context.Context, c *http.Client, key string) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, nil)
		if err != nil {
			return err
		}
		h := http.Header{}
		h.Set("Idempotency-Key", key)
		req.Header = h
		if resp, err := c.Do(req); err == nil && resp.StatusCode < 500 {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

func headerGivenUnkeyed(ctx context.Context, c *http.Client) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, nil)
		if err != nil {
			return err
		}
		h := http.Header{"Content-Type": {"application/json"}}
		req.Header = h
		if resp, err := c.Do(req); err == nil && resp.StatusCode < 500 { // want `POST \(\*http\.Client\)\.Do in a retry has no idempotency key`
			return nil
		}
	}
	return fmt.Errorf("gave up")
}
