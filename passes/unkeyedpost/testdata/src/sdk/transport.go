package sdk

import (
	"context"
	"io"
	"net/http"
	"time"
)

// The sends of generated SDKs and search transports: a request their
// callers build, of any method, re-sent through a value (a func value
// wrapping the client's Do, an http.RoundTripper).

func shouldRetry(res *http.Response) bool { return res == nil || res.StatusCode >= 500 }

// RequestConfig is the generated SDK's request: its users build Request
// with the method of the endpoint they call.
type RequestConfig struct {
	Request    *http.Request
	HTTPClient *http.Client
	Middleware func(*http.Request, func(*http.Request) (*http.Response, error)) (*http.Response, error)
	MaxRetries int
}

// Execute re-sends the caller's request through the client's Do wrapped
// in middleware, on a predicate of the response.
func (cfg *RequestConfig) Execute() (*http.Response, error) {
	handler := cfg.HTTPClient.Do
	if cfg.Middleware != nil {
		next := handler
		handler = func(r *http.Request) (*http.Response, error) { return cfg.Middleware(r, next) }
	}
	var res *http.Response
	var err error
	for n := 0; n <= cfg.MaxRetries; n++ {
		ctx := cfg.Request.Context()
		req := cfg.Request.Clone(ctx)
		res, err = handler(req) // want `handler retries the caller's requests, POST too, without an idempotency key; key POSTs or retry only idempotent methods`
		if !shouldRetry(res) || n >= cfg.MaxRetries {
			break
		}
		time.Sleep(time.Duration(n+1) * time.Second)
	}
	return res, err
}

// Transport is a search client's transport: Perform retries every request
// it is given on a transport error, through an http.RoundTripper.
type Transport struct {
	rt      http.RoundTripper
	retries int
	header  http.Header
	log     func(*http.Request, *http.Response, error)
	retryOn func(*http.Request, error) bool
}

func (t *Transport) roundTrip(req *http.Request) (*http.Response, error) {
	return t.rt.RoundTrip(req)
}

// setGlobal copies the headers configured on the transport, the same for
// every request: no idempotency key.
func (t *Transport) setGlobal(req *http.Request) {
	for k, v := range t.header {
		for _, vv := range v {
			req.Header.Add(k, vv)
		}
	}
}

func (t *Transport) Perform(req *http.Request) (*http.Response, error) {
	var res *http.Response
	var err error
	t.setGlobal(req)
	for i := 0; i <= t.retries; i++ {
		res, err = t.roundTrip(req) // want `a retry of the caller's requests, POST too, has no idempotency key; key POSTs or retry only idempotent methods`
		if t.log != nil {
			t.log(req, res, err)
		}
		if err == nil {
			return res, nil
		}
		if t.retryOn != nil && !t.retryOn(req, err) {
			return nil, err
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, err
}

// ---- look-alikes

// PerformIdempotent retries only the methods that are safe to repeat: it
// tests the method.
func (t *Transport) PerformIdempotent(req *http.Request) (*http.Response, error) {
	var err error
	for i := 0; i <= t.retries; i++ {
		var res *http.Response
		res, err = t.rt.RoundTrip(req)
		if err == nil || (req.Method != http.MethodGet && req.Method != http.MethodHead) {
			return res, err
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, err
}

// PerformKeyed sets a key on the caller's request before its retry.
func (t *Transport) PerformKeyed(req *http.Request, key string) (*http.Response, error) {
	req.Header.Set("Idempotency-Key", key)
	var err error
	for i := 0; i <= t.retries; i++ {
		var res *http.Response
		res, err = t.rt.RoundTrip(req)
		if err == nil {
			return res, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, err
}

// performOnce is unexported: its callers are the package's, and none
// passes it a POST.
func (t *Transport) performOnce(req *http.Request) (*http.Response, error) {
	var err error
	for i := 0; i <= t.retries; i++ {
		var res *http.Response
		res, err = t.rt.RoundTrip(req)
		if err == nil {
			return res, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, err
}

func (t *Transport) Ping(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, "/", nil)
	if err != nil {
		return err
	}
	res, err := t.performOnce(req)
	if err == nil {
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
	return err
}

// Probe sends one request of the caller's through a func value: no retry.
func (cfg *RequestConfig) Probe() (*http.Response, error) {
	handler := cfg.HTTPClient.Do
	return handler(cfg.Request)
}

// Signer signs a request (an AWS SigV4 signer): a user may install one.
type Signer interface {
	SignRequest(*http.Request) error
}

// SignedTransport signs each attempt when a signer is set.
type SignedTransport struct {
	rt      http.RoundTripper
	signer  Signer
	retries int
}

func (t *SignedTransport) sign(req *http.Request) error {
	if t.signer != nil {
		return t.signer.SignRequest(req)
	}
	return nil
}

// Perform re-sends every request; the optional signer is a hook the
// request does not rely on for a key.
func (t *SignedTransport) Perform(req *http.Request) (*http.Response, error) {
	var err error
	for i := 0; i <= t.retries; i++ {
		if err = t.sign(req); err != nil {
			return nil, err
		}
		var res *http.Response
		res, err = t.rt.RoundTrip(req) // want `a retry of the caller's requests, POST too, has no idempotency key; key POSTs or retry only idempotent methods`
		if err == nil {
			return res, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, err
}

// PerformEdited hands every request to an editor the transport always
// calls: it may set a key.
func (t *SignedTransport) PerformEdited(req *http.Request) (*http.Response, error) {
	var err error
	for i := 0; i <= t.retries; i++ {
		if err = t.signer.SignRequest(req); err != nil {
			return nil, err
		}
		var res *http.Response
		res, err = t.rt.RoundTrip(req)
		if err == nil {
			return res, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, err
}
