package fixes

import (
	"bytes"
	"fmt"
	"net/http"

	retrygo "github.com/avast/retry-go/v4"
	"github.com/hashicorp/go-retryablehttp"
)

const endpoint = "https://api.example.com/payments"

func loop(c *http.Client, body []byte) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequest(http.MethodPost, endpoint, bytes.NewReader(body))
		if err != nil {
			return err
		}
		if _, err := c.Do(req); err == nil { // want `POST .*has no idempotency key`
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

func library(c *http.Client, key int) error {
	return retrygo.Do(func() error {
		req, err := http.NewRequest("PATCH", endpoint, nil)
		if err != nil {
			return err
		}
		_, err = c.Do(req) // want `PATCH .*has no idempotency key`
		return err
	})
}

func builtBefore(c *http.Client) error {
	req, err := http.NewRequest(http.MethodPost, endpoint, nil)
	if err != nil {
		return err
	}
	for attempt := 0; attempt < 3; attempt++ {
		if _, err := c.Do(req); err == nil { // want `POST .*has no idempotency key`
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

func client() error {
	c := retryablehttp.NewClient()
	req, err := retryablehttp.NewRequest("POST", endpoint, nil)
	if err != nil {
		return err
	}
	_, err = c.Do(req) // want `POST .*has no idempotency key`
	return err
}

// No fix: the request may be nil where the header would be set.
func unchecked(c *http.Client) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequest(http.MethodPost, endpoint, nil)
		if _, doErr := c.Do(req); doErr == nil && err == nil { // want `POST .*has no idempotency key`
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// No fix: no request to key.
func post() error {
	for attempt := 0; attempt < 3; attempt++ {
		if _, err := http.Post(endpoint, "", nil); err == nil { // want `POST .*has no idempotency key`
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// twoRequests sends two different POSTs in one retry: each gets a key of
// its own, or the server would reject the second as a reused key.
func twoRequests(c *http.Client, body []byte) error {
	for attempt := 0; attempt < 3; attempt++ {
		charge, err := http.NewRequest(http.MethodPost, endpoint, bytes.NewReader(body))
		if err != nil {
			return err
		}
		if _, err := c.Do(charge); err != nil { // want `POST .*has no idempotency key`
			continue
		}
		ship, err := http.NewRequest(http.MethodPost, endpoint+"/shipments", bytes.NewReader(body))
		if err != nil {
			return err
		}
		if _, err := c.Do(ship); err == nil { // want `POST .*has no idempotency key`
			return nil
		}
	}
	return fmt.Errorf("gave up")
}
