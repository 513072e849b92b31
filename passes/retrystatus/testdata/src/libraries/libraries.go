package libraries

import (
	"context"
	"errors"
	"net/http"

	retrygo "github.com/avast/retry-go/v4"
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	resty "github.com/go-resty/resty/v2"
	"github.com/hashicorp/go-retryablehttp"
	resty3 "resty.dev/v3"
)

// StatusError is an HTTP status as an error.
type StatusError struct{ StatusCode int }

func (e *StatusError) Error() string { return "status" }

// resty

func restyNon200() {
	c := resty.New().SetRetryCount(3)
	c.AddRetryCondition(func(r *resty.Response, err error) bool {
		return r.StatusCode() != 200 // want `retry condition retries every 4xx but 408 and 429; retry only 408, 429, 502, 503 and 504, as retry\.Classify does`
	})
}

func restyIsError() {
	resty.New().SetRetryCount(3).AddRetryCondition(func(r *resty.Response, err error) bool {
		return err != nil || r.IsError() // want `retry condition retries every 4xx but 408 and 429`
	})
}

func restyAfterError() {
	resty.New().SetRetryCount(3).AddRetryAfterErrorCondition() // want `AddRetryAfterErrorCondition retries every status >= 400; retry only 408, 429, 502, 503 and 504 instead`
}

func restyRequest404(c *resty.Client) {
	c.R().AddRetryCondition(func(r *resty.Response, err error) bool {
		if err != nil {
			return true
		}
		if r.StatusCode() == http.StatusNotFound { // want `retry condition retries 404, a permanent status`
			return true
		}
		return r.StatusCode() >= 500
	})
}

func resty3Conditions() {
	resty3.New().AddRetryConditions(func(r *resty3.Response, err error) bool {
		return r.StatusCode() >= 400 // want `retry condition retries every 4xx but 408 and 429`
	})
}

func restyTransient() {
	resty.New().SetRetryCount(3).AddRetryCondition(func(r *resty.Response, err error) bool {
		return err != nil || r.StatusCode() >= 500 || r.StatusCode() == http.StatusTooManyRequests
	})
}

func restyHelper(r *resty.Response) bool { return r.StatusCode() == 503 }

func restyNamed() {
	resty.New().SetRetryCount(3).AddRetryCondition(func(r *resty.Response, err error) bool {
		return restyHelper(r) // a helper decides: not followed
	})
}

// retry-go

func retryGoNon2xx(op func() error) error {
	return retrygo.Do(op, retrygo.RetryIf(func(err error) bool {
		var se *StatusError
		if errors.As(err, &se) {
			return se.StatusCode < 200 || se.StatusCode > 299 // want `RetryIf predicate retries every 4xx but 408 and 429`
		}
		return true
	}))
}

func retryGoAssertion(op func() error) error {
	return retrygo.Do(op, retrygo.RetryIf(func(err error) bool {
		se, ok := err.(*StatusError)
		if !ok {
			return true
		}
		return se.StatusCode == 401 || se.StatusCode >= 500 // want `RetryIf predicate retries 401, a permanent status`
	}))
}

func retryGoTransient(op func() error) error {
	return retrygo.Do(op, retrygo.RetryIf(func(err error) bool {
		var se *StatusError
		if errors.As(err, &se) {
			return se.StatusCode >= 500 || se.StatusCode == 429
		}
		return true
	}))
}

func retryGoNoStatus(op func() error) error {
	return retrygo.Do(op, retrygo.RetryIf(func(err error) bool {
		return !errors.Is(err, context.Canceled)
	}))
}

// failsafe-go

func failsafeHandleIf(op func() (*http.Response, error)) {
	p := retrypolicy.NewBuilder[*http.Response]().
		HandleIf(func(resp *http.Response, err error) bool {
			return err != nil || resp.StatusCode >= 400 // want `HandleIf predicate retries every 4xx but 408 and 429`
		}).
		WithMaxRetries(3).
		Build()
	_, _ = failsafe.With[*http.Response](p).Get(op)
}

func failsafeTransient(op func() (*http.Response, error)) {
	p := retrypolicy.NewBuilder[*http.Response]().
		HandleIf(func(resp *http.Response, err error) bool {
			if err != nil {
				return true
			}
			switch resp.StatusCode {
			case 502, 503, 504:
				return true
			}
			return false
		}).
		Build()
	_, _ = failsafe.With[*http.Response](p).Get(op)
}

// go-retryablehttp

func checkRetry4xx(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if err != nil {
		return true, nil
	}
	if resp.StatusCode == 403 || resp.StatusCode >= 500 { // want `CheckRetry policy retries 403, a permanent status`
		return true, nil
	}
	return false, nil
}

func retryableCustom() {
	c := retryablehttp.NewClient()
	c.CheckRetry = checkRetry4xx
	c2 := &retryablehttp.Client{
		RetryMax: 3,
		CheckRetry: func(ctx context.Context, resp *http.Response, err error) (bool, error) {
			if err != nil {
				return true, err
			}
			return resp.StatusCode != http.StatusOK, nil // want `CheckRetry policy retries every 4xx but 408 and 429`
		},
	}
	_ = c2
}

func retryableDefault() {
	c := retryablehttp.NewClient()
	c.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if resp != nil && resp.StatusCode == http.StatusConflict {
			return false, nil
		}
		return retryablehttp.DefaultRetryPolicy(ctx, resp, err)
	}
}
