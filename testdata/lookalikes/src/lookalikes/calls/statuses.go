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

// retryableStatus is the set of statuses worth retrying.
var retryableStatus = map[int]bool{
	http.StatusRequestTimeout:     true,
	http.StatusTooManyRequests:    true,
	http.StatusBadGateway:         true,
	http.StatusServiceUnavailable: true,
	http.StatusGatewayTimeout:     true,
}

// GetParsedRetryAfter retries the statuses of a set and, on 429 and 503,
// waits the Retry-After the server sent, in seconds or as an HTTP date.
//
// lookalike retrystatus cloudflare-request-429: 429 retried on the client's own schedule, Retry-After ignored
func GetParsedRetryAfter(ctx context.Context, url string) error {
	for attempt := 0; attempt < 4; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := apiClient.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if !retryableStatus[resp.StatusCode] {
			if resp.StatusCode >= 400 {
				return fmt.Errorf("get %s: status %d", url, resp.StatusCode)
			}
			return nil
		}
		wait := retry.Jitter(time.Second << attempt)
		if d, ok := retry.ParseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			wait = d
		}
		time.Sleep(wait)
	}
	return errRetry
}

// sendItem POSTs an item, keyed, and reports the status.
func sendItem(ctx context.Context, url, key string) (int, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return 0, 0, err
	}
	req.Header.Set("Idempotency-Key", key)
	resp, err := apiClient.Do(req)
	if err != nil {
		return 0, 0, err
	}
	defer resp.Body.Close()
	d, _ := retry.ParseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	return resp.StatusCode, d, nil
}

// SendRecursive retries by recursion only on 429 (after Retry-After) and
// 5xx (after a jittered wait), with the same key, counting down.
//
// lookalike retrystatus,nojitter rollbar-sync-status: a recursion re-sending at once on 429 without Retry-After
func SendRecursive(ctx context.Context, url, key string, retriesLeft int) error {
	code, after, err := sendItem(ctx, url, key)
	if err != nil {
		return err
	}
	switch {
	case code < 300:
		return nil
	case retriesLeft <= 0:
		return fmt.Errorf("send: status %d", code)
	case code == http.StatusTooManyRequests && after > 0:
		time.Sleep(after)
	case code == http.StatusTooManyRequests || code >= 500:
		time.Sleep(retry.Jitter(time.Second))
	default:
		return fmt.Errorf("send: status %d", code)
	}
	return SendRecursive(ctx, url, key, retriesLeft-1)
}

// Management is a management RPC's answer: an HTTP-like status code.
type Management struct {
	Code        int
	Description string
}

// CallManagement retries a management RPC on the transient codes only.
//
// lookalike retrystatus amqpcommon-rpc-status: every non-2xx management status retried
func CallManagement(ctx context.Context, rpc func(context.Context) (Management, error)) (Management, error) {
	var last Management
	for attempt := 0; attempt < 3; attempt++ {
		m, err := rpc(ctx)
		if err != nil {
			return m, err
		}
		last = m
		if m.Code < 300 {
			return m, nil
		}
		if m.Code != http.StatusTooManyRequests && m.Code != http.StatusServiceUnavailable && m.Code != http.StatusGatewayTimeout {
			return m, fmt.Errorf("management: %d %s", m.Code, m.Description)
		}
		time.Sleep(retry.Jitter(500 * time.Millisecond << attempt))
	}
	return last, fmt.Errorf("management: %d %s", last.Code, last.Description)
}
