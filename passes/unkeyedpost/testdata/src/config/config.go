package config

import (
	"fmt"
	"net/http"
)

// With -key-headers=X-Dedup-Key this request is keyed; without it, it
// has no key (TestConfig asserts that run too).
func dedup(c *http.Client, key string) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequest(http.MethodPost, "https://api.example.com", nil)
		if err != nil {
			return err
		}
		req.Header.Set("X-Dedup-Key", key)
		if _, err := c.Do(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}
