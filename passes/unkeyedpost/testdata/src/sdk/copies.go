package sdk

import (
	"context"
	"net/http"
	"time"
)

// HeaderAPI's sending helper copies the client's headers and the headers
// its callers give into the request (cloudflare-go's copyHeader): the
// request carries a key only when what is copied does.
type HeaderAPI struct {
	hc      *http.Client
	headers http.Header
}

func copyHeader(target, source http.Header) {
	for k, vs := range source {
		target[k] = vs
	}
}

func (a *HeaderAPI) request(ctx context.Context, method, path string, headers http.Header) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, "https://api.example.com"+path, nil)
	if err != nil {
		return nil, err
	}
	combined := make(http.Header)
	copyHeader(combined, a.headers)
	copyHeader(combined, headers)
	req.Header = combined
	return a.hc.Do(req)
}

// makeRequest retries every method its callers pass, with their headers;
// Upload passes a POST and headers of constant names, none a key.
func (a *HeaderAPI) makeRequest(ctx context.Context, method, path string, headers http.Header) (*http.Response, error) {
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		resp, err = a.request(ctx, method, path, headers) // want `POST \(\*HeaderAPI\).request in a retry has no idempotency key`
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, err
}

func (a *HeaderAPI) Upload(ctx context.Context, length string) error {
	headers := http.Header{}
	headers.Set("Upload-Length", length)
	_, err := a.makeRequest(ctx, http.MethodPost, "/uploads", headers)
	return err
}

// Look-alikes: the same helper, given a key by the caller that passes the
// POST, or the caller's own headers.

func (a *HeaderAPI) keyedRetry(ctx context.Context, method, path string, headers http.Header) (*http.Response, error) {
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		resp, err = a.request(ctx, method, path, headers)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, err
}

func (a *HeaderAPI) CreateKeyed(ctx context.Context, key string) error {
	_, err := a.keyedRetry(ctx, http.MethodPost, "/records", http.Header{"Idempotency-Key": {key}})
	return err
}

func (a *HeaderAPI) CreateKeyedLocal(ctx context.Context, key string) error {
	h := make(http.Header)
	h.Set("Idempotency-Key", key)
	_, err := a.keyedRetry(ctx, http.MethodPost, "/records", h)
	return err
}

func (a *HeaderAPI) rawRetry(ctx context.Context, method, path string, headers http.Header) (*http.Response, error) {
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		resp, err = a.request(ctx, method, path, headers)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, err
}

// Raw sends the caller's headers, which may hold their key.
func (a *HeaderAPI) Raw(ctx context.Context, path string, headers http.Header) error {
	_, err := a.rawRetry(ctx, http.MethodPost, path, headers)
	return err
}

// Merged copies a header map the caller hands in, with copyHeader, into
// the one it sends: the caller's key travels with it.
func (a *HeaderAPI) Merged(ctx context.Context, path string, extra http.Header) error {
	h := make(http.Header)
	copyHeader(h, extra)
	_, err := a.rawRetry(ctx, http.MethodPost, path, h)
	return err
}
