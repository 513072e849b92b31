package fieldclients

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/idemlint/idemlint/runtime/retry"
)

// Look-alikes: field clients the package bounds, or does not choose.

// The constructor sets a Timeout.
type Timed struct {
	hc *http.Client
}

func NewTimed() *Timed {
	return &Timed{hc: &http.Client{Timeout: 10 * time.Second}}
}

func (t *Timed) Get(ctx context.Context, url string) error {
	return sendLoop(ctx, t.hc, url)
}

func (t *Timed) Do(req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		if resp, err := t.hc.Do(req); err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("failed")
}

func sendLoop(ctx context.Context, hc *http.Client, url string) error { return nil }

// The constructor sets a Transport, which may bound each attempt.
type Transported struct {
	hc *http.Client
}

func NewTransported() *Transported {
	return &Transported{hc: &http.Client{Transport: retry.NewTransport(nil, retry.Policy{AttemptTimeout: time.Second})}}
}

func (t *Transported) Do(req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		if resp, err := t.hc.Do(req); err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("failed")
}

// Only the caller's client is stored: no default of the package's.
type Given struct {
	hc *http.Client
}

func NewGiven(hc *http.Client) *Given { return &Given{hc: hc} }

func (g *Given) Do(req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		if resp, err := g.hc.Do(req); err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("failed")
}

// The package sets the default's Timeout later.
type Later struct {
	hc *http.Client
}

func NewLater(d time.Duration) *Later {
	l := &Later{hc: &http.Client{}}
	l.hc.Timeout = d
	return l
}

func (l *Later) Do(req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		if resp, err := l.hc.Do(req); err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("failed")
}

// The default is passed to a function, which may configure it.
type Configured struct {
	hc *http.Client
}

func NewConfigured() *Configured {
	c := &Configured{hc: &http.Client{}}
	configure(c.hc)
	return c
}

func configure(hc *http.Client) { hc.Timeout = 5 * time.Second }

func (c *Configured) Do(req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		if resp, err := c.hc.Do(req); err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("failed")
}

// A default that the model cannot judge: a function's result.
type Made struct {
	hc *http.Client
}

func NewMade() *Made { return &Made{hc: newHTTPClient()} }

func newHTTPClient() *http.Client { return &http.Client{Timeout: time.Minute} }

func (m *Made) Do(req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		if resp, err := m.hc.Do(req); err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("failed")
}
