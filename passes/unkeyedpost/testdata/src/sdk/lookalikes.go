package sdk

import (
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// A GET-only client: the builder is never called with a POST.
type Reader struct {
	client *retryablehttp.Client
}

func NewReader() *Reader {
	return &Reader{client: retryablehttp.NewClient()}
}

func (r *Reader) newRequest(method, path string) (*retryablehttp.Request, error) {
	return retryablehttp.NewRequest(method, path, nil)
}

func (r *Reader) do(req *retryablehttp.Request) (*http.Response, error) {
	return r.client.Do(req)
}

func (r *Reader) List() error {
	req, err := r.newRequest(http.MethodGet, "/items")
	if err != nil {
		return err
	}
	_, err = r.do(req)
	return err
}

// A keyed generated client: the builder sets the Idempotency-Key header
// on every request it builds (stripe-go's NewRequest).
type Keyed struct {
	client *retryablehttp.Client
}

func NewKeyed() *Keyed {
	return &Keyed{client: retryablehttp.NewClient()}
}

func (k *Keyed) newRequest(method, path, key string) (*retryablehttp.Request, error) {
	req, err := retryablehttp.NewRequest(method, path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Idempotency-Key", key)
	return req, nil
}

func (k *Keyed) do(req *retryablehttp.Request) (*http.Response, error) {
	return k.client.Do(req)
}

func (k *Keyed) Create(key string) error {
	req, err := k.newRequest(http.MethodPost, "/charges", key)
	if err != nil {
		return err
	}
	_, err = k.do(req)
	return err
}

// A field that also holds a client of the caller's: not known to retry.
type Wrapped struct {
	client *retryablehttp.Client
}

func NewWrapped() *Wrapped {
	return &Wrapped{client: retryablehttp.NewClient()}
}

func (w *Wrapped) WithClient(c *retryablehttp.Client) { w.client = c }

func (w *Wrapped) do(req *retryablehttp.Request) (*http.Response, error) {
	return w.client.Do(req)
}

func (w *Wrapped) Create() error {
	req, err := retryablehttp.NewRequest(http.MethodPost, "/things", nil)
	if err != nil {
		return err
	}
	_, err = w.do(req)
	return err
}

// A builder copying the headers its caller passes: they may carry a key.
type Passing struct {
	client *retryablehttp.Client
}

func NewPassing() *Passing {
	return &Passing{client: retryablehttp.NewClient()}
}

func (p *Passing) newRequest(method string, headers http.Header) (*retryablehttp.Request, error) {
	req, err := retryablehttp.NewRequest(method, "/things", nil)
	if err != nil {
		return nil, err
	}
	for k, v := range headers {
		req.Header[k] = v
	}
	return req, nil
}

func (p *Passing) do(req *retryablehttp.Request) (*http.Response, error) {
	return p.client.Do(req)
}

func (p *Passing) Create(h http.Header) error {
	req, err := p.newRequest(http.MethodPost, h)
	if err != nil {
		return err
	}
	_, err = p.do(req)
	return err
}

// A loop given only GETs.
func fetch(hc *http.Client, req *http.Request) (*http.Response, error) {
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		if resp, err = hc.Do(req); err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, err
}

func Get(hc *http.Client) error {
	req, err := http.NewRequest(http.MethodGet, "https://api.example.com/items", nil)
	if err != nil {
		return err
	}
	_, err = fetch(hc, req)
	return err
}

// A loop whose POST caller keys the request.
func deliver(hc *http.Client, req *http.Request) (*http.Response, error) {
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		if resp, err = hc.Do(req); err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, err
}

func Deliver(hc *http.Client, key string) error {
	req, err := http.NewRequest(http.MethodPost, "https://api.example.com/events", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	_, err = deliver(hc, req)
	return err
}
