// Package hooks holds retry loops whose wait is an optional hook: a func
// field the package leaves nil unless its users set it (elastic-transport's
// and opensearch-go's RetryBackoff), so by default the loop retries at
// once; and whose cap is a field the constructor defaults (MaxRetries 3
// when 0). Beside them, the look-alikes: a hook the constructor sets.
package hooks

import (
	"errors"
	"math/rand"
	"net/http"
	"time"
)

var defaultMaxRetries = 3

const defaultHealthRetries = 5

// Config is what users pass: RetryBackoff is nil unless they set it.
type Config struct {
	MaxRetries    int
	HealthRetries int
	RetryBackoff  func(attempt int) time.Duration
}

// Option configures a Config: what they store is the users' choice.
type Option func(*Config)

func WithMaxRetries(n int) Option { return func(c *Config) { c.MaxRetries = n } }

func WithRetryBackoff(f func(int) time.Duration) Option {
	return func(c *Config) { c.RetryBackoff = f }
}

type Client struct {
	maxRetries    int
	healthRetries int
	retryBackoff  func(attempt int) time.Duration
	jittered      func(attempt int) time.Duration
	hc            *http.Client
}

func New(cfg Config, opts ...Option) *Client {
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = defaultMaxRetries
	}
	if cfg.HealthRetries == 0 {
		cfg.HealthRetries = defaultHealthRetries
	}
	return &Client{
		maxRetries:    cfg.MaxRetries,
		healthRetries: cfg.HealthRetries,
		retryBackoff:  cfg.RetryBackoff,
		jittered: func(attempt int) time.Duration {
			return time.Duration(rand.Int63n(int64(100 * time.Millisecond << attempt)))
		},
		hc: &http.Client{Timeout: 10 * time.Second},
	}
}

var errRetry = errors.New("retry")

// Perform waits only if RetryBackoff is set, which it is not by default:
// up to 4 attempts at once.
func (c *Client) Perform(req *http.Request) (*http.Response, error) {
	var res *http.Response
	var err error
	for i := 0; i <= c.maxRetries; i++ { // want "loop cap=4 deadline=none waits=none body"
		res, err = c.hc.Do(req)
		if err == nil {
			break
		}
		if c.retryBackoff != nil {
			time.Sleep(c.retryBackoff(i + 1))
		}
	}
	return res, err
}

// PerformLast is opensearch-go's: the hook is tested beside the count.
func (c *Client) PerformLast(req *http.Request) (*http.Response, error) {
	var res *http.Response
	var err error
	for i := 0; i <= c.healthRetries; i++ { // want "loop cap=6 deadline=none waits=none body"
		res, err = c.hc.Do(req)
		if err == nil {
			break
		}
		if c.retryBackoff != nil && i < c.healthRetries {
			timer := time.NewTimer(c.retryBackoff(i + 1))
			<-timer.C
		}
	}
	return res, err
}

// PerformJittered waits on a hook the constructor sets: its waits are that
// function's.
func (c *Client) PerformJittered(req *http.Request) (*http.Response, error) {
	var res *http.Response
	var err error
	for i := 0; i <= c.maxRetries; i++ { // want "loop cap=4 deadline=none waits=jittered body"
		res, err = c.hc.Do(req)
		if err == nil {
			break
		}
		if c.jittered != nil {
			time.Sleep(c.jittered(i + 1))
		}
	}
	return res, err
}

// Look-alike: every caller passes the backoff (a constructor's parameter,
// not an option), so the hook's wait is what they pass, not none; and the
// cap is a field with two defaults.
type required struct {
	max     int
	backoff func(int) time.Duration
	hc      *http.Client
}

func newRequired(backoff func(int) time.Duration) *required {
	return &required{max: 2, backoff: backoff, hc: &http.Client{Timeout: time.Second}}
}

func newRequiredLong(backoff func(int) time.Duration) *required {
	r := newRequired(backoff)
	r.max = 5
	return r
}

func (r *required) perform(req *http.Request) (*http.Response, error) {
	var res *http.Response
	var err error
	for i := 0; i <= r.max; i++ { // want "loop cap=bounded deadline=none waits=unknown body"
		res, err = r.hc.Do(req)
		if err == nil {
			break
		}
		if r.backoff != nil {
			time.Sleep(r.backoff(i + 1))
		}
	}
	return res, err
}

// Look-alike: etcd's interceptor options. The default max is 0 (off), and
// the package's own constructor passes withMax(10): what it passes is its
// default too, so the cap is bounded, not 1 attempt.
type callOptions struct{ max uint }

type callOption func(*callOptions)

func withMax(n uint) callOption { return func(o *callOptions) { o.max = n } }

var defaultCallOptions = &callOptions{max: 0}

func interceptor(opts ...callOption) func(req *http.Request) error {
	o := *defaultCallOptions
	for _, f := range opts {
		f(&o)
	}
	return func(req *http.Request) error {
		var err error
		for attempt := uint(0); attempt < o.max; attempt++ { // want "loop cap=bounded deadline=none waits=none body"
			if _, err = http.DefaultClient.Do(req); err == nil {
				return nil
			}
		}
		return err
	}
}

func newInterceptor() func(req *http.Request) error { return interceptor(withMax(10)) }
