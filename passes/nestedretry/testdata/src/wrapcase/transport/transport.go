// Package transport is go-containerregistry's remote/transport shape:
// NewRetry returns a RoundTripper whose RoundTrip retries the request
// under retry.Retry; NewLogger's only logs; Wrap may return either.
package transport

import (
	"log"
	"net/http"
	"time"

	"wrapcase/retry"
)

type retryTransport struct {
	inner   http.RoundTripper
	backoff retry.Backoff
}

// NewRetry returns a transport that retries errors.
func NewRetry(inner http.RoundTripper) http.RoundTripper {
	return &retryTransport{inner: inner, backoff: retry.Backoff{Duration: time.Second, Factor: 3, Steps: 3}}
}

func (t *retryTransport) RoundTrip(in *http.Request) (out *http.Response, err error) {
	roundtrip := func() error {
		out, err = t.inner.RoundTrip(in)
		if !retry.Ever(in.Context()) {
			return nil
		}
		return err
	}
	retry.Retry(roundtrip, retry.IsNotNil, t.backoff)
	return
}

type logTransport struct{ inner http.RoundTripper }

// NewLogger returns a transport that logs each request once.
func NewLogger(inner http.RoundTripper) http.RoundTripper {
	return &logTransport{inner: inner}
}

func (t *logTransport) RoundTrip(in *http.Request) (*http.Response, error) {
	log.Printf("%s %s", in.Method, in.URL)
	return t.inner.RoundTrip(in)
}

// Wrap retries only when asked: a client built on it may not retry.
func Wrap(inner http.RoundTripper, retries bool) http.RoundTripper {
	if retries {
		return NewRetry(inner)
	}
	return NewLogger(inner)
}
