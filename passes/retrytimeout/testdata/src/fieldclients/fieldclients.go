// Package fieldclients holds retry loops that send through an
// *http.Client in a struct field of the package's own type: the field
// holds what the package stores in it by default, and the request carries
// the caller's context, whose deadline spans all the attempts.
package fieldclients

import (
	"context"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/hashicorp/go-cleanhttp"
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
		resp, err := api.request(ctx, method, uri) // want `\(\*fieldclients.API\).request in a retry can hang: field httpClient has no Timeout by default, no deadline per attempt`
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
		resp, err = c.Cfg.HTTPClient.Do(newRequest) // want `\(\*http.Client\).Do in a retry can hang: field HTTPClient has no Timeout by default, no deadline per attempt`
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

// go-retryablehttp's shape: the constructor's literal and a lazy
// fallback, a request wrapping the caller's, copied between attempts.
type Request struct {
	body func() (io.Reader, error)
	*http.Request
}

type Client struct {
	HTTPClient *http.Client
	RetryMax   int
}

func NewClient() *Client {
	return &Client{HTTPClient: cleanhttp.DefaultPooledClient(), RetryMax: 4}
}

func (c *Client) Do(req *Request) (*http.Response, error) {
	if c.HTTPClient == nil {
		c.HTTPClient = cleanhttp.DefaultPooledClient()
	}
	for i := 0; ; i++ {
		resp, err := c.HTTPClient.Do(req.Request) // want `\(\*http.Client\).Do in a retry can hang: field HTTPClient has no Timeout by default, no deadline per attempt`
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if i == c.RetryMax {
			return resp, err
		}
		httpreq := *req.Request
		req.Request = &httpreq
		time.Sleep(time.Second)
	}
}

// A field the package never sets, copied to a local that falls back to
// http.DefaultClient.
type Lazy struct {
	Client *http.Client
}

func (l *Lazy) Get(ctx context.Context, url string) (*http.Response, error) {
	hc := l.Client
	if hc == nil {
		hc = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	for i := 0; i < 3; i++ {
		resp, err := hc.Do(req) // want `\(\*http.Client\).Do in a retry can hang: field Client has no Timeout by default, no deadline per attempt`
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("failed")
}

// Look-alikes.

// The constructor sets a Timeout.
type Timed struct {
	hc *http.Client
}

func NewTimed() *Timed {
	return &Timed{hc: &http.Client{Timeout: 10 * time.Second}}
}

func (t *Timed) Get(ctx context.Context, url string) error {
	return sendLoop(ctx, t.hc, url)
}

func (t *Timed) Do(req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		if resp, err := t.hc.Do(req); err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("failed")
}

func sendLoop(ctx context.Context, hc *http.Client, url string) error { return nil }

// The constructor sets a Transport, which may bound each attempt.
type Transported struct {
	hc *http.Client
}

func NewTransported() *Transported {
	return &Transported{hc: &http.Client{Transport: retry.NewTransport(nil, retry.Policy{AttemptTimeout: time.Second})}}
}

func (t *Transported) Do(req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		if resp, err := t.hc.Do(req); err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("failed")
}

// Only the caller's client is stored: no default of the package's.
type Given struct {
	hc *http.Client
}

func NewGiven(hc *http.Client) *Given { return &Given{hc: hc} }

func (g *Given) Do(req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		if resp, err := g.hc.Do(req); err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("failed")
}

// The package sets the default's Timeout later.
type Later struct {
	hc *http.Client
}

func NewLater(d time.Duration) *Later {
	l := &Later{hc: &http.Client{}}
	l.hc.Timeout = d
	return l
}

func (l *Later) Do(req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		if resp, err := l.hc.Do(req); err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("failed")
}

// The default is passed to a function, which may configure it.
type Configured struct {
	hc *http.Client
}

func NewConfigured() *Configured {
	c := &Configured{hc: &http.Client{}}
	configure(c.hc)
	return c
}

func configure(hc *http.Client) { hc.Timeout = 5 * time.Second }

func (c *Configured) Do(req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		if resp, err := c.hc.Do(req); err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("failed")
}

// A default that the model cannot judge: a function's result.
type Made struct {
	hc *http.Client
}

func NewMade() *Made { return &Made{hc: newHTTPClient()} }

func newHTTPClient() *http.Client { return &http.Client{Timeout: time.Minute} }

func (m *Made) Do(req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		if resp, err := m.hc.Do(req); err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("failed")
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
