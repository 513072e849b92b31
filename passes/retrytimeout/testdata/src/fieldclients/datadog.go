package fieldclients

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// datadog-api-client-go's shape: an exported Configuration field the
// client constructor defaults, and a copy of the caller's request per
// attempt; the deadline of the loop's own context is never put on the
// request.
type Configuration struct {
	HTTPClient *http.Client
	Timeout    time.Duration
}

type APIClient struct {
	Cfg *Configuration
}

func NewAPIClient(cfg *Configuration) *APIClient {
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = http.DefaultClient
	}
	return &APIClient{Cfg: cfg}
}

func (c *APIClient) CallAPI(request *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithTimeout(request.Context(), c.Cfg.Timeout)
	defer cancel()
	var resp *http.Response
	var err error
	for i := 0; i < 4; i++ {
		newRequest := copyRequest(request)
		resp, err = c.Cfg.HTTPClient.Do(newRequest) // want `\(\*http.Client\).Do in a retry can hang: field HTTPClient has no Timeout by default; set one`
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		select {
		case <-ctx.Done():
			return resp, ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return resp, err
}

func copyRequest(r *http.Request) *http.Request {
	newRequest := *r
	return &newRequest
}

// The package's own helper puts a timeout on each copy: fine.
func (c *APIClient) CallAPIBounded(request *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		newRequest, cancel := boundedCopy(request)
		resp, err := c.Cfg.HTTPClient.Do(newRequest)
		cancel()
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("failed")
}

func boundedCopy(r *http.Request) (*http.Request, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
	return r.WithContext(ctx), cancel
}

// A field client with no timeout, but a per-attempt context.WithTimeout.
func (c *APIClient) CallAPITimed(ctx context.Context, url string) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		actx, cancel := context.WithTimeout(ctx, 5*time.Second)
		req, err := http.NewRequestWithContext(actx, http.MethodGet, url, nil)
		if err != nil {
			cancel()
			return nil, err
		}
		resp, err := c.Cfg.HTTPClient.Do(req)
		cancel()
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("failed")
}

// The request's context is one the function was not given: a
// package-level context the package may bound.
var baseCtx = context.Background()

func (c *APIClient) CallAPIBase(url string) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(baseCtx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		if resp, err := c.Cfg.HTTPClient.Do(req); err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("failed")
}
