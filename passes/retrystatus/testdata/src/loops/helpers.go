package loops

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"
)

// Retries decided by the package's own helpers: their status summaries.

// Positives.

func retryableResp(resp *http.Response) bool {
	switch resp.StatusCode {
	case http.StatusNotFound, http.StatusServiceUnavailable:
		return true
	}
	return false
}

func helperPredicate(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if retryableResp(resp) { // want `retry loop retries 404, a permanent status`
			resp.Body.Close()
			time.Sleep(time.Second)
			continue
		}
		return resp, nil
	}
	return nil, errStatus
}

func shouldRetryCode(status int, err error) bool {
	if 500 <= status && status <= 599 {
		return true
	}
	if status == http.StatusTooManyRequests {
		return true
	}
	if err == io.ErrUnexpectedEOF {
		return true
	}
	return false
}

type retryer struct{ attempts int }

func (r *retryer) retry(status int, err error) (time.Duration, bool) {
	if status == http.StatusOK {
		return 0, false
	}
	ok := shouldRetryCode(status, err)
	if !ok {
		return 0, false
	}
	if r.attempts == 5 {
		return 0, false
	}
	r.attempts++
	return time.Duration(r.attempts) * time.Second, true
}

func pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	select {
	case <-ctx.Done():
		t.Stop()
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// The cloud.google.com/go/compute/metadata shape: the status is read when
// there is a response, the decision is a method's.
func helperRetryer(ctx context.Context, c *http.Client, req *http.Request) ([]byte, error) {
	var res *http.Response
	var reqErr error
	var body []byte
	var err error
	r := &retryer{}
	for {
		res, reqErr = c.Do(req)
		var code int
		if res != nil {
			code = res.StatusCode
			body, err = io.ReadAll(res.Body)
			if err != nil {
				res.Body.Close()
				return nil, err
			}
			res.Body.Close()
		}
		if delay, retry := r.retry(code, reqErr); retry { // want `retry loop retries 429 without reading Retry-After`
			if res != nil && res.Body != nil {
				res.Body.Close()
			}
			if err := pause(ctx, delay); err != nil {
				return nil, err
			}
			continue
		}
		break
	}
	if reqErr != nil {
		return nil, reqErr
	}
	return body, nil
}

type sender struct {
	c        *http.Client
	endpoint string
}

func (s *sender) report(res *http.Response) (err error) {
	if res.StatusCode < 300 {
		return
	}
	var body []byte
	if body, err = io.ReadAll(res.Body); err != nil {
		return
	}
	return fmt.Errorf("%d %s", res.StatusCode, body)
}

func (s *sender) upload(b []byte) error {
	req, err := http.NewRequest("POST", s.endpoint, nil)
	if err != nil {
		return err
	}
	res, err := s.c.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	return s.report(res)
}

// The github.com/posthog/posthog-go shape: a helper turns every status >= 300
// into an error, and the loop retries every error.
func (s *sender) send(b []byte, quit chan struct{}) {
	for i := 0; i != 10; i++ {
		if err := s.upload(b); err == nil { // want `retry loop retries every 4xx but 408 and 429` `retry loop retries 429 without reading Retry-After`
			return
		}
		select {
		case <-time.After(time.Duration(i) * time.Second):
		case <-quit:
			return
		}
	}
}

func checkResponse(resp *http.Response) error {
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return nil
	}
	return fmt.Errorf("status %d", resp.StatusCode)
}

func helperError(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if err := checkResponse(resp); err != nil { // want `retry loop retries every 4xx but 408 and 429` `429 without reading Retry-After`
			resp.Body.Close()
			time.Sleep(time.Second)
			continue
		}
		return resp, nil
	}
	return nil, errStatus
}

// The github.com/olivere/elastic shape: only 2xx ends the probe.
func probe(ctx context.Context, c *http.Client, urls []string, timeout time.Duration) error {
	start := time.Now()
	done := false
	for !done {
		for _, url := range urls {
			req, err := http.NewRequest("HEAD", url, nil)
			if err != nil {
				return err
			}
			res, err := c.Do(req)
			if err != nil {
				continue
			} else if res.StatusCode >= 200 && res.StatusCode < 300 {
				return nil
			} else if res.StatusCode == http.StatusUnauthorized { // want `retry loop retries every 4xx but 408 and 429` `429 without reading Retry-After`
				err = fmt.Errorf("unauthorized")
			}
		}
		select {
		case <-ctx.Done():
			done = true
		case <-time.After(time.Second):
			if time.Since(start) > timeout {
				done = true
			}
		}
	}
	return errStatus
}

// Look-alikes.

func transientCode(code int) bool {
	switch code {
	case http.StatusRequestTimeout, http.StatusTooManyRequests, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

func retryAfter(resp *http.Response) time.Duration {
	n, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
	return time.Duration(n) * time.Second
}

// Retries only transient statuses and waits for Retry-After.
func helperTransient(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if transientCode(resp.StatusCode) {
			resp.Body.Close()
			time.Sleep(retryAfter(resp))
			continue
		}
		return resp, nil
	}
	return nil, errStatus
}

func serverError(resp *http.Response) error {
	if resp.StatusCode >= 500 {
		return fmt.Errorf("server error %d", resp.StatusCode)
	}
	return nil
}

// The helper errs on 5xx only: the 4xx are returned.
func helperServerError(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if err := serverError(resp); err != nil {
			resp.Body.Close()
			time.Sleep(time.Second)
			continue
		}
		return resp, nil
	}
	return nil, errStatus
}

func permanentErr(resp *http.Response) error {
	if resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.StatusCode != 429 {
		return fmt.Errorf("permanent %d", resp.StatusCode)
	}
	return nil
}

// A status check that returns a permanent error for the 4xx.
func helperPermanent(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if err := permanentErr(resp); err != nil {
			return nil, err
		}
		if resp.StatusCode >= 500 {
			resp.Body.Close()
			time.Sleep(time.Second)
			continue
		}
		return resp, nil
	}
	return nil, errStatus
}

func pending(resp *http.Response) bool { return resp.StatusCode == http.StatusAccepted }

// A poll that loops on 202 as a state.
func helperPoll(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 30; i++ {
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if pending(resp) {
			resp.Body.Close()
			time.Sleep(time.Second)
			continue
		}
		return resp, nil
	}
	return nil, errStatus
}

type apiError struct {
	Retryable bool `json:"retryable"`
}

func bodySaysRetry(resp *http.Response) bool {
	var e apiError
	if err := json.NewDecoder(resp.Body).Decode(&e); err != nil {
		return false
	}
	return e.Retryable
}

// The decision is the body's: not followed.
func helperBody(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != 200 && bodySaysRetry(resp) {
			resp.Body.Close()
			time.Sleep(time.Second)
			continue
		}
		return resp, nil
	}
	return nil, errStatus
}

// A probe that stops on any 4xx.
func probeStops(ctx context.Context, c *http.Client, urls []string) error {
	done := false
	for !done {
		for _, url := range urls {
			res, err := c.Get(url)
			if err != nil {
				continue
			}
			if res.StatusCode >= 200 && res.StatusCode < 300 {
				return nil
			}
			if res.StatusCode >= 400 && res.StatusCode < 500 {
				return fmt.Errorf("status %d", res.StatusCode)
			}
		}
		select {
		case <-ctx.Done():
			done = true
		case <-time.After(time.Second):
		}
	}
	return errStatus
}

func (s *sender) uploadServer(b []byte) error {
	res, err := s.c.Get(s.endpoint)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	return serverError(res)
}

// The helper's request errs on 5xx only.
func (s *sender) sendServer(b []byte) {
	for i := 0; i != 10; i++ {
		if err := s.uploadServer(b); err == nil {
			return
		}
		time.Sleep(time.Duration(i) * time.Second)
	}
}

// Status maps.

var retryStatuses = map[int]bool{http.StatusNotFound: true, http.StatusBadGateway: true, http.StatusOK: false}

func isRetryStatus(code int) bool { return retryStatuses[code] }

func mapPredicate(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if isRetryStatus(resp.StatusCode) { // want `retry loop retries 404, a permanent status`
			resp.Body.Close()
			time.Sleep(time.Second)
			continue
		}
		return resp, nil
	}
	return nil, errStatus
}

var retrySet = map[int]struct{}{http.StatusConflict: {}, http.StatusServiceUnavailable: {}}

func setMember(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if _, ok := retrySet[resp.StatusCode]; ok { // want `retry loop retries 409, a permanent status`
			resp.Body.Close()
			time.Sleep(time.Second)
			continue
		}
		return resp, nil
	}
	return nil, errStatus
}

var transientSet = map[int]struct{}{http.StatusBadGateway: {}, http.StatusServiceUnavailable: {}, http.StatusGatewayTimeout: {}}

// Only 5xx are in the set.
func transientMember(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if _, ok := transientSet[resp.StatusCode]; ok {
			resp.Body.Close()
			time.Sleep(time.Second)
			continue
		}
		return resp, nil
	}
	return nil, errStatus
}

var grownSet = map[int]bool{http.StatusBadGateway: true}

// RetryOn adds to grownSet: what it holds is not known.
func RetryOn(code int) { grownSet[code] = true }

func grownMember(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if grownSet[resp.StatusCode] {
			resp.Body.Close()
			time.Sleep(time.Second)
			continue
		}
		return resp, nil
	}
	return nil, errStatus
}

func (s *sender) uploadWaits(b []byte) error {
	res, err := s.c.Get(s.endpoint)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	return s.throttled(res)
}

func (s *sender) throttled(res *http.Response) error {
	if res.StatusCode == http.StatusTooManyRequests || res.StatusCode >= 500 {
		return fmt.Errorf("retry after %s", res.Header.Get("Retry-After"))
	}
	return nil
}

// The helper's request reads Retry-After.
func (s *sender) sendWaits(b []byte) {
	for i := 0; i != 10; i++ {
		if err := s.uploadWaits(b); err == nil {
			return
		}
		time.Sleep(time.Duration(i) * time.Second)
	}
}
