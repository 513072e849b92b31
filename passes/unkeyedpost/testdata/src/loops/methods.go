package loops

import (
	"context"
	"fmt"
	"net/http"
)

// A method chosen on two paths, GET or POST: the POST is retried unkeyed.
func methodChosen(ctx context.Context, c *http.Client, create bool) error {
	method := http.MethodGet
	if create {
		method = http.MethodPost
	}
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, method, endpoint, nil)
		if err != nil {
			return err
		}
		if resp, err := c.Do(req); err == nil && resp.StatusCode < 500 { // want `POST \(\*http\.Client\)\.Do in a retry has no idempotency key`
			return nil
		}
	}
	return fmt.Errorf("gave up")
}
