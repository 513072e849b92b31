package loops

import (
	"context"
	"fmt"
	"net/http"
)

// The method set on the request after it is built is the one sent: a GET
// made a POST is retried unkeyed, a POST made a GET is not a POST.
func methodSetPost(ctx context.Context, c *http.Client) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, endpoint, nil)
		if err != nil {
			return err
		}
		req.Method = http.MethodPost
		if resp, err := c.Do(req); err == nil && resp.StatusCode < 500 { // want `POST \(\*http\.Client\)\.Do in a retry has no idempotency key`
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

func methodSetGet(ctx context.Context, c *http.Client) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, nil)
		if err != nil {
			return err
		}
		method := http.MethodGet
		req.Method = method
		if resp, err := c.Do(req); err == nil && resp.StatusCode < 500 {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}
