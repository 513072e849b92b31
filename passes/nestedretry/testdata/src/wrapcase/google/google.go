// Package google is go-containerregistry's pkg/v1/google shape: List
// sends through a client whose transport retries (transport.NewRetry,
// wrapped by the registry's authenticating transport).
package google

import (
	"context"
	"net/http"
	"time"

	"wrapcase/retry"
	"wrapcase/transport"
)

type lister struct {
	transport http.RoundTripper
	client    *http.Client
}

type Option func(*lister)

// WithTransport sets the transport to wrap.
func WithTransport(t http.RoundTripper) Option { return func(l *lister) { l.transport = t } }

type authTransport struct{ inner http.RoundTripper }

func (a *authTransport) RoundTrip(in *http.Request) (*http.Response, error) {
	in.Header.Set("Authorization", "Bearer token")
	return a.inner.RoundTrip(in)
}

func newLister(opts ...Option) *lister {
	l := &lister{transport: http.DefaultTransport}
	for _, o := range opts {
		o(l)
	}
	l.transport = transport.NewRetry(l.transport)
	l.client = &http.Client{Transport: &authTransport{inner: l.transport}}
	return l
}

func (l *lister) list(url string) error { return l.get(context.Background(), url) }

// List lists a repository through the retrying transport.
func List(url string, opts ...Option) error {
	return newLister(opts...).list(url)
}

// ListLogged sends through a transport that only logs: one attempt.
func ListLogged(url string) error {
	c := &http.Client{Transport: transport.NewLogger(http.DefaultTransport)}
	resp, err := c.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// ListMaybe sends through transport.Wrap, which may not retry.
func ListMaybe(url string, retries bool) error {
	c := &http.Client{Transport: transport.Wrap(http.DefaultTransport, retries)}
	resp, err := c.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (l *lister) get(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := l.client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

var bo = retry.Backoff{Duration: time.Second, Factor: 3, Steps: 3}

// Fetch retries each GET whose transport retries too: two layers.
func Fetch(ctx context.Context, url string) error {
	l := newLister()
	return retry.Retry(func() error {
		return l.get(ctx, url) // want `\(\*wrapcase/google\.lister\)\.get reaches \(\*http\.Client\)\.Do, which retries by itself inside retry\.Retry; retry in one layer only`
	}, retry.IsNotNil, bo)
}

// FetchOnce runs each attempt under retry.Never(ctx), which the
// transport asks before it retries: one layer (ggcr's uploadOne).
func FetchOnce(ctx context.Context, url string) error {
	l := newLister()
	return retry.Retry(func() error {
		ctx := retry.Never(ctx)
		return l.get(ctx, url)
	}, retry.IsNotNil, bo)
}
