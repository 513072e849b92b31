// Package layers holds retries done at one layer, in the shapes of the
// recall corpus's nestedretry bugs and nestedretry's test positives: the
// inner client is built to make one attempt (RetryMax = 0, Disable(),
// WithDisableRetry(), Never), or the outer loop wraps a call that does not
// retry by itself.
package layers

import (
	"context"
	"errors"
	"net/http"
	"time"

	avast "github.com/avast/retry-go/v4"
	cenkalti "github.com/cenkalti/backoff/v4"
	"github.com/hashicorp/go-retryablehttp"
	"github.com/idemlint/idemlint/runtime/retry"
)

// API is a client of a service, built on a retryablehttp client whose own
// retries are off: the service's methods retry, once, in retry.Do.
type API struct {
	http *http.Client
}

// NewAPI builds the client with retries turned off after construction.
//
// lookalike nojitter issue47: retryablehttp's RetryMax = 0 after construction, in a constructor
func NewAPI() *API {
	rc := retryablehttp.NewClient()
	rc.RetryMax = 0
	rc.HTTPClient.Timeout = 10 * time.Second
	return &API{http: rc.StandardClient()}
}

// Get retries the request in one layer, around a client that makes one
// attempt.
//
// lookalike nestedretry gitlab-do-unkeyed: a retryablehttp client in a field called from a retry
func (a *API) Get(ctx context.Context, url string) (*http.Response, error) {
	return retry.DoValue(ctx, retry.Policy{MaxAttempts: 3, Deadline: 20 * time.Second}, func(ctx context.Context) (*http.Response, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		resp, err := a.http.Do(req)
		if err != nil {
			return nil, err
		}
		if err := retry.ResponseError(resp); err != nil {
			resp.Body.Close()
			return nil, err
		}
		return resp, nil
	})
}

// LiteralClient uses a retryablehttp client built as a literal with
// RetryMax left at 0: one attempt.
//
// lookalike nestedretry passes/nestedretry/testdata/src/retryablehttpcase/retryablehttpcase.go: retryablehttp's Do inside a retry loop
func LiteralClient(req *retryablehttp.Request) error {
	c := &retryablehttp.Client{HTTPClient: &http.Client{Timeout: 5 * time.Second}, RetryMax: 0, CheckRetry: retryablehttp.DefaultRetryPolicy}
	return avast.Do(func() error {
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, avast.Attempts(3))
}

// charge is a function that retries by itself with retry.Do.
func charge(ctx context.Context) error {
	return retry.Do(ctx, retry.Policy{MaxAttempts: 4, Deadline: 10 * time.Second}, func(ctx context.Context) error {
		return nil
	})
}

// Settle calls charge inside another retry.Do: the inner Do sees the
// outer one's context and makes a single attempt.
//
// lookalike nestedretry passes/nestedretry/testdata/src/onelayer/onelayer.go: a retrying function called from a hand-written loop
func Settle(ctx context.Context) error {
	return retry.Do(ctx, retry.Policy{MaxAttempts: 3, Deadline: 30 * time.Second}, func(ctx context.Context) error {
		return charge(ctx)
	})
}

// Register retries its request by hand; the request goes through a plain
// client, one attempt each.
//
// lookalike nestedretry autorest-registration-nested: a registration retried around a retrying sender
func Register(ctx context.Context, url string) error {
	hc := &http.Client{Timeout: 5 * time.Second}
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, http.MethodPut, url, nil)
		if err != nil {
			return err
		}
		var resp *http.Response
		if resp, err = hc.Do(req); err == nil {
			err = retry.ResponseError(resp)
			resp.Body.Close()
			if err == nil {
				return nil
			}
		}
		if retry.Classify(err) == retry.ClassPermanent {
			return err
		}
		time.Sleep(retry.Jitter(time.Second << attempt))
	}
	return err
}

// renew is a single renewal call, no retry of its own.
func renew(ctx context.Context) error { return nil }

// Renew retries renew with cenkalti's backoff; renew does not retry.
//
// lookalike nestedretry vault-lifetime-nested: a renewal retried inside a retrying watcher
func Renew(ctx context.Context) error {
	b := cenkalti.WithMaxRetries(cenkalti.NewExponentialBackOff(), 5)
	return cenkalti.Retry(func() error { return renew(ctx) }, cenkalti.WithContext(b, ctx))
}

var errNotCoordinator = errors.New("not coordinator")

// refreshOnce is a one-attempt wrapper: its retry-go options come from a
// variable, and say one attempt.
func refreshOnce(ctx context.Context, refresh func() error) error {
	return avast.Do(refresh, oneAttempt...)
}

var oneAttempt = []avast.Option{avast.Attempts(1), avast.LastErrorOnly(true)}

// Coordinator retries a lookup whose helper makes one attempt, the
// helper's options in a package variable.
//
// lookalike nestedretry sarama-fetch-offset-nested: a lookup retried around a coordinator refresh that retries itself
func Coordinator(ctx context.Context, refresh, fetch func() error) error {
	return avast.Do(func() error {
		err := fetch()
		if errors.Is(err, errNotCoordinator) {
			if rerr := refreshOnce(ctx, refresh); rerr != nil {
				return rerr
			}
		}
		return err
	}, avast.Attempts(4), avast.Context(ctx))
}
