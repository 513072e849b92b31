// Package hooks: a transport whose backoff hook is nil unless users set it
// (elastic-transport's RetryBackoff): by default it retries at once, as
// many times as its MaxRetries default allows.
package hooks

import (
	"net/http"
	"time"
)

var defaultRetries = 3

type Options struct {
	Retries int
	Backoff func(attempt int) time.Duration
}

func WithBackoff(f func(int) time.Duration) func(*Options) {
	return func(o *Options) { o.Backoff = f }
}

type Transport struct {
	opts Options
	hc   *http.Client
}

func NewTransport(opts Options) *Transport {
	if opts.Retries == 0 {
		opts.Retries = defaultRetries
	}
	return &Transport{opts: opts, hc: &http.Client{Timeout: 5 * time.Second}}
}

func (t *Transport) RoundTrip(req *http.Request) (res *http.Response, err error) {
	for i := 0; i <= t.opts.Retries; i++ { // want "retry loop makes 4 attempts with no wait between them; add a jittered backoff, or use retry.Do"
		if res, err = t.hc.Do(req); err == nil {
			return res, nil
		}
		if t.opts.Backoff != nil {
			time.Sleep(t.opts.Backoff(i))
		}
	}
	return nil, err
}

// Look-alike: a transport whose caller always passes the backoff.
type Required struct {
	backoff func(int) time.Duration
	hc      *http.Client
}

func NewRequired(backoff func(int) time.Duration) *Required {
	return &Required{backoff: backoff, hc: http.DefaultClient}
}

func (t *Required) RoundTrip(req *http.Request) (res *http.Response, err error) {
	for i := 0; i < 5; i++ {
		if res, err = t.hc.Do(req); err == nil {
			return res, nil
		}
		if t.backoff != nil {
			time.Sleep(t.backoff(i))
		}
	}
	return nil, err
}
