// Package defaults: attempt caps read from configuration fields, judged by
// the defaults the package's constructor sets; a cap whose default is 0,
// which the loop reads as no cap, bounds nothing (sarama's
// Consumer.Retry.Max).
package defaults

import "time"

func send() error { return nil }

type Config struct {
	Consumer struct {
		Retry struct {
			Max     int
			Backoff time.Duration
		}
	}
	Producer struct {
		Retry struct {
			Max     int
			Backoff time.Duration
		}
	}
}

func NewConfig() *Config {
	c := &Config{}
	c.Consumer.Retry.Backoff = 2 * time.Second
	c.Producer.Retry.Max = 3
	c.Producer.Retry.Backoff = 100 * time.Millisecond
	return c
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

// sarama's partition consumer: Consumer.Retry.Max is 0 by default, and 0
// means retry forever.
func (child *partitionConsumer) dispatcher() {
	var backoff <-chan time.Time
	for { // want `retry loop has no attempt cap and no deadline`
		select {
		case <-child.stopped:
			return
		case <-child.trigger:
			if max := child.conf.Consumer.Retry.Max; max > 0 && child.retries >= max {
				return
			}
			if backoff == nil {
				child.retries++
				backoff = time.After(child.conf.Consumer.Retry.Backoff)
			}
		case <-backoff:
			backoff = nil
			if err := child.dispatch(); err != nil {
				child.triggerRedispatch()
			}
		}
	}
}

type producer struct {
	conf    *Config
	retries int
}

// A counted loop whose cap is the consumer's, 0 by default: no cap.
func (p *producer) resend() error {
	var err error
	for n := 0; ; n++ { // want `retry loop has no attempt cap and no deadline`
		if err = send(); err == nil {
			return nil
		}
		if max := p.conf.Consumer.Retry.Max; max > 0 && n >= max {
			return err
		}
		time.Sleep(p.conf.Consumer.Retry.Backoff)
	}
}

// Look-alike: the producer's cap, 3 by default, bounds the loop.
func (p *producer) resendCapped() error {
	var err error
	for n := 0; ; n++ {
		if err = send(); err == nil {
			return nil
		}
		if max := p.conf.Producer.Retry.Max; max > 0 && n >= max {
			return err
		}
		time.Sleep(p.conf.Producer.Retry.Backoff)
	}
}

type client struct{ maxRetries int }

// NewClient stores the cap its caller passes: the package has no default
// to judge, and the cap bounds the loop as written.
func NewClient(maxRetries int) *client { return &client{maxRetries: maxRetries} }

func (c *client) do() error {
	var err error
	for n := 0; ; n++ {
		if err = send(); err == nil {
			return nil
		}
		if c.maxRetries > 0 && n >= c.maxRetries {
			return err
		}
		time.Sleep(time.Second)
	}
}
