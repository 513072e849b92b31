package helpers

import (
	"errors"
	"time"
)

// nats.go's retryWithBackoff: the cap and the stop channel come in a
// struct parameter. Its loop is bounded by what the caller passes; each
// call reads its own argument (argfields.go).

type backoffOpts struct {
	attempts int
	interval time.Duration
	cancel   <-chan struct{}
	skip     bool
	custom   []time.Duration
}

// With custom intervals, it waits each in turn (a range over items: no
// scope); else the count below, the helper's loop.
func retryWithBackoff(f func(int) (bool, error), opts backoffOpts) error {
	var err error
	var again bool
	if len(opts.custom) > 0 {
		for i, interval := range opts.custom {
			select {
			case <-opts.cancel:
				return nil
			case <-time.After(interval):
			}
			again, err = f(i)
			if !again {
				return err
			}
		}
		return err
	}
	for i := 0; ; i++ { // want "loop cap=bounded deadline=caller's-context waits=constant,constant body"
		if i == 0 && opts.skip {
			time.Sleep(opts.interval)
			continue
		}
		again, err = f(i)
		if !again {
			return err
		}
		if opts.attempts > 0 && i >= opts.attempts-1 {
			break
		}
		select {
		case <-opts.cancel:
			return nil
		case <-time.After(opts.interval):
		}
	}
	return err
}

type orderedConfig struct{ MaxResetAttempts int }

type ordered struct {
	cfg  orderedConfig
	done chan struct{}
}

func newOrdered(cfg orderedConfig) *ordered {
	if cfg.MaxResetAttempts == 0 {
		cfg.MaxResetAttempts = -1 // unlimited
	}
	return &ordered{cfg: cfg, done: make(chan struct{})}
}

var errClosed = errors.New("closed")

func create() error { return nil }

// The reset passes the config's attempts, -1 by default, and its own
// done channel: no cap, no deadline.
func (o *ordered) reset() error {
	opts := backoffOpts{attempts: o.cfg.MaxResetAttempts, interval: time.Second, cancel: o.done}
	return retryWithBackoff(func(int) (bool, error) { // want "library-call cap=none deadline=none waits=constant,constant body"
		if err := create(); err != nil {
			return true, err
		}
		return false, nil
	}, opts)
}

// Look-alike: three attempts.
func (o *ordered) resetThree() error {
	return retryWithBackoff(func(int) (bool, error) { // want "library-call cap=bounded deadline=none waits=constant,constant body"
		return true, create()
	}, backoffOpts{attempts: 3, interval: time.Second, cancel: o.done})
}

// Look-alike: the stop channel comes from the caller.
func resetUntil(stop <-chan struct{}) error {
	return retryWithBackoff(func(int) (bool, error) { // want "library-call cap=none deadline=caller's-context waits=constant,constant body"
		return true, create()
	}, backoffOpts{attempts: -1, interval: time.Second, cancel: stop})
}
