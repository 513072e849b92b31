package copied

import (
	"context"
	"net/http"
	"time"

	"github.com/hashicorp/go-cleanhttp"
	"github.com/hashicorp/go-retryablehttp"
	"golang.org/x/oauth2"
)

// Positives: the package's own callers pass clients without a Timeout.

func newRetrying(hc *http.Client) *http.Client {
	rc := retryablehttp.NewClient()
	rc.HTTPClient.Timeout = hc.Timeout // want `copied hc\.Timeout is 0 \(cleanhttp\.DefaultPooledClient\(\) of DefaultRetrying\): no attempt times out; default it when 0`
	return rc.StandardClient()
}

func DefaultRetrying() *http.Client { return newRetrying(cleanhttp.DefaultPooledClient()) }

// A local send: judged at the send, the copied Timeout being none.
func localGet(url string) error {
	rc := retryablehttp.NewClient()
	rc.HTTPClient.Timeout = http.DefaultClient.Timeout
	resp, err := rc.Get(url) // want `\(\*retryablehttp\.Client\)\.Get can hang on every retry: no HTTPClient\.Timeout, no context deadline; set either`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Look-alikes: not reported.

// A caller passing a client with a Timeout.
func timedRetrying(hc *http.Client) *http.Client {
	rc := retryablehttp.NewClient()
	rc.HTTPClient.Timeout = hc.Timeout
	return rc.StandardClient()
}

func TimedRetrying() *http.Client { return timedRetrying(&http.Client{Timeout: 10 * time.Second}) }

// No caller in the package: the users choose the client.
func Wrap(hc *http.Client) *http.Client {
	rc := retryablehttp.NewClient()
	rc.HTTPClient.Timeout = hc.Timeout
	return rc.StandardClient()
}

// An oauth2 client over a context that carries a client of its own (whose
// Timeout oauth2 may take).
func contextRetrying(hc *http.Client) *http.Client {
	rc := retryablehttp.NewClient()
	rc.HTTPClient.Timeout = hc.Timeout
	return rc.StandardClient()
}

func ContextRetrying(ts oauth2.TokenSource) *http.Client {
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, &http.Client{Timeout: 10 * time.Second})
	return contextRetrying(oauth2.NewClient(ctx, ts))
}

// No retries.
func onceRetrying(hc *http.Client) *http.Client {
	rc := retryablehttp.NewClient()
	rc.RetryMax = 0
	rc.HTTPClient.Timeout = hc.Timeout
	return rc.StandardClient()
}

func OnceRetrying() *http.Client { return onceRetrying(http.DefaultClient) }

// A local send whose request has a deadline.
func localDeadline(url string) error {
	rc := retryablehttp.NewClient()
	rc.HTTPClient.Timeout = http.DefaultClient.Timeout
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := rc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// A local send whose copied Timeout is a client's with one.
func localTimed(url string) error {
	hc := &http.Client{Timeout: 5 * time.Second}
	rc := retryablehttp.NewClient()
	rc.HTTPClient.Timeout = hc.Timeout
	resp, err := rc.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
