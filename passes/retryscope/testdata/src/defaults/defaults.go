// Package defaults holds waits and bounds read from configuration fields,
// judged by what the package's own code stores in them by default (the
// shapes of sarama's Config and kafka-go's ReaderConfig), each beside a
// look-alike.
package defaults

import (
	"errors"
	"math/rand"
	"time"
)

func send() error { return nil }

// Config is sarama's: nested anonymous structs that NewConfig fills.
type Config struct {
	Admin struct {
		Retry struct {
			Max     int
			Backoff time.Duration
		}
	}
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
	// Random is set to a random value.
	Random time.Duration
}

func NewConfig() *Config {
	c := &Config{}
	c.Admin.Retry.Max = 5
	c.Admin.Retry.Backoff = 100 * time.Millisecond
	c.Metadata.Retry.Max = 3
	c.Metadata.Retry.Backoff = 250 * time.Millisecond
	c.Consumer.Retry.Backoff = 2 * time.Second
	c.Producer.Retry.Max = 3
	c.Producer.Retry.Backoff = 100 * time.Millisecond
	c.Producer.Retry.BackoffFunc = func(retries, maxRetries int) time.Duration {
		return time.Duration(rand.Int63n(int64(100 * time.Millisecond << retries)))
	}
	c.Random = time.Duration(rand.Int63n(int64(time.Second)))
	return c
}

func (c *Config) WithComputed(load func() int) *Config {
	c.Computed = scaled(load())
	return c
}

func scaled(n int) time.Duration { return time.Duration(n) * time.Second }

type admin struct{ conf *Config }

// A wait on a field through a chain of selectors, which NewConfig sets to a
// constant: a constant wait.
func (a *admin) retryOnError() error {
	var err error
	for remaining := a.conf.Admin.Retry.Max + 1; remaining > 0; remaining-- { // want "loop cap=bounded deadline=none waits=constant body"
		if err = send(); err == nil {
			return nil
		}
		time.Sleep(a.conf.Admin.Retry.Backoff)
	}
	return err
}

// Look-alike: a field the package sets to a value it computes through a
// function it cannot see into is not a default the model can read: the
// wait is unknown.
func (a *admin) retryComputed() error {
	var err error
	for n := 0; n < 3; n++ { // want "loop cap=3 deadline=none waits=unknown body"
		if err = send(); err == nil {
			return nil
		}
		time.Sleep(a.conf.Computed)
	}
	return err
}

// Look-alike: a field the package sets to a random value: jittered, not
// constant.
func (a *admin) retryRandom() error {
	var err error
	for n := 0; n < 3; n++ { // want "loop cap=3 deadline=none waits=jittered body"
		if err = send(); err == nil {
			return nil
		}
		time.Sleep(a.conf.Random)
	}
	return err
}

// computeMetadataBackoff returns the Duration field unless the hook, which
// the package never sets, is set.
func computeMetadataBackoff(conf *Config, remaining int) time.Duration {
	if conf.Metadata.Retry.BackoffFunc != nil {
		return conf.Metadata.Retry.BackoffFunc(conf.Metadata.Retry.Max-remaining, conf.Metadata.Retry.Max)
	}
	return conf.Metadata.Retry.Backoff
}

type client struct{ conf *Config }

func (c *client) refresh() error {
	var err error
	for remaining := c.conf.Metadata.Retry.Max; remaining >= 0; remaining-- { // want "loop cap=bounded deadline=none waits=constant body"
		if err = send(); err == nil {
			return nil
		}
		time.Sleep(computeMetadataBackoff(c.conf, remaining))
	}
	return err
}

type producer struct{ conf *Config }

// backoff returns the func field's value when set: NewConfig sets it to a
// jittered function, so the delay is jittered.
func (p *producer) backoff(retries int) time.Duration {
	if p.conf.Producer.Retry.BackoffFunc != nil {
		return p.conf.Producer.Retry.BackoffFunc(retries, p.conf.Producer.Retry.Max)
	}
	return p.conf.Producer.Retry.Backoff
}

// Look-alike: the jittered default of a func field.
func (p *producer) send() error {
	var err error
	for n := 0; n < p.conf.Producer.Retry.Max; n++ { // want "loop cap=3 deadline=none waits=jittered body"
		if err = send(); err == nil {
			return nil
		}
		time.Sleep(p.backoff(n))
	}
	return err
}

// ReaderConfig is kafka-go's: the user sets it, and NewReader fills in a
// default where it is 0; the reader copies it into a field of its own.
type ReaderConfig struct {
	ReadBackoffMin time.Duration
	ReadBackoffMax time.Duration
	// MaxWait has no default: the user's to set.
	MaxWait time.Duration
}

const defaultReadBackoffMin = 100 * time.Millisecond

type Reader struct{ config ReaderConfig }

func NewReader(config ReaderConfig) *Reader {
	if config.ReadBackoffMin == 0 {
		config.ReadBackoffMin = defaultReadBackoffMin
	}
	if config.ReadBackoffMax == 0 {
		config.ReadBackoffMax = time.Second
	}
	return &Reader{config: config}
}

type reader struct {
	backoffDelayMin time.Duration
	backoffDelayMax time.Duration
	maxWait         time.Duration
	attempts        int
}

func (r *Reader) start() *reader {
	return &reader{
		backoffDelayMin: r.config.ReadBackoffMin,
		backoffDelayMax: r.config.ReadBackoffMax,
		maxWait:         r.config.MaxWait,
	}
}

func backoff(attempt int, min, max time.Duration) time.Duration {
	d := time.Duration(attempt*attempt) * min
	if d > max {
		d = max
	}
	return d
}

// Fields copied from the defaulted configuration, through a helper with
// the attempt counter: deterministic growth.
func (r *reader) initialize() error {
	var err error
	for attempt := 0; attempt < 10; attempt++ { // want "loop cap=10 deadline=none waits=deterministic-growth body"
		if attempt != 0 {
			time.Sleep(backoff(attempt, r.backoffDelayMin, r.backoffDelayMax))
		}
		if err = send(); err == nil {
			return nil
		}
	}
	return err
}

// A field the package never sets holds what the user sets, the same on
// every pass: a constant wait.
func (r *reader) userWait() error {
	var err error
	for n := 0; n < 3; n++ { // want "loop cap=3 deadline=none waits=constant body"
		if err = send(); err == nil {
			return nil
		}
		time.Sleep(r.maxWait)
	}
	return err
}

// A field the package counts on is a counter: the delay grows.
func (r *reader) counted() error {
	var err error
	for n := 0; n < 3; n++ { // want "loop cap=3 deadline=none waits=deterministic-growth body"
		if err = send(); err == nil {
			return nil
		}
		r.attempts++
		time.Sleep(time.Duration(r.attempts) * r.backoffDelayMin)
	}
	return err
}

var errStop = errors.New("stop")

// nats' publish options: the default is a constant, and an option stores
// what its caller passes: the wait is the same on every pass.
type pubOpts struct {
	rwait time.Duration
	rnum  int
}

type PubOpt func(*pubOpts) error

func RetryWait(d time.Duration) PubOpt {
	return func(o *pubOpts) error {
		o.rwait = d
		return nil
	}
}

func publish(opts ...PubOpt) error {
	o := pubOpts{rwait: 250 * time.Millisecond, rnum: 2}
	for _, opt := range opts {
		if err := opt(&o); err != nil {
			return err
		}
	}
	err := send()
	for r := 0; err != nil && r < o.rnum; r++ { // want "loop cap=2 deadline=none waits=constant body"
		time.Sleep(o.rwait)
		err = send()
	}
	return err
}

// A field of the failure's error (slack's RateLimitedError.RetryAfter,
// parsed from a header) is the server's wait; taken as the max with the
// attempt's own growth, the wait grows whenever the server sends none.
type rateLimited struct{ RetryAfter time.Duration }

func (e *rateLimited) Error() string { return "rate limited" }

func parse(secs int64) error { return &rateLimited{time.Duration(secs) * time.Second} }

func connect() (int, error) { return 0, nil }

func reconnect() int {
	attempts := 0
	for { // want "loop cap=none deadline=none waits=deterministic-growth body"
		v, err := connect()
		if err == nil {
			return v
		}
		var wait time.Duration
		if rl, ok := err.(*rateLimited); ok {
			wait = rl.RetryAfter
		}
		attempts++
		wait = max(wait, time.Duration(attempts)*time.Second)
		time.Sleep(wait)
	}
}
