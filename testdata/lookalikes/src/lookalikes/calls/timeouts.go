// Package calls holds retried remote calls done right in the shapes of the
// recall corpus's retrytimeout and retrystatus bugs: every attempt has a
// timeout (on the client, on the context, per attempt), and only transient
// statuses are retried, with Retry-After honoured.
package calls

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	avast "github.com/avast/retry-go/v4"
	cenkalti "github.com/cenkalti/backoff/v4"
	"github.com/hashicorp/go-retryablehttp"
	"github.com/idemlint/idemlint/runtime/retry"
)

func check(resp *http.Response, err error) error {
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return retry.ResponseError(resp)
}

// apiClient is the package's client, with a timeout.
var apiClient = &http.Client{Timeout: 10 * time.Second}

// FetchRetryGo retries a GET through a client with a timeout.
//
// lookalike retrytimeout passes/retrytimeout/testdata/src/timeouts/libraries.go: http.Get in a retry with no timeout
func FetchRetryGo(url string) error {
	return avast.Do(func() error {
		return check(apiClient.Get(url))
	}, avast.Attempts(3), avast.RetryIf(func(err error) bool { return retry.Classify(err) == retry.ClassTransient }))
}

// FetchAttemptTimeout gives each attempt its own deadline.
//
// lookalike retrytimeout datadog-callapi-timeout: each attempt on the caller's context, the deadline only read between attempts
func FetchAttemptTimeout(ctx context.Context, url string) error {
	return avast.Do(func() error {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		return check(http.DefaultClient.Do(req))
	}, avast.Attempts(3), avast.Context(ctx))
}

// FetchCenkalti builds the request inside the operation on a context with
// a deadline.
//
// lookalike retrytimeout passes/retrytimeout/testdata/src/timeouts/libraries.go: a request built outside the retry, off its deadline
func FetchCenkalti(url string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	op := func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		return check(http.DefaultClient.Do(req))
	}
	return cenkalti.Retry(op, cenkalti.WithContext(cenkalti.WithMaxRetries(cenkalti.NewExponentialBackOff(), 3), ctx))
}

// Client is an SDK client whose constructor sets a timeout on the
// retrying client it stores.
type Client struct {
	rc *retryablehttp.Client
}

// NewClient builds the SDK's retrying client with a timeout and jitter.
func NewClient() *Client {
	rc := retryablehttp.NewClient()
	rc.HTTPClient = &http.Client{Timeout: 20 * time.Second}
	rc.Backoff = retryablehttp.LinearJitterBackoff
	return &Client{rc: rc}
}

// Do sends a GET through the stored client.
//
// lookalike retrytimeout gitlab-client-timeout: a retrying client built in the constructor without a timeout
func (c *Client) Do(ctx context.Context, url string) ([]byte, error) {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.rc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

// copyClient copies the caller's client with a timeout of its own.
func copyClient(hc *http.Client) *http.Client {
	c := *hc
	if c.Timeout == 0 {
		c.Timeout = 30 * time.Second
	}
	return &c
}

// FetchCopied retries through a copy of the caller's client that is given
// a timeout when it has none.
//
// lookalike retrytimeout godo-retry-timeout: a client whose Timeout is copied from one that has none
func FetchCopied(ctx context.Context, hc *http.Client, url string) error {
	c := copyClient(hc)
	return retry.Do(ctx, retry.Policy{MaxAttempts: 3, Deadline: time.Minute}, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		return check(c.Do(req))
	})
}

// FetchDoPolicy relies on retry.Do's AttemptTimeout for each attempt.
//
// lookalike retrytimeout cloudevents-retry-timeout: each attempt with no timeout of its own
func FetchDoPolicy(ctx context.Context, url string) error {
	return retry.Do(ctx, retry.Policy{MaxAttempts: 4, AttemptTimeout: 3 * time.Second, Deadline: 15 * time.Second}, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		return check(http.DefaultClient.Do(req))
	})
}

// FetchHandLoop sets a timeout on the client it builds for the loop.
//
// lookalike retrytimeout rollbar-sync-timeout: a hand-written retry loop around a client without a timeout
func FetchHandLoop(ctx context.Context, url string) error {
	hc := &http.Client{}
	hc.Timeout = 8 * time.Second
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var req *http.Request
		if req, err = http.NewRequestWithContext(ctx, http.MethodGet, url, nil); err != nil {
			return err
		}
		if err = check(hc.Do(req)); err == nil || retry.Classify(err) != retry.ClassTransient {
			return err
		}
		time.Sleep(retry.Jitter(time.Second << attempt))
	}
	return fmt.Errorf("fetch %s: %w", url, err)
}
