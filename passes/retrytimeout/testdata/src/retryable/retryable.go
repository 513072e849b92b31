package retryable

import (
	"context"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// Positives: a go-retryablehttp client retries on its own, through an
// http.Client with no Timeout.

func packageGet(url string) error {
	resp, err := retryablehttp.Get(url) // want `retryablehttp\.Get can hang on every retry: no HTTPClient\.Timeout, no context deadline; set either`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func clientDo(url string) error {
	c := retryablehttp.NewClient()
	c.RetryMax = 3
	req, err := retryablehttp.NewRequest("GET", url, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req) // want `\(\*retryablehttp\.Client\)\.Do can hang on every retry: no HTTPClient\.Timeout, no context deadline`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func clientGet(url string) error {
	c := retryablehttp.NewClient()
	resp, err := c.Get(url) // want `\(\*retryablehttp\.Client\)\.Get can hang on every retry: no HTTPClient\.Timeout, no context deadline`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Look-alikes: not reported.

func withTimeout(url string) error {
	c := retryablehttp.NewClient()
	c.HTTPClient = &http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func withDeadline(url string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := retryablehttp.NewClient()
	req, err := retryablehttp.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func callersContext(ctx context.Context, url string) error {
	c := retryablehttp.NewClient()
	req, err := retryablehttp.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func noRetries(url string) error {
	c := retryablehttp.NewClient()
	c.RetryMax = 0
	resp, err := c.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func fromElsewhere(c *retryablehttp.Client, url string) error {
	resp, err := c.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
