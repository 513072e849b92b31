package calls

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"github.com/idemlint/idemlint/runtime/retry"
)

var errRetry = errors.New("retry")

// retryable reports whether a status is worth retrying: 408, 429, 502, 503
// and 504, never another 4xx.
func retryable(code int) bool {
	switch code {
	case http.StatusRequestTimeout, http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// retryAfter reads a Retry-After header in seconds, or returns def.
func retryAfter(resp *http.Response, def time.Duration) time.Duration {
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	return def
}

// GetStatusSet retries only the transient statuses, by a set lookup, and
// waits what Retry-After says on 429.
//
// lookalike retrystatus minio-execute-429: a status set lookup that retries 429 without Retry-After
func GetStatusSet(ctx context.Context, url string) (*http.Response, error) {
	for attempt := 0; attempt < 4; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		resp, err := apiClient.Do(req)
		if err != nil {
			return nil, err
		}
		if !retryable(resp.StatusCode) {
			return resp, nil
		}
		resp.Body.Close()
		time.Sleep(retryAfter(resp, retry.Jitter(time.Second<<attempt)))
	}
	return nil, errRetry
}

// GetStopOn4xx stops on every 4xx but 429, whose Retry-After it honours.
//
// lookalike retrystatus olivere-startup-status: a probe that retries every status but 401
func GetStopOn4xx(ctx context.Context, url string) error {
	for attempt := 0; attempt < 5; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := apiClient.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		switch {
		case resp.StatusCode < 300:
			return nil
		case resp.StatusCode == http.StatusTooManyRequests:
			time.Sleep(retryAfter(resp, time.Second))
		case resp.StatusCode >= 400 && resp.StatusCode < 500:
			return fmt.Errorf("get %s: status %d", url, resp.StatusCode)
		default:
			time.Sleep(rand.N(time.Second << attempt))
		}
	}
	return errRetry
}

// PostClassified retries a keyed POST on what retry.Classify says is
// transient, and waits the StatusError's Retry-After.
//
// lookalike retrystatus posthog-send-status: every status >= 300 turned into an error the loop retries
func PostClassified(ctx context.Context, url, key string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var req *http.Request
		if req, err = http.NewRequestWithContext(ctx, http.MethodPost, url, nil); err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", key)
		err = check(apiClient.Do(req))
		if err == nil || retry.Classify(err) != retry.ClassTransient {
			return err
		}
		wait := retry.Jitter(200 * time.Millisecond << attempt)
		var se *retry.StatusError
		if errors.As(err, &se) && se.RetryAfter > 0 {
			wait = se.RetryAfter
		}
		time.Sleep(wait)
	}
	return err
}

// GetDo lets retry.Do classify: ResponseError's StatusError carries the
// status and the Retry-After.
//
// lookalike retrystatus cloudevents-retry-status: a retry of every non-2xx status
func GetDo(ctx context.Context, url string) error {
	return retry.Do(ctx, retry.Policy{MaxAttempts: 4, Deadline: 20 * time.Second}, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		return check(apiClient.Do(req))
	})
}

// Sync stops on a conflict: 409 means the state moved on, not a blip.
//
// lookalike retrystatus autorest-registration-409: a 409 retried as if transient
func Sync(ctx context.Context, url string) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, url, nil)
		if err != nil {
			return err
		}
		resp, err := apiClient.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusConflict {
			return fmt.Errorf("sync %s: conflict", url)
		}
		if resp.StatusCode < 500 {
			return nil
		}
		time.Sleep(retry.Jitter(500 * time.Millisecond << attempt))
	}
	return errRetry
}
