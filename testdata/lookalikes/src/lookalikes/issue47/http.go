package issue47

import (
	"bytes"
	"context"
	"net/http"
	"time"

	avast "github.com/avast/retry-go/v4"
	"github.com/hashicorp/go-retryablehttp"
)

// PostWebhook POSTs once through a retryablehttp client whose RetryMax is
// set to 0 after construction: one attempt, nothing retried, no backoff.
//
// lookalike unkeyedpost,nojitter issue47: retryablehttp's RetryMax = 0 after construction, then a POST through StandardClient()
func PostWebhook(ctx context.Context, url string, body []byte) error {
	c := retryablehttp.NewClient()
	c.RetryMax = 0
	c.HTTPClient.Timeout = 10 * time.Second
	hc := c.StandardClient()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// fetchOnce is a one-attempt retry-go call: Attempts(1) is no layer.
func fetchOnce(ctx context.Context, url string) error {
	return avast.Do(func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, avast.Attempts(1), avast.Context(ctx))
}

// Refresh retries fetchOnce, whose own retry-go call makes one attempt.
//
// lookalike nestedretry issue47: an inner retry-go call with retry.Attempts(1) reported as a nested layer
func Refresh(ctx context.Context, url string) error {
	return avast.Do(func() error {
		return fetchOnce(ctx, url)
	}, avast.Attempts(4), avast.Delay(200*time.Millisecond), avast.MaxJitter(200*time.Millisecond), avast.Context(ctx))
}

// newRetryingClient builds a retryablehttp client with the retries its
// caller asks for, jittered, with a timeout.
func newRetryingClient(retries int) *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.RetryMax = retries
	c.Backoff = retryablehttp.LinearJitterBackoff
	c.HTTPClient.Timeout = 10 * time.Second
	return c
}

// Poll retries in its own layer over a client built with no retries: the
// value of RetryMax flows from the package's only call, newRetryingClient(0).
//
// lookalike nestedretry issue47: a client whose RetryMax flows from a parameter, 0 at the package's call site
func Poll(ctx context.Context, url string) error {
	c := newRetryingClient(0)
	return avast.Do(func() error {
		resp, err := c.Get(url)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, avast.Attempts(3), avast.Context(ctx))
}

// Settings are a service's HTTP settings, read from its configuration.
type Settings struct {
	Retries int
}

// Fetch retries over a client whose RetryMax comes from the caller's
// settings: the model cannot tell whether it retries, so no layer is
// reported (issue 47: unknown means silent).
//
// lookalike nestedretry issue47: a client whose settings flow from elsewhere taken for a retrying layer
func Fetch(ctx context.Context, s Settings, url string) error {
	c := retryablehttp.NewClient()
	c.RetryMax = s.Retries
	c.Backoff = retryablehttp.LinearJitterBackoff
	c.HTTPClient.Timeout = 10 * time.Second
	return avast.Do(func() error {
		resp, err := c.Get(url)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, avast.Attempts(3), avast.Context(ctx))
}
