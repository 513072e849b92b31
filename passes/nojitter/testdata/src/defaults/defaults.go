// Package defaults: waits read from configuration fields, judged by the
// defaults the package's constructor sets (sarama's NewConfig, kafka-go's
// NewReader), in the retry shapes those clients write.
package defaults

import (
	"context"
	"errors"
	"math/rand"
	"time"
)

func send() error { return nil }

var errClosed = errors.New("closed")

type Config struct {
	Metadata struct {
		Retry struct {
			Max         int
			Backoff     time.Duration
			BackoffFunc func(retries, maxRetries int) time.Duration
		}
	}
	Consumer struct {
		Retry struct {
			Max         int
			Backoff     time.Duration
			BackoffFunc func(retries int) time.Duration
		}
	}
	Producer struct {
		Retry struct {
			Max         int
			Backoff     time.Duration
			BackoffFunc func(retries, maxRetries int) time.Duration
		}
	}
	// Computed is set to what a function of the package computes.
	Computed time.Duration
}

func NewConfig() *Config {
	c := &Config{}
	c.Metadata.Retry.Max = 3
	c.Metadata.Retry.Backoff = 250 * time.Millisecond
	c.Consumer.Retry.Backoff = 2 * time.Second
	c.Producer.Retry.Max = 3
	c.Producer.Retry.Backoff = 100 * time.Millisecond
	c.Producer.Retry.BackoffFunc = func(retries, maxRetries int) time.Duration {
		return time.Duration(rand.Int63n(int64(100 * time.Millisecond << retries)))
	}
	return c
}

func (c *Config) WithComputed(load func() int) *Config {
	c.Computed = scaled(load())
	return c
}

func scaled(n int) time.Duration { return time.Duration(n) * time.Second }

func computeMetadataBackoff(conf *Config, remaining int) time.Duration {
	if conf.Metadata.Retry.BackoffFunc != nil {
		return conf.Metadata.Retry.BackoffFunc(conf.Metadata.Retry.Max-remaining, conf.Metadata.Retry.Max)
	}
	return conf.Metadata.Retry.Backoff
}

type client struct{ conf *Config }

// sarama's tryRefreshMetadata: a retry by recursion through a closure
// that sleeps the Metadata.Retry.Backoff default.
func (c *client) tryRefresh(attemptsRemaining int) error {
	retry := func(err error) error {
		if attemptsRemaining > 0 {
			backoff := computeMetadataBackoff(c.conf, attemptsRemaining)
			time.Sleep(backoff) // want `constant wait between retry attempts has no jitter`
			attemptsRemaining--
			return c.tryRefresh(attemptsRemaining)
		}
		return err
	}
	if err := send(); err != nil {
		return retry(err)
	}
	return nil
}

// Look-alike: the wait is a field the package sets to a value it
// computes: not a default the model can read.
func (c *client) retryComputed() error {
	var err error
	for n := 0; n < 3; n++ {
		if err = send(); err == nil {
			return nil
		}
		time.Sleep(c.conf.Computed)
	}
	return err
}

type producer struct{ conf *Config }

func (p *producer) backoff(retries int) time.Duration {
	if p.conf.Producer.Retry.BackoffFunc != nil {
		return p.conf.Producer.Retry.BackoffFunc(retries, p.conf.Producer.Retry.Max)
	}
	return p.conf.Producer.Retry.Backoff
}

// Look-alike: NewConfig sets a jittered BackoffFunc, which is taken.
func (p *producer) resend() error {
	var err error
	for n := 0; n < p.conf.Producer.Retry.Max; n++ {
		if err = send(); err == nil {
			return nil
		}
		time.Sleep(p.backoff(n))
	}
	return err
}

type none struct{}

type partitionConsumer struct {
	conf             *Config
	trigger, stopped chan none
	retries          int
}

func (child *partitionConsumer) dispatch() error { return nil }

func (child *partitionConsumer) triggerRedispatch() {
	select {
	case child.trigger <- none{}:
	default:
	}
}

func (child *partitionConsumer) computeBackoff() time.Duration {
	child.retries++
	if child.conf.Consumer.Retry.BackoffFunc != nil {
		return child.conf.Consumer.Retry.BackoffFunc(child.retries)
	}
	return child.conf.Consumer.Retry.Backoff
}

// sarama's partition consumer: a failed dispatch triggers the loop itself,
// which arms the Consumer.Retry.Backoff timer (2 s by default).
func (child *partitionConsumer) dispatcher() {
	var backoff <-chan time.Time
	for {
		select {
		case <-child.stopped:
			return
		case <-child.trigger:
			if backoff == nil {
				backoff = time.After(child.computeBackoff()) // want `constant wait between retry attempts has no jitter`
			}
		case <-backoff:
			backoff = nil
			if err := child.dispatch(); err != nil {
				child.triggerRedispatch()
			}
		}
	}
}

type groupConfig struct{ JoinGroupBackoff time.Duration }

type group struct {
	config groupConfig
	done   chan struct{}
}

func newGroup(c groupConfig) *group {
	if c.JoinGroupBackoff == 0 {
		c.JoinGroupBackoff = 5 * time.Second
	}
	return &group{config: c}
}

func (g *group) next(id string) (string, error) { return id, nil }

// kafka-go's consumer group: every member rejoins after the same
// JoinGroupBackoff.
func (g *group) run() {
	var id string
	var err error
	for {
		id, err = g.next(id)
		var backoff <-chan time.Time
		switch {
		case err == nil:
			continue
		case errors.Is(err, errClosed):
			return
		default:
			id = ""
			backoff = time.After(g.config.JoinGroupBackoff) // want `constant wait between retry attempts has no jitter`
		}
		if backoff != nil {
			select {
			case <-g.done:
				return
			case <-backoff:
			}
		}
	}
}

type reader struct{ backoffMin, backoffMax time.Duration }

func newReader() *reader { return &reader{backoffMin: 100 * time.Millisecond, backoffMax: time.Second} }

func (r *reader) initialize(ctx context.Context) error { return nil }
func (r *reader) read(ctx context.Context)             {}

func sleep(ctx context.Context, d time.Duration) bool {
	select {
	case <-time.After(d):
		return true
	case <-ctx.Done():
		return false
	}
}

func backoff(attempt int, min, max time.Duration) time.Duration {
	d := time.Duration(attempt*attempt) * min
	if d > max {
		d = max
	}
	return d
}

// kafka-go's reader.run: the backoff at the top of the pass grows with
// the consecutive failures, deterministically.
func (r *reader) run(ctx context.Context) {
	for attempt := 0; true; attempt++ {
		if attempt != 0 {
			if !sleep(ctx, backoff(attempt, r.backoffMin, r.backoffMax)) { // want `deterministic backoff between retry attempts has no jitter`
				return
			}
		}
		if err := r.initialize(ctx); err != nil {
			continue
		}
		attempt = 0
		r.read(ctx)
	}
}

// Look-alike: a poller's period at the top of the pass.
func (r *reader) poll(ctx context.Context) {
	for {
		if !sleep(ctx, time.Second) {
			return
		}
		if err := r.initialize(ctx); err != nil {
			continue
		}
		r.read(ctx)
	}
}
