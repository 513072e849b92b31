package fixstd

import (
	"fmt"
	"net/http"
)

func loop(c *http.Client) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequest(http.MethodPost, "https://api.example.com", nil)
		if err != nil {
			return err
		}
		if _, err := c.Do(req); err == nil { // want `POST .*has no idempotency key`
			return nil
		}
	}
	return fmt.Errorf("gave up")
}
