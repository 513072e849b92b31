package sdk

import (
	"context"
	"net/http"
	"time"
)

// API sends through request, a helper that builds and sends a request of
// the method it is given (cloudflare-go's api.request).
type API struct {
	hc *http.Client
}

func (a *API) request(ctx context.Context, method, path string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, "https://api.example.com"+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer token")
	return a.hc.Do(req)
}

// makeRequest retries every method its callers pass; CreateRecord passes
// a POST.
func (a *API) makeRequest(ctx context.Context, method, path string) (*http.Response, error) {
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		resp, err = a.request(ctx, method, path) // want `POST \(\*API\).request in a retry has no idempotency key`
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, err
}

func (a *API) CreateRecord(ctx context.Context) error {
	_, err := a.makeRequest(ctx, http.MethodPost, "/records")
	return err
}

// A constant PATCH passed to the helper inside the loop.
func (a *API) Rename(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		if _, err := a.request(ctx, http.MethodPatch, "/records/1"); err == nil { // want `PATCH \(\*API\).request in a retry has no idempotency key`
			return nil
		}
		time.Sleep(time.Second)
	}
	return nil
}

// Look-alikes.

// A retry its callers only give GETs.
func (a *API) readWithRetry(ctx context.Context, method, path string) (*http.Response, error) {
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		if resp, err = a.request(ctx, method, path); err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, err
}

func (a *API) ListRecords(ctx context.Context) error {
	_, err := a.readWithRetry(ctx, http.MethodGet, "/records")
	return err
}

// A sending helper that keys every request it sends.
func (a *API) keyedRequest(ctx context.Context, method, path, key string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, "https://api.example.com"+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Idempotency-Key", key)
	return a.hc.Do(req)
}

func (a *API) CreateKeyed(ctx context.Context, key string) error {
	for i := 0; i < 3; i++ {
		if _, err := a.keyedRequest(ctx, http.MethodPost, "/records", key); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return nil
}

// A POST sent once through the helper, outside any retry.
func (a *API) CreateOnce(ctx context.Context) error {
	_, err := a.request(ctx, http.MethodPost, "/records")
	return err
}
