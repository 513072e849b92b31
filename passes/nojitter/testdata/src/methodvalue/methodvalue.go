// Package methodvalue: a func field defaulted to a method value of the
// package's backoff type, built with jitter 0 (posthog-go's
// DefaultBacko().Duration), has no jitter; built with jitter, it has.
package methodvalue

import (
	"math/rand"
	"time"
)

type backo struct {
	base   time.Duration
	jitter float64
}

func newBacko(base time.Duration, jitter float64) *backo { return &backo{base, jitter} }

func (b *backo) Duration(attempt int) time.Duration {
	d := b.base << attempt
	if b.jitter != 0 {
		d = time.Duration(rand.Int63n(int64(d)))
	}
	return d
}

type Config struct {
	RetryAfter func(int) time.Duration
	Jittered   func(int) time.Duration
}

func (c *Config) setDefaults() {
	if c.RetryAfter == nil {
		c.RetryAfter = newBacko(100*time.Millisecond, 0).Duration
	}
	if c.Jittered == nil {
		c.Jittered = newBacko(100*time.Millisecond, 1).Duration
	}
}

func flush() error { return nil }

func (c *Config) send() {
	for i := 0; i < 10; i++ {
		if flush() == nil {
			return
		}
		time.Sleep(c.RetryAfter(i)) // want "deterministic backoff between retry attempts has no jitter; wait a random duration in \\[0, d\\), e.g. retry.Jitter\\(d\\)"
	}
}

// Look-alike: jitter set by the default.
func (c *Config) sendJittered() {
	for i := 0; i < 10; i++ {
		if flush() == nil {
			return
		}
		time.Sleep(c.Jittered(i))
	}
}
