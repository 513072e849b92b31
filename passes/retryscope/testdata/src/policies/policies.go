// Package policies holds retry loops that ask a policy value whether to try
// again, olivere/elastic's shape: a policy that never retries by default
// makes the loop a single attempt (no scope); one that retries, or one every
// user passes, leaves a retry with the policy's unknown bound.
package policies

import (
	"context"
	"errors"
	"time"
)

type Retrier interface {
	Retry(ctx context.Context, retry int, err error) (time.Duration, bool, error)
}

// StopRetrier never retries.
type StopRetrier struct{}

func NewStopRetrier() *StopRetrier { return &StopRetrier{} }

func (r *StopRetrier) Retry(ctx context.Context, retry int, err error) (time.Duration, bool, error) {
	return 0, false, nil
}

// BackoffRetrier retries by its ticks.
type BackoffRetrier struct{ ticks []int }

func NewBackoffRetrier(ticks ...int) *BackoffRetrier { return &BackoffRetrier{ticks: ticks} }

func (r *BackoffRetrier) Retry(ctx context.Context, retry int, err error) (time.Duration, bool, error) {
	if retry >= len(r.ticks) {
		return 0, false, nil
	}
	return time.Duration(r.ticks[retry]) * time.Millisecond, true, nil
}

var noRetries = NewStopRetrier()

func send() error { return nil }

func connected() bool { return true }

func healthcheck() {}

var errNoClient = errors.New("no client")

type Client struct{ retrier Retrier }

type ClientOptionFunc func(*Client) error

func NewClient(options ...ClientOptionFunc) *Client {
	c := &Client{retrier: noRetries}
	for _, o := range options {
		_ = o(c)
	}
	return c
}

// SetRetrier and SetMaxRetries are the users' choices, not the defaults.
func SetRetrier(r Retrier) ClientOptionFunc {
	return func(c *Client) error {
		if r == nil {
			r = noRetries
		}
		c.retrier = r
		return nil
	}
}

func SetMaxRetries(n int) ClientOptionFunc {
	return func(c *Client) error {
		if n == 0 {
			c.retrier = noRetries
		} else {
			c.retrier = NewBackoffRetrier(make([]int, n)...)
		}
		return nil
	}
}

type Options struct{ Retrier Retrier }

type Service struct {
	c       *Client
	retrier Retrier
}

// Retrier sets the service's own policy, nil unless a user calls it.
func (s *Service) Retrier(r Retrier) *Service {
	s.retrier = r
	return s
}

func (s *Service) Do(ctx context.Context) error {
	return s.c.PerformRequest(ctx, Options{Retrier: s.retrier})
}

// PerformRequest asks the client's policy, a StopRetrier unless a user sets
// another, or the request's, nil unless a user sets one: one attempt by
// default, no retry scope. Its one pass after a health check when no
// connection was up sends nothing twice.
func (c *Client) PerformRequest(ctx context.Context, opt Options) error {
	retrier := c.retrier
	if opt.Retrier != nil {
		retrier = opt.Retrier
	}
	retried := false
	for n := 1; ; n++ {
		if !connected() {
			if !retried {
				healthcheck()
				retried = true
				continue
			}
			return errNoClient
		}
		err := send()
		if err == nil {
			return nil
		}
		wait, ok, rerr := retrier.Retry(ctx, n, err)
		if rerr != nil {
			return rerr
		} else if !ok {
			return err
		}
		time.Sleep(wait)
		continue // try again
	}
}

func next() error { return nil }

// PerformRequestEach is olivere's PerformRequest as written: the policy is
// asked on each failure's way (no connection, a failed send), and the one
// pass after a forced health check is taken once (retried is set on every
// way to the next pass and never cleared): one attempt by default, no
// retry scope.
func (c *Client) PerformRequestEach(ctx context.Context) error {
	retrier := c.retrier
	var retried bool
	n := 0
	for {
		if err := next(); errors.Is(err, errNoClient) {
			n++
			if !retried {
				healthcheck()
				retried = true
				continue
			}
			wait, ok, rerr := retrier.Retry(ctx, n, err)
			if rerr != nil {
				return rerr
			}
			if !ok {
				return err
			}
			retried = true
			time.Sleep(wait)
			continue
		}
		err := send()
		if err == nil {
			return nil
		}
		n++
		wait, ok, rerr := retrier.Retry(ctx, n, err)
		if rerr != nil {
			return rerr
		}
		if !ok {
			return err
		}
		retried = true
		time.Sleep(wait)
	}
}

// BackoffClient's default policy retries: the loop is a retry, bounded by
// the policy.
type BackoffClient struct{ retrier Retrier }

func NewBackoffClient() *BackoffClient {
	return &BackoffClient{retrier: NewBackoffRetrier(100, 200)}
}

func (c *BackoffClient) Perform(ctx context.Context) error {
	var n int
	for { // want `loop cap=unknown deadline=unknown waits=unknown body`
		n++
		err := send()
		if err == nil {
			return nil
		}
		wait, ok, rerr := c.retrier.Retry(ctx, n, err)
		switch {
		case rerr != nil:
			return rerr
		case !ok:
			return err
		}
		time.Sleep(wait)
	}
}

// ParamClient's policy is what every user passes to its constructor.
type ParamClient struct{ retrier Retrier }

func NewParamClient(r Retrier) *ParamClient { return &ParamClient{retrier: r} }

func (c *ParamClient) Perform(ctx context.Context) (err error) {
	for n := 1; ; n++ { // want `loop cap=unknown deadline=unknown waits=unknown body`
		if err = send(); err == nil {
			return nil
		}
		wait, again, _ := c.retrier.Retry(ctx, n, err)
		if !again {
			return err
		}
		time.Sleep(wait)
	}
}

// A StopRetrier's loop that also retries on a counter of its own: still a
// retry (3 attempts on that path).
func (c *Client) Twice(ctx context.Context) error {
	n := 0
	for i := 0; ; i++ { // want `loop cap=3 deadline=unknown waits=unknown body`
		err := send()
		if err == nil {
			return nil
		}
		if i < 2 {
			continue
		}
		n++
		wait, ok, _ := c.retrier.Retry(ctx, n, err)
		if !ok {
			return err
		}
		time.Sleep(wait)
	}
}
