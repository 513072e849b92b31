// Package options holds retries configured the way real code configures
// them: options assembled in slices and variables, settings written after
// construction, and the jittered strategies of the retry libraries.
package options

import (
	"bytes"
	"context"
	"net/http"
	"time"

	rican "github.com/Rican7/retry"
	ricanbackoff "github.com/Rican7/retry/backoff"
	ricanjitter "github.com/Rican7/retry/jitter"
	ricanstrategy "github.com/Rican7/retry/strategy"
	avast "github.com/avast/retry-go/v4"
	cenkalti "github.com/cenkalti/backoff/v4"
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	"github.com/google/uuid"
	"github.com/hashicorp/go-retryablehttp"
	sethvargo "github.com/sethvargo/go-retry"
)

func call(ctx context.Context) error { return nil }

// retryOptions returns the package's retry-go options: capped, with an
// exponential delay plus a random one, bound to ctx.
func retryOptions(ctx context.Context) []avast.Option {
	opts := []avast.Option{avast.Attempts(4), avast.MaxDelay(3 * time.Second)}
	opts = append(opts, avast.DelayType(avast.CombineDelay(avast.BackOffDelay, avast.RandomDelay)), avast.MaxJitter(250*time.Millisecond))
	return append(opts, avast.Context(ctx))
}

// Sync retries with options a helper assembles in a slice.
//
// lookalike nojitter,unboundedretry kafkago-join-group: a join retried after a configured constant backoff
func Sync(ctx context.Context) error {
	return avast.Do(func() error { return call(ctx) }, retryOptions(ctx)...)
}

// expOpts are the package's exponential backoff settings: the default
// randomisation factor (0.5) kept, the elapsed time capped.
var expOpts = []cenkalti.ExponentialBackOffOpts{
	cenkalti.WithInitialInterval(200 * time.Millisecond),
	cenkalti.WithMaxInterval(5 * time.Second),
	cenkalti.WithMaxElapsedTime(time.Minute),
}

// Register retries with cenkalti's backoff built from an option variable.
//
// lookalike nojitter,unboundedretry autorest-retry-attempts-nojitter: a registration retried at a fixed delay
func Register(ctx context.Context) error {
	b := cenkalti.NewExponentialBackOff(expOpts...)
	return cenkalti.Retry(func() error { return call(ctx) }, cenkalti.WithContext(b, ctx))
}

// Randomized sets the randomisation factor after construction.
//
// lookalike nojitter cloudevents-retry-nojitter: an exponential backoff whose jitter is turned off
func Randomized(ctx context.Context) error {
	b := cenkalti.NewExponentialBackOff()
	b.RandomizationFactor = 0.3
	b.MaxElapsedTime = 30 * time.Second
	return cenkalti.Retry(func() error { return call(ctx) }, cenkalti.WithContext(cenkalti.WithMaxRetries(b, 5), ctx))
}

// Failsafe retries with failsafe-go's exponential backoff, jittered and
// capped.
//
// lookalike nojitter,unboundedretry passes/nojitter/testdata/src/libraries: failsafe-go's WithBackoff without jitter
func Failsafe(ctx context.Context) error {
	policy := retrypolicy.NewBuilder[any]().
		WithMaxRetries(3).
		WithBackoff(100*time.Millisecond, 2*time.Second).
		WithJitterFactor(0.25).
		Build()
	return failsafe.With[any](policy).Run(func() error { return call(ctx) })
}

// Sethvargo retries with full jitter, a cap of retries and a maximum
// duration.
//
// lookalike nojitter,unboundedretry passes/nojitter/testdata/src/libraries: go-retry's exponential backoff without jitter
func Sethvargo(ctx context.Context) error {
	b := sethvargo.NewExponential(100 * time.Millisecond)
	b = sethvargo.WithFullJitter(b)
	b = sethvargo.WithMaxRetries(4, b)
	b = sethvargo.WithMaxDuration(20*time.Second, b)
	return sethvargo.Do(ctx, b, func(ctx context.Context) error {
		if err := call(ctx); err != nil {
			return sethvargo.RetryableError(err)
		}
		return nil
	})
}

// Rican retries with a limit and a jittered exponential strategy.
//
// lookalike nojitter,unboundedretry passes/nojitter/testdata/src/libraries: Rican7/retry's Backoff strategy without jitter
func Rican(ctx context.Context) error {
	return rican.Retry(func(uint) error { return call(ctx) },
		ricanstrategy.Limit(5),
		ricanstrategy.BackoffWithJitter(ricanbackoff.BinaryExponential(50*time.Millisecond), ricanjitter.Full(nil)))
}

// idempotentOnly is a CheckRetry that retries what the default policy
// retries, but only for requests that are safe to send again: a method
// other than POST and PATCH, or one that carries an idempotency key.
func idempotentOnly(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if resp != nil && resp.Request != nil {
		r := resp.Request
		if (r.Method == http.MethodPost || r.Method == http.MethodPatch) && r.Header.Get("Idempotency-Key") == "" {
			return false, err
		}
	}
	return retryablehttp.DefaultRetryPolicy(ctx, resp, err)
}

// Notify POSTs through a retryablehttp client whose CheckRetry, set after
// construction, retries a POST only when it is keyed, as this one is.
//
// lookalike unkeyedpost,nojitter,retrytimeout retryablehttp-do-unkeyed: retryablehttp's default policy retrying a POST
func Notify(ctx context.Context, url string, body []byte) error {
	c := retryablehttp.NewClient()
	c.CheckRetry = idempotentOnly
	c.Backoff = retryablehttp.LinearJitterBackoff
	c.HTTPClient.Timeout = 10 * time.Second
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", uuid.NewString())
	resp, err := c.StandardClient().Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
