package libraries

import (
	"context"
	"net/http"
	"time"

	retrygo "github.com/avast/retry-go/v4"
)

// A request built before the retry and given each attempt's context in
// the retried closure: the same POST, sent again.
func reboundRequest(ctx context.Context, c *http.Client) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, nil)
	if err != nil {
		return err
	}
	return retrygo.Do(func() error {
		actx, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		req = req.WithContext(actx)
		_, err := c.Do(req) // want `POST \(\*http\.Client\)\.Do in retry\.Do has no idempotency key`
		return err
	}, retrygo.Attempts(3))
}

// One the retried closure builds again as a GET is a GET.
func reboundGet(ctx context.Context, c *http.Client) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, nil)
	if err != nil {
		return err
	}
	return retrygo.Do(func() error {
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, endpoint, nil)
		if err != nil {
			return err
		}
		_, err := c.Do(req)
		return err
	}, retrygo.Attempts(3))
}
