// Package copiedset gives the retrying clients' HTTPClient a Timeout: a
// copy of a client the package sets a Timeout on, a default when the copy
// is 0, a Timeout or a Transport of its own.
package copiedset

import (
	"context"
	"net/http"
	"time"

	"github.com/hashicorp/go-cleanhttp"
	"github.com/hashicorp/go-retryablehttp"
	"golang.org/x/oauth2"
)

// The caller sets a Timeout on the oauth2 client before passing it.
func newRetrying(hc *http.Client) *http.Client {
	rc := retryablehttp.NewClient()
	rc.HTTPClient.Timeout = hc.Timeout
	return rc.StandardClient()
}

func FromToken(token string) *http.Client {
	hc := oauth2.NewClient(context.Background(), oauth2.StaticTokenSource(&oauth2.Token{AccessToken: token}))
	hc.Timeout = 30 * time.Second
	return newRetrying(hc)
}

// A default when the copied Timeout is 0.
func defaulted(hc *http.Client) *http.Client {
	rc := retryablehttp.NewClient()
	rc.HTTPClient.Timeout = hc.Timeout
	if rc.HTTPClient.Timeout == 0 {
		rc.HTTPClient.Timeout = time.Minute
	}
	return rc.StandardClient()
}

func Defaulted() *http.Client { return defaulted(http.DefaultClient) }

// A local client given a Timeout, sent at once.
func localTimeout(url string) error {
	rc := retryablehttp.NewClient()
	rc.HTTPClient.Timeout = 5 * time.Second
	resp, err := rc.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// cleanhttp's default client, given a Timeout.
func pooledTimeout(url string) error {
	rc := retryablehttp.NewClient()
	rc.HTTPClient = cleanhttp.DefaultPooledClient()
	rc.HTTPClient.Timeout = 10 * time.Second
	resp, err := rc.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// A Transport of its own, which may bound each attempt.
func withTransport(url string, rt http.RoundTripper) error {
	rc := retryablehttp.NewClient()
	rc.HTTPClient.Transport = rt
	resp, err := rc.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
