// Package fieldclients holds retry loops that send through an
// *http.Client in a struct field of the package's own type: the field
// holds what the package stores in it by default, and the request carries
// the caller's context, whose deadline spans all the attempts.
package fieldclients

import (
	"context"
	"net/http"
	"time"

	"github.com/idemlint/idemlint/runtime/retry"
)

// cloudflare-go's shape: a fallback to http.DefaultClient after the
// options, and a loop calling the package's request method.
type API struct {
	BaseURL    string
	httpClient *http.Client
}

type Option func(*API) error

// HTTPClient passes the caller's client on: a user's option.
func HTTPClient(client *http.Client) Option {
	return func(api *API) error {
		api.httpClient = client
		return nil
	}
}

func NewAPI(opts ...Option) *API {
	api := &API{BaseURL: "https://api.example.com"}
	for _, o := range opts {
		_ = o(api)
	}
	if api.httpClient == nil {
		api.httpClient = http.DefaultClient
	}
	return api
}

func (api *API) makeRequest(ctx context.Context, method, uri string) (*http.Response, error) {
	var err error
	for i := 0; i < 3; i++ {
		if i > 0 {
			time.Sleep(time.Duration(i) * time.Second)
		}
		resp, err := api.request(ctx, method, uri) // want `\(\*fieldclients.API\).request in a retry can hang: field httpClient has no Timeout by default; set one`
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
	}
	return nil, err
}

func (api *API) request(ctx context.Context, method, uri string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, api.BaseURL+uri, nil)
	if err != nil {
		return nil, err
	}
	return api.httpClient.Do(req)
}

// A per-attempt timeout: fine.
func (api *API) makeRequestTimed(ctx context.Context, method, uri string) (*http.Response, error) {
	var err error
	for i := 0; i < 3; i++ {
		actx, cancel := context.WithTimeout(ctx, 5*time.Second)
		resp, err := api.request(actx, method, uri)
		cancel()
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, err
}

// A deadline made above the loop and carried by each request: fine.
func (api *API) makeRequestDeadline(ctx context.Context, method, uri string) (*http.Response, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	var err error
	for i := 0; i < 3; i++ {
		resp, err := api.request(ctx, method, uri)
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, err
}

// The per-attempt context of runtime/retry.Do, whose Policy may bound
// each attempt: fine.
func (api *API) makeRequestRetry(ctx context.Context, uri string) error {
	return retry.Do(ctx, retry.Policy{AttemptTimeout: time.Second}, func(ctx context.Context) error {
		_, err := api.request(ctx, http.MethodGet, uri)
		return err
	})
}
