package clients

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/hashicorp/go-retryablehttp"
)

const endpoint = "https://api.example.com/payments"

func newClient() error {
	c := retryablehttp.NewClient()
	req, err := retryablehttp.NewRequest("POST", endpoint, []byte(`{}`))
	if err != nil {
		return err
	}
	_, err = c.Do(req) // want `POST \(\*retryablehttp\.Client\)\.Do through a retryablehttp client has no idempotency key`
	return err
}

func literalClient() error {
	c := &retryablehttp.Client{RetryMax: 3}
	if _, err := c.Post(endpoint, "application/json", nil); err != nil { // want `POST \(\*retryablehttp\.Client\)\.Post has no idempotency key`
		return err
	}
	_, err := c.PostForm(endpoint, url.Values{}) // want `POST \(\*retryablehttp\.Client\)\.PostForm has no idempotency key`
	return err
}

func packageLevel() error {
	_, err := retryablehttp.Post(endpoint, "application/json", nil) // want `POST retryablehttp\.Post through a retryablehttp client has no idempotency key`
	return err
}

func patchWithContext(c0 *http.Request) error {
	c := retryablehttp.NewClient()
	c.RetryMax = 2
	req, err := retryablehttp.NewRequestWithContext(c0.Context(), http.MethodPatch, endpoint, nil)
	if err != nil {
		return err
	}
	_, err = c.Do(req) // want `PATCH \(\*retryablehttp\.Client\)\.Do has no idempotency key`
	return err
}

func standardClient() error {
	c := retryablehttp.NewClient()
	hc := c.StandardClient()
	req, err := http.NewRequest(http.MethodPost, endpoint, nil)
	if err != nil {
		return err
	}
	_, err = hc.Do(req) // want `POST \(\*http\.Client\)\.Do through a retryablehttp client has no idempotency key`
	return err
}

func fromRequest() error {
	c := retryablehttp.NewClient()
	hreq, err := http.NewRequest(http.MethodPost, endpoint, nil)
	if err != nil {
		return err
	}
	req, err := retryablehttp.FromRequest(hreq)
	if err != nil {
		return err
	}
	_, err = c.Do(req) // want `POST \(\*retryablehttp\.Client\)\.Do through a retryablehttp client has no idempotency key`
	return err
}

// Negatives.

func keyed(key string) error {
	c := retryablehttp.NewClient()
	req, err := retryablehttp.NewRequest("POST", endpoint, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	_, err = c.Do(req)
	return err
}

func keyedUnderlying(key string) error {
	c := retryablehttp.NewClient()
	hreq, _ := http.NewRequest(http.MethodPost, endpoint, nil)
	hreq.Header.Set("Idempotency-Key", key)
	req, err := retryablehttp.FromRequest(hreq)
	if err != nil {
		return err
	}
	_, err = c.Do(req)
	return err
}

func getAndPut() error {
	c := retryablehttp.NewClient()
	if _, err := c.Get(endpoint); err != nil {
		return err
	}
	req, err := retryablehttp.NewRequest(http.MethodPut, endpoint, nil)
	if err != nil {
		return err
	}
	_, err = c.Do(req)
	return err
}

func noRetries() error {
	c := &retryablehttp.Client{}
	_, err := c.Post(endpoint, "", nil)
	return err
}

// A client from elsewhere: its construction is not in the function.
func fromField(c *retryablehttp.Client) error {
	_, err := c.Post(endpoint, "", nil)
	return err
}

func plainClient() error {
	_, err := http.DefaultClient.Post(endpoint, "", nil)
	if err != nil {
		return fmt.Errorf("post: %w", err)
	}
	return nil
}

func packageLevelForm() error {
	_, err := retryablehttp.PostForm(endpoint, url.Values{"a": {"1"}}) // want `POST retryablehttp\.PostForm through a retryablehttp client has no idempotency key`
	return err
}

func silenced() error {
	//idemlint:ignore unkeyedpost the server dedupes on the order id in the body
	_, err := retryablehttp.Post(endpoint, "application/json", nil)
	return err
}

func silencedNoReason() error {
	//idemlint:ignore unkeyedpost
	_, err := retryablehttp.Post(endpoint, "application/json", nil) // want `POST retryablehttp\.Post through a retryablehttp client has no idempotency key`
	return err
}
