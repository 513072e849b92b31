package loops

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

var errStatus = errors.New("bad status")

// Positives.

func everyNon200(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req)
		if err != nil {
			continue
		}
		if resp.StatusCode != 200 { // want `retry loop retries every 4xx but 408 and 429; retry only 408, 429, 502, 503 and 504, as retry\.Classify does` `retry loop retries 429 without reading Retry-After; honour it with retry\.ParseRetryAfter or retry\.ResponseError`
			resp.Body.Close()
			time.Sleep(time.Second)
			continue
		}
		return resp, nil
	}
	return nil, errStatus
}

func successOrRetry(c *http.Client, req *http.Request) (*http.Response, error) {
	for attempt := 0; attempt < 4; attempt++ {
		resp, err := c.Do(req)
		if err == nil && resp.StatusCode == http.StatusOK { // want `retry loop retries every 4xx but 408 and 429` `429 without reading Retry-After`
			return resp, nil
		}
		time.Sleep(time.Duration(attempt) * time.Second)
	}
	return nil, errStatus
}

func explicit404(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 5; i++ {
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		switch resp.StatusCode {
		case http.StatusOK:
			return resp, nil
		case http.StatusNotFound, http.StatusServiceUnavailable: // want `retry loop retries 404, a permanent status`
			resp.Body.Close()
			time.Sleep(time.Second)
			continue
		default:
			return nil, fmt.Errorf("status %d", resp.StatusCode)
		}
	}
	return nil, errStatus
}

func errorPerStatus(c *http.Client, req *http.Request) error {
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		resp, err = c.Do(req)
		if err == nil && resp.StatusCode >= 400 && resp.StatusCode != 429 { // want `retry loop retries every 4xx but 408 and 429`
			err = fmt.Errorf("status %d", resp.StatusCode)
		}
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func statusAlias(c *http.Client, req *http.Request) error {
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		code := resp.StatusCode
		resp.Body.Close()
		if code == 400 || code == 422 || code >= 500 { // want `retry loop retries 400 and 422, permanent statuses`
			time.Sleep(time.Second)
			continue
		}
		return nil
	}
	return errStatus
}

func rateLimitedFixedWait(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 5; i++ {
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == 503 { // want `retry loop retries 429 without reading Retry-After`
			resp.Body.Close()
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(time.Second):
			}
			continue
		}
		return resp, nil
	}
	return nil, errStatus
}

func conflictUnkeyed(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusConflict { // want `retry loop retries 409, a permanent status`
			time.Sleep(time.Second)
			continue
		}
		return resp, nil
	}
	return nil, errStatus
}

func lastAttemptExit(c *http.Client, req *http.Request) (*http.Response, error) {
	const attempts = 3
	for i := 0; i < attempts; i++ {
		resp, err := c.Do(req)
		if err == nil && resp.StatusCode/100 != 2 { // want `retry loop retries every 4xx but 408 and 429` `429 without reading Retry-After`
			if i == attempts-1 {
				return resp, nil
			}
			resp.Body.Close()
			continue
		}
		if err == nil {
			return resp, nil
		}
	}
	return nil, errStatus
}

// Look-alikes: not reported.

func transientOnly(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		if resp.StatusCode >= 500 || resp.StatusCode == http.StatusRequestTimeout {
			resp.Body.Close()
			time.Sleep(time.Second)
			continue
		}
		return resp, nil // 4xx returned at once
	}
	return nil, errStatus
}

func gatewayErrors(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		switch resp.StatusCode {
		case 502, 503, 504:
			resp.Body.Close()
			time.Sleep(time.Second)
		default:
			return resp, nil
		}
	}
	return nil, errStatus
}

func rateLimitedRetryAfter(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 5; i++ {
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusTooManyRequests {
			secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
			resp.Body.Close()
			time.Sleep(time.Duration(secs) * time.Second)
			continue
		}
		return resp, nil
	}
	return nil, errStatus
}

func conflictKeyed(c *http.Client, req *http.Request, key string) (*http.Response, error) {
	req.Header.Set("Idempotency-Key", key)
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusConflict { // the in-progress answer of a keyed request
			time.Sleep(time.Second)
			continue
		}
		return resp, nil
	}
	return nil, errStatus
}

func retryable(resp *http.Response) bool { return resp.StatusCode >= 500 }

func classifiedByHelper(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != 200 && retryable(resp) { // the helper decides: not followed
			time.Sleep(time.Second)
			continue
		}
		return resp, nil
	}
	return nil, errStatus
}

func non200ReturnsOn4xx(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req)
		if err != nil {
			continue
		}
		if resp.StatusCode != 200 {
			if resp.StatusCode < 500 {
				return nil, fmt.Errorf("status %d", resp.StatusCode)
			}
			time.Sleep(time.Second)
			continue
		}
		return resp, nil
	}
	return nil, errStatus
}

func statusOfAnotherCall(c *http.Client, req *http.Request, probe *http.Response) error {
	for i := 0; i < 3; i++ {
		_, err := c.Do(req)
		if err == nil {
			return nil
		}
		if probe.StatusCode == 404 { // not this attempt's response
			continue
		}
		return err
	}
	return errStatus
}

func notARetry(c *http.Client, reqs []*http.Request) {
	for _, req := range reqs {
		resp, err := c.Do(req)
		if err != nil || resp.StatusCode != 200 {
			continue
		}
		resp.Body.Close()
	}
}

// waitForCreation retries 404 to wait for a resource that another request
// is creating: reported, since a retry of 404 is the mistake the check looks
// for; a real poll says so with //idemlint:ignore retrystatus <reason>.
func waitForCreation(c *http.Client, req *http.Request) {
	for {
		resp, err := c.Do(req)
		if err == nil && resp.StatusCode == 404 { // want `retry loop retries 404, a permanent status`
			time.Sleep(time.Second)
			continue
		}
		if err == nil {
			return
		}
	}
}

func waitForCreationIgnored(c *http.Client, req *http.Request) {
	for {
		resp, err := c.Do(req)
		//idemlint:ignore retrystatus the job resource appears once the worker picks it up
		if err == nil && resp.StatusCode == 404 {
			time.Sleep(time.Second)
			continue
		}
		if err == nil {
			return
		}
	}
}

func itemsByIndex(c *http.Client, reqs []*http.Request) error {
	for i := 0; i < len(reqs); i++ {
		resp, err := c.Do(reqs[i])
		if err != nil {
			return err
		}
		if resp.StatusCode == 404 { // skip missing items: not a retry
			continue
		}
		return nil
	}
	return nil
}

func labelledBreak(c *http.Client, req *http.Request) (resp *http.Response, err error) {
retry:
	for i := 0; i < 3; i++ {
		resp, err = c.Do(req)
		if err != nil {
			return nil, err
		}
		switch {
		case resp.StatusCode == 200:
			break retry
		case resp.StatusCode >= 500:
			time.Sleep(time.Second)
		default:
			return nil, fmt.Errorf("status %d", resp.StatusCode)
		}
	}
	return resp, err
}

func firstExisting(base string) (*http.Response, error) {
	for i := 0; i < 10; i++ {
		url := fmt.Sprintf("%s/v%d", base, i)
		resp, err := http.Get(url) // a new request each time: a search, not a retry
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == 404 {
			continue
		}
		if resp.StatusCode == 200 {
			return resp, nil
		}
	}
	return nil, errStatus
}

func attemptInBackoffOnly(c *http.Client, req *http.Request) (*http.Response, error) {
	for attempt := 0; attempt < 3; attempt++ {
		resp, err := c.Do(req)
		if err == nil && resp.StatusCode < 300 { // want `retry loop retries every 4xx but 408 and 429` `429 without reading Retry-After`
			return resp, nil
		}
		time.Sleep(time.Duration(1<<attempt) * time.Second) // the counter only sets the wait
	}
	return nil, errStatus
}

type authClient struct {
	c     *http.Client
	token string
}

func (a *authClient) refresh() error { a.token = "new"; return nil }

func (a *authClient) refreshOn401(req *http.Request) (*http.Response, error) {
	for i := 0; i < 2; i++ {
		req.Header.Set("Authorization", "Bearer "+a.token)
		resp, err := a.c.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusUnauthorized { // refreshes the token first: the next attempt differs
			resp.Body.Close()
			if err := a.refresh(); err != nil {
				return nil, err
			}
			continue
		}
		return resp, nil
	}
	return nil, errStatus
}

func failover(c *http.Client, urls []string) (*http.Response, error) {
	url := urls[0]
	for attempt := 0; attempt < 3; attempt++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == 404 { // moves to the next endpoint
			url = pickAnother(urls, url)
			continue
		}
		return resp, nil
	}
	return nil, errStatus
}

func pickAnother(urls []string, cur string) string { return urls[len(urls)-1] }

func waitsLogsAndRetries401(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == 401 || resp.StatusCode >= 500 { // want `retry loop retries 401, a permanent status`
			fmt.Printf("attempt %d: status %d\n", i, resp.StatusCode)
			resp.Body.Close()
			time.Sleep(time.Second)
			continue
		}
		return resp, nil
	}
	return nil, errStatus
}

func loopConditionExits(c *http.Client, req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for i := 0; i < 3 && (resp == nil || resp.StatusCode >= 500); i++ {
		resp, err = c.Do(req)
		if err == nil && resp.StatusCode == 404 { // the loop's condition leaves on 404
			fmt.Println("not found")
		}
		if err != nil {
			return nil, err
		}
	}
	return resp, err
}

func loopConditionRetries(c *http.Client, req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for i := 0; i < 3 && (resp == nil || resp.StatusCode != 200); i++ { // want `retry loop retries every 4xx but 408 and 429` `429 without reading Retry-After`
		resp, err = c.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == 404 {
			fmt.Println("not found yet")
		}
	}
	return resp, err
}
