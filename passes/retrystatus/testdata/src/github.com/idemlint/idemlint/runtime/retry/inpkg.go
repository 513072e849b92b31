package retry

// A file added to the runtime/retry stub: the runtime's own code (and its
// tests) returning ResponseError inside Do. Analysed in its own package,
// ResponseError is judged by the library table, as from outside, not by a
// summary of its body (which returns an error for every status from 400,
// 4xx included, and reads Retry-After into StatusError.RetryAfter that Do
// honours).

import (
	"context"
	"net/http"
)

func inPackageGet(ctx context.Context, c *http.Client, url string) error {
	return Do(ctx, Policy{MaxAttempts: 3}, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return Permanent(err)
		}
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		return ResponseError(resp)
	})
}
