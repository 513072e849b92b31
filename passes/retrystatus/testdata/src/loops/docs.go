package loops

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/idemlint/idemlint/runtime/retry"
)

func backoff(attempt int) time.Duration { return time.Duration(attempt) * time.Second }

// The examples of docs/retrystatus.md.

func docsReported(client *http.Client, req *http.Request) (*http.Response, error) {
	for attempt := 0; attempt < 4; attempt++ {
		resp, err := client.Do(req)
		if err == nil && resp.StatusCode == http.StatusOK { // want `retry loop retries every 4xx but 408 and 429` `429 without reading Retry-After`
			return resp, nil
		}
		time.Sleep(backoff(attempt))
	}
	return nil, errStatus
}

func docsFixed(client *http.Client, req *http.Request) (*http.Response, error) {
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		var resp *http.Response
		resp, err = client.Do(req)
		if err == nil {
			if err = retry.ResponseError(resp); err == nil {
				return resp, nil
			}
			resp.Body.Close()
			if retry.Classify(err) == retry.ClassPermanent {
				return nil, err
			}
		}
		delay := backoff(attempt)
		var se *retry.StatusError
		if errors.As(err, &se) && se.RetryAfter > 0 {
			delay = se.RetryAfter
		}
		time.Sleep(delay)
	}
	return nil, err
}

func docsRuntime(ctx context.Context, client *http.Client, req *http.Request) error {
	return retry.Do(ctx, retry.Policy{}, func(ctx context.Context) error {
		resp, err := client.Do(req.WithContext(ctx))
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		return retry.ResponseError(resp)
	})
}

// A 4xx turned into a runtime/retry.ResponseError and retried by hand.
func responseErrorRetried(client *http.Client, req *http.Request) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		var resp *http.Response
		resp, err = client.Do(req)
		if err == nil {
			err = retry.ResponseError(resp) // want `retry loop retries every 4xx but 408 and 429` `429 without reading Retry-After`
			resp.Body.Close()
		}
		if err == nil {
			return nil
		}
		time.Sleep(backoff(attempt))
	}
	return err
}
