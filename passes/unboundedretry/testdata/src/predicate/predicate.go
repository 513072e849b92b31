// Package predicate: retries decided by a predicate on the attempt's
// results.
package predicate

import (
	"context"
	"errors"
	"net/http"
	"time"
)

func retryable(err error) bool { return err != nil && !errors.Is(err, context.Canceled) }

func op() error { return nil }

func shouldRetry(res *http.Response) bool { return res == nil || res.StatusCode >= 500 }

func untilNotRetryable() error {
	for { // want `retry loop has no attempt cap and no deadline`
		err := op()
		if !retryable(err) {
			return err
		}
		time.Sleep(time.Second)
	}
}

func sendForever(c *http.Client, req *http.Request) (*http.Response, error) {
	for { // want `retry loop has no attempt cap and no deadline`
		res, err := c.Do(req)
		if !shouldRetry(res) {
			return res, err
		}
		time.Sleep(time.Second)
	}
}

// capped is the look-alike: the same predicate, with an attempt cap.
func capped(c *http.Client, req *http.Request) (*http.Response, error) {
	var res *http.Response
	var err error
	for n := 0; n < 5; n++ {
		res, err = c.Do(req)
		if !shouldRetry(res) {
			break
		}
		time.Sleep(time.Second)
	}
	return res, err
}

// withDeadline is bounded in time.
func withDeadline(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	for {
		res, err := c.Do(req.WithContext(ctx))
		if !shouldRetry(res) {
			return res, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
}
