package loops

import (
	"bytes"
	"fmt"
	"net/http"
)

// A request built on either branch: a POST on both is retried unkeyed.
func branches(c *http.Client, body []byte) error {
	for attempt := 0; attempt < 3; attempt++ {
		var req *http.Request
		var err error
		if body != nil {
			req, err = http.NewRequest(http.MethodPost, endpoint, bytes.NewReader(body))
		} else {
			req, err = http.NewRequest(http.MethodPost, endpoint, nil)
		}
		if err != nil {
			return err
		}
		if resp, err := c.Do(req); err == nil && resp.StatusCode < 500 { // want `POST \(\*http\.Client\)\.Do in a retry has no idempotency key`
			return nil
		}
	}
	return fmt.Errorf("gave up")
}
