package loops

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

const endpoint = "https://api.example.com/payments"

// POST by http.Post in a hand loop.
func post(body []byte) error {
	for attempt := 0; attempt < 3; attempt++ {
		resp, err := http.Post(endpoint, "application/json", bytes.NewReader(body)) // want `POST http\.Post in a retry has no idempotency key; mint one above the retry with idempotency\.NewKey\(\)`
		if err == nil && resp.StatusCode < 500 {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return fmt.Errorf("gave up")
}

func postForm(c *http.Client, form url.Values) error {
	for attempt := 0; attempt < 3; attempt++ {
		if _, err := http.PostForm(endpoint, form); err == nil { // want `POST http\.PostForm in a retry has no idempotency key`
			return nil
		}
	}
	for attempt := 0; attempt < 3; attempt++ {
		if _, err := c.PostForm(endpoint, form); err == nil { // want `POST \(\*http\.Client\)\.PostForm in a retry has no idempotency key`
			return nil
		}
	}
	for attempt := 0; attempt < 3; attempt++ {
		if _, err := c.Post(endpoint, "text/plain", nil); err == nil { // want `POST \(\*http\.Client\)\.Post in a retry has no idempotency key`
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// Do with a request built in the loop, with a constant or a named method.
func do(ctx context.Context, c *http.Client, body []byte) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Request-Id", "r-1")
		resp, doErr := c.Do(req) // want `POST \(\*http\.Client\)\.Do in a retry has no idempotency key`
		if doErr == nil && resp.StatusCode < 500 {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

func patch(c *http.Client) error {
	method := "PATCH"
	req, err := http.NewRequest(method, endpoint, nil)
	if err != nil {
		return err
	}
	for {
		resp, err := c.Do(req) // want `PATCH \(\*http\.Client\)\.Do in a retry has no idempotency key`
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		if resp.StatusCode >= 500 {
			continue
		}
		return nil
	}
}

// The request goes through WithContext and a literal.
func derived(ctx context.Context, c *http.Client) error {
	base, _ := http.NewRequest("POST", endpoint, nil)
	for attempt := 0; attempt < 3; attempt++ {
		req := base.WithContext(ctx)
		if _, err := c.Do(req); err == nil { // want `POST \(\*http\.Client\)\.Do in a retry has no idempotency key`
			return nil
		}
	}
	for attempt := 0; attempt < 3; attempt++ {
		req := &http.Request{Method: http.MethodPost, Header: http.Header{"Accept": {"*/*"}}}
		if _, err := c.Do(req); err == nil { // want `POST \(\*http\.Client\)\.Do in a retry has no idempotency key`
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// Built in the loop, sent by a helper: reported where it is built.
func sendIt(c *http.Client, req *http.Request) error {
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func viaHelper(c *http.Client) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequest(http.MethodPost, endpoint, nil) // want `POST built here, sent by sendIt in a retry has no idempotency key`
		if err != nil {
			return err
		}
		if err := sendIt(c, req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// A send inside a switch case, then the loop goes on.
func inSwitch(c *http.Client, kind int) error {
	for attempt := 0; attempt < 3; attempt++ {
		switch kind {
		case 1:
			if _, err := http.Post(endpoint, "", nil); err == nil { // want `POST http\.Post in a retry has no idempotency key`
				return nil
			}
			break
		default:
			return nil
		}
		time.Sleep(time.Second)
	}
	return fmt.Errorf("gave up")
}

func cloned(ctx context.Context, c *http.Client) error {
	base, err := http.NewRequest(http.MethodPatch, endpoint, nil)
	if err != nil {
		return err
	}
	for attempt := 0; attempt < 3; attempt++ {
		if _, err := c.Do(base.Clone(ctx)); err == nil { // want `PATCH \(\*http\.Client\)\.Do in a retry has no idempotency key`
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// A helper that builds and sends the POST itself, called in a retry loop.
type apiClient struct {
	http *http.Client
	base string
}

func (c *apiClient) create(ctx context.Context, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/orders", bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *apiClient) createKeyed(ctx context.Context, body []byte, key string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/orders", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *apiClient) list(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/orders", nil)
	if err != nil {
		return err
	}
	_, err = c.http.Do(req)
	return err
}

func (c *apiClient) createWithRetry(ctx context.Context, body []byte, key string) error {
	for attempt := 0; attempt < 3; attempt++ {
		if err := c.create(ctx, body); err == nil { // want `POST \(\*apiClient\)\.create in a retry has no idempotency key`
			return nil
		}
	}
	for attempt := 0; attempt < 3; attempt++ {
		if err := c.createKeyed(ctx, body, key); err == nil {
			return nil
		}
	}
	for attempt := 0; attempt < 3; attempt++ {
		if err := c.list(ctx); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// captureRec retries by calling itself after a wait: the POST repeats with
// no key.
func captureRec(c *http.Client, endpoint string, n int) error {
	resp, err := c.Post(endpoint, "application/json", nil) // want `POST \(\*http\.Client\)\.Post in a retry has no idempotency key`
	if err != nil {
		if n > 3 {
			return err
		}
		time.Sleep(time.Second)
		return captureRec(c, endpoint, n+1)
	}
	return resp.Body.Close()
}

// captureRecAfter recurses only after the POST succeeded (the next page):
// the POST is not sent again on a failure.
func captureRecAfter(c *http.Client, endpoint string, n int) error {
	if n > 3 {
		return nil
	}
	resp, err := c.Post(endpoint, "application/json", nil)
	if err != nil {
		return err
	}
	resp.Body.Close()
	time.Sleep(time.Second)
	return captureRecAfter(c, endpoint, n+1)
}

// settle reschedules itself with time.AfterFunc after a failed POST.
func settle(c *http.Client, endpoint string) {
	var try func()
	try = func() {
		if _, err := c.Post(endpoint, "application/json", nil); err != nil { // want `POST \(\*http\.Client\)\.Post in a retry has no idempotency key`
			time.AfterFunc(time.Second, try)
		}
	}
	try()
}
