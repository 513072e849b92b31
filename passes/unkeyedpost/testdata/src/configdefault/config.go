package configdefault

import (
	"fmt"
	"net/http"
)

// Without -key-headers, X-Dedup-Key is not a key.
func dedup(c *http.Client, key string) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequest(http.MethodPost, "https://api.example.com", nil)
		if err != nil {
			return err
		}
		req.Header.Set("X-Dedup-Key", key)
		if _, err := c.Do(req); err == nil { // want `POST .*has no idempotency key`
			return nil
		}
	}
	return fmt.Errorf("gave up")
}
