package payments

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"
)

// Balance retries three times with jitter, but http.Get has no timeout (a
// stalled server hangs the first attempt for good), and every status but
// 200 is retried: a 404 or a 401 three times over, a 429 without waiting
// for its Retry-After.
func (c *Client) Balance(account string) (*http.Response, error) {
	for attempt := 0; attempt < 3; attempt++ {
		resp, err := http.Get(c.BaseURL + "/balances/" + account)
		if err == nil && resp.StatusCode == http.StatusOK {
			return resp, nil
		}
		time.Sleep(time.Duration(rand.Int64N(int64(100 * time.Millisecond << attempt))))
	}
	return nil, errTransient
}

// Statement is done right: the client has a timeout, 4xx is returned at
// once, and only 502, 503 and 504 are retried.
func (c *Client) Statement(account string) (*http.Response, error) {
	client := &http.Client{Timeout: 5 * time.Second}
	for attempt := 0; attempt < 3; attempt++ {
		resp, err := client.Get(c.BaseURL + "/statements/" + account)
		if err == nil {
			switch resp.StatusCode {
			case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
				resp.Body.Close()
			default:
				if resp.StatusCode >= 400 {
					resp.Body.Close()
					return nil, fmt.Errorf("statement: status %d", resp.StatusCode)
				}
				return resp, nil
			}
		}
		time.Sleep(time.Duration(rand.Int64N(int64(100 * time.Millisecond << attempt))))
	}
	return nil, errTransient
}
