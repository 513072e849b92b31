// Package methodvalue holds waits through a func field that the package
// defaults to a method value of its own backoff type (posthog-go's
// c.RetryAfter = DefaultBacko().Duration), judged by the receiver the
// default constructor builds: jitter 0 has none. Beside it, the look-alike
// whose default constructor sets the jitter.
package methodvalue

import (
	"math"
	"math/rand"
	"time"
)

type Backoff struct {
	base   time.Duration
	factor uint8
	jitter float64
	limit  time.Duration
}

func NewBackoff(base time.Duration, factor uint8, jitter float64, limit time.Duration) *Backoff {
	return &Backoff{base, factor, jitter, limit}
}

// DefaultBackoff sets no jitter.
func DefaultBackoff() *Backoff { return NewBackoff(100*time.Millisecond, 2, 0, 10*time.Second) }

// JitteredBackoff sets some.
func JitteredBackoff() *Backoff { return NewBackoff(100*time.Millisecond, 2, 0.5, 10*time.Second) }

func (b *Backoff) Duration(attempt int) time.Duration {
	d := float64(b.base) * math.Pow(float64(b.factor), float64(attempt))
	if b.jitter != 0 {
		r := rand.Float64()
		dev := math.Floor(r * b.jitter * d)
		if int(math.Floor(r*10))&1 == 0 {
			d = d - dev
		} else {
			d = d + dev
		}
	}
	d = math.Min(d, float64(b.limit))
	return time.Duration(d)
}

type Config struct {
	RetryAfter func(int) time.Duration
	Backoff    func(int) time.Duration
}

func (c *Config) defaults() {
	if c.RetryAfter == nil {
		c.RetryAfter = DefaultBackoff().Duration
	}
	if c.Backoff == nil {
		c.Backoff = JitteredBackoff().Duration
	}
}

type client struct {
	Config
	quit chan struct{}
}

func upload() error { return nil }

func (c *client) send() {
	for i := 0; i != 10; i++ {
		if err := upload(); err == nil {
			return
		}
		select {
		case <-time.After(c.RetryAfter(i)): // want "deterministic backoff between retry attempts has no jitter; wait a random duration in \\[0, d\\), e.g. retry.Jitter\\(d\\)"
		case <-c.quit:
			return
		}
	}
}

// Look-alike: the default's receiver sets the jitter.
func (c *client) sendJittered() {
	for i := 0; i != 10; i++ {
		if err := upload(); err == nil {
			return
		}
		select {
		case <-time.After(c.Backoff(i)):
		case <-c.quit:
			return
		}
	}
}

// The receiver built here by the default constructor: no jitter either.
func sendDirect() {
	b := DefaultBackoff()
	for i := 0; i != 10; i++ {
		if err := upload(); err == nil {
			return
		}
		time.Sleep(b.Duration(i)) // want "deterministic backoff between retry attempts has no jitter; wait a random duration in \\[0, d\\), e.g. retry.Jitter\\(d\\)"
	}
}
