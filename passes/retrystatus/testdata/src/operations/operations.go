package operations

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	backoff "github.com/cenkalti/backoff/v4"
	"github.com/idemlint/idemlint/runtime/retry"
	sretry "github.com/sethvargo/go-retry"
)

var errStatus = errors.New("status")

// Positives: operations that return a retried error on permanent statuses.

func retryGo(url string) error {
	return retrygo.Do(func() error {
		resp, err := http.Get(url)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK { // want `retry\.Do retries every 4xx but 408 and 429; wrap the error in retry\.Unrecoverable for them` `retry\.Do retries 429 without reading Retry-After`
			return fmt.Errorf("status %d", resp.StatusCode)
		}
		return nil
	}, retrygo.Attempts(3))
}

func fetch(url string) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode == 404 || resp.StatusCode >= 500 { // not followed: fetch is called by the operation, it is not the operation
		return errStatus
	}
	return nil
}

func cenkaltiNamed(url string) error {
	return backoff.Retry(func() error { return fetch(url) }, backoff.NewExponentialBackOff())
}

func cenkaltiOp() error {
	return backoff.Retry(fetchOne, backoff.NewExponentialBackOff())
}

func fetchOne() error {
	resp, err := http.Get("https://example.com")
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 400 { // want `backoff\.Retry retries every 4xx but 408 and 429` `429 without reading Retry-After`
		return &statusError{resp.StatusCode}
	}
	return nil
}

type statusError struct{ code int }

func (e *statusError) Error() string { return strconv.Itoa(e.code) }

func sethvargo(ctx context.Context, c *http.Client, req *http.Request) error {
	return sretry.Do(ctx, sretry.WithMaxRetries(3, sretry.NewExponential(time.Second)), func(ctx context.Context) error {
		resp, err := c.Do(req.WithContext(ctx))
		if err != nil {
			return sretry.RetryableError(err)
		}
		resp.Body.Close()
		if resp.StatusCode == 401 { // want `retry\.Do retries 401, a permanent status; do not wrap their error in retry\.RetryableError`
			return sretry.RetryableError(errStatus)
		}
		if resp.StatusCode >= 500 {
			return sretry.RetryableError(errStatus)
		}
		if resp.StatusCode >= 400 {
			return errStatus // not retried
		}
		return nil
	})
}

func runtimeRetryFmt(ctx context.Context, c *http.Client, req *http.Request) error {
	return retry.Do(ctx, retry.Policy{}, func(ctx context.Context) error {
		resp, err := c.Do(req.WithContext(ctx))
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != 200 { // want `retry\.Do retries every 4xx but 408 and 429` `429 without reading Retry-After`
			return fmt.Errorf("status %d", resp.StatusCode)
		}
		return nil
	})
}

// Look-alikes: not reported.

func retryGoUnrecoverable(url string) error {
	return retrygo.Do(func() error {
		resp, err := http.Get(url)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			return errStatus
		}
		if resp.StatusCode >= 400 {
			return retrygo.Unrecoverable(fmt.Errorf("status %d", resp.StatusCode))
		}
		return nil
	})
}

func retryGoWithRetryIf(url string) error {
	return retrygo.Do(func() error {
		resp, err := http.Get(url)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			return &statusError{resp.StatusCode}
		}
		return nil
	}, retrygo.RetryIf(func(err error) bool {
		var se *statusError
		return !errors.As(err, &se)
	}))
}

func runtimeResponseError(ctx context.Context, c *http.Client, req *http.Request) error {
	return retry.Do(ctx, retry.Policy{}, func(ctx context.Context) error {
		resp, err := c.Do(req.WithContext(ctx))
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if err := retry.ResponseError(resp); err != nil {
			return err // Classify: 4xx permanent
		}
		return nil
	})
}

func runtimeCustomRetryable(ctx context.Context, c *http.Client, req *http.Request, retryable func(error) bool) error {
	return retry.Do(ctx, retry.Policy{Retryable: retryable}, func(ctx context.Context) error {
		resp, err := c.Do(req.WithContext(ctx))
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			return errStatus
		}
		return nil
	})
}

func cenkaltiPermanent(url string) error {
	return backoff.Retry(func() error {
		resp, err := http.Get(url)
		if err != nil {
			return err
		}
		resp.Body.Close()
		switch {
		case resp.StatusCode == 200:
			return nil
		case resp.StatusCode == 429:
			secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
			time.Sleep(time.Duration(secs) * time.Second)
			return errStatus
		case resp.StatusCode >= 500:
			return errStatus
		}
		return backoff.Permanent(errStatus)
	}, backoff.NewExponentialBackOff())
}

func clientStatusError(resp *http.Response) error {
	if resp.StatusCode >= 400 {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	return nil
}

// The operation returns what a helper of the package makes of the status.
func retryGoHelper(url string) error {
	return retrygo.Do(func() error {
		resp, err := http.Get(url)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		return clientStatusError(resp) // want `retry\.Do retries every 4xx but 408 and 429; wrap the error in retry\.Unrecoverable for them` `retry\.Do retries 429 without reading Retry-After`
	}, retrygo.Attempts(3))
}

func serverStatusError(resp *http.Response) error {
	if resp.StatusCode >= 500 {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	return nil
}

// The helper errs on 5xx only.
func retryGoServerHelper(url string) error {
	return retrygo.Do(func() error {
		resp, err := http.Get(url)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		return serverStatusError(resp)
	}, retrygo.Attempts(3))
}
