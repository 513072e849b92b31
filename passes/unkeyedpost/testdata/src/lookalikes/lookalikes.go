package lookalikes

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

const endpoint = "https://api.example.com/payments"

// Keyed requests, set every way.
func keyedSet(c *http.Client) error {
	key := idempotency.NewKey()
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequest(http.MethodPost, endpoint, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", key)
		if _, err := c.Do(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

func keyedAddMapLiteral(c *http.Client, key string) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := http.NewRequest("POST", endpoint, nil)
		req.Header.Add("x-idempotency-key", key)
		if _, err := c.Do(req); err == nil {
			return nil
		}
	}
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := http.NewRequest("POST", endpoint, nil)
		req.Header["Idempotency-Key"] = []string{key}
		if _, err := c.Do(req); err == nil {
			return nil
		}
	}
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := http.NewRequest("POST", endpoint, nil)
		req.Header = http.Header{"Idempotency-Key": {key}}
		if _, err := c.Do(req); err == nil {
			return nil
		}
	}
	for attempt := 0; attempt < 3; attempt++ {
		req := &http.Request{Method: "POST", Header: http.Header{"Idempotency-Key": {key}}}
		if _, err := c.Do(req); err == nil {
			return nil
		}
	}
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := http.NewRequest("POST", endpoint, nil)
		h := req.Header
		h.Set("Idempotency-Key", key)
		if _, err := c.Do(req.WithContext(context.Background())); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// Keyed by a helper, or handed to code the check cannot see into.
func addKey(req *http.Request, key string) { req.Header.Set("Idempotency-Key", key) }

type Signer interface{ Sign(*http.Request) }

func keyedElsewhere(c *http.Client, key string, sign func(*http.Request), s Signer) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := http.NewRequest("POST", endpoint, nil)
		addKey(req, key)
		if _, err := c.Do(req); err == nil {
			return nil
		}
	}
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := http.NewRequest("POST", endpoint, nil)
		sign(req)
		if _, err := c.Do(req); err == nil {
			return nil
		}
	}
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := http.NewRequest("POST", endpoint, nil)
		s.Sign(req)
		if _, err := c.Do(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// A header whose name is not constant may be the key.
func dynamicHeader(c *http.Client, name, key string) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := http.NewRequest("POST", endpoint, nil)
		req.Header.Set(name, key)
		if _, err := c.Do(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// Idempotent methods.
func idempotentMethods(c *http.Client) error {
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodPut, http.MethodDelete} {
		for attempt := 0; attempt < 3; attempt++ {
			req, _ := http.NewRequest(m, endpoint, nil)
			if _, err := c.Do(req); err == nil {
				break
			}
		}
	}
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := http.NewRequest(http.MethodPut, endpoint, nil)
		if _, err := c.Do(req); err == nil {
			return nil
		}
	}
	for attempt := 0; attempt < 3; attempt++ {
		if _, err := http.Get(endpoint); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// A method the check cannot evaluate.
func unknownMethod(c *http.Client, m string) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := http.NewRequest(m, endpoint, nil)
		if _, err := c.Do(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// A POST sent once.
func once(c *http.Client) error {
	_, err := http.Post(endpoint, "", nil)
	return err
}

// A batch of POSTs, none retried.
func batch(bodies [][]byte) error {
	for _, b := range bodies {
		if _, err := http.Post(endpoint, "", bytes.NewReader(b)); err != nil {
			return err
		}
	}
	return nil
}

// The loop retries only before the send: after it, every path leaves.
type pool struct{}

func (p *pool) Acquire(ctx context.Context) error { return nil }

func retriesBeforeSend(ctx context.Context, p *pool) error {
	for attempt := 0; attempt < 3; attempt++ {
		if err := p.Acquire(ctx); err != nil {
			time.Sleep(time.Second)
			continue
		}
		resp, err := http.Post(endpoint, "", nil)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}
	return fmt.Errorf("gave up")
}

// A loop that is not a retry.
func poll() {
	for i := 0; i < 3; i++ {
		_, _ = http.Post(endpoint, "", nil)
	}
}

// A request built from another call's results, f(g()): its method is not
// known here (this shape once made the check panic).
func requestArgs(ctx context.Context) (context.Context, string, string, *bytes.Reader) {
	return ctx, http.MethodPost, endpoint, bytes.NewReader(nil)
}

func forwardedArgs(ctx context.Context, c *http.Client) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(requestArgs(ctx))
		if err != nil {
			return err
		}
		if _, err := c.Do(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return fmt.Errorf("gave up")
}
