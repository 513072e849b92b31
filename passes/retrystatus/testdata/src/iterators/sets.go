package iterators

import (
	"context"
	"net/http"
	"time"

	"k8s.io/apimachinery/pkg/util/sets"
)

// Status sets of k8s.io/apimachinery/pkg/util/sets, in plain loops.

var transient = sets.New(http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable)

var serverSide = sets.NewInt(http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout)

// grown is added to at init: what it holds is not read.
var grown = sets.NewInt(http.StatusBadGateway)

func init() { grown.Insert(http.StatusConflict) }

func get(ctx context.Context, c *http.Client, req *http.Request, codes int) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		res, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if transient.Has(res.StatusCode) { // want `retry loop retries 429 without reading Retry-After`
			res.Body.Close()
			time.Sleep(time.Second << i)
			continue
		}
		return res, nil
	}
	return nil, context.DeadlineExceeded
}

// getServer retries only 502, 503 and 504: nothing to report.
func getServer(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		res, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if !serverSide.Has(res.StatusCode) {
			return res, nil
		}
		res.Body.Close()
		time.Sleep(time.Second << i)
	}
	return nil, context.DeadlineExceeded
}

// getGrown retries what grown holds, which the package changes: unknown.
func getGrown(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		res, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if !grown.Has(res.StatusCode) {
			return res, nil
		}
		res.Body.Close()
		time.Sleep(time.Second << i)
	}
	return nil, context.DeadlineExceeded
}
