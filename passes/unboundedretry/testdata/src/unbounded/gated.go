package unbounded

import "time"

// A helper that caps its retries only when the caller's attempts field is
// positive (nats.go's retryWithBackoff): a call that passes a count the
// package defaults to -1, and the consumer's own done channel, retries
// forever.
type resetOpts struct {
	attempts int
	cancel   <-chan struct{}
}

func retryReset(f func() (bool, error), opts resetOpts) error {
	var err error
	var again bool
	for i := 0; ; i++ {
		again, err = f()
		if !again {
			return err
		}
		if opts.attempts > 0 && i >= opts.attempts-1 {
			break
		}
		select {
		case <-opts.cancel:
			return nil
		case <-time.After(time.Second):
		}
	}
	return err
}

type consumerConfig struct{ MaxResetAttempts int }

type consumer struct {
	cfg  consumerConfig
	done chan struct{}
}

func newConsumer(cfg consumerConfig) *consumer {
	if cfg.MaxResetAttempts == 0 {
		cfg.MaxResetAttempts = -1
	}
	return &consumer{cfg: cfg, done: make(chan struct{})}
}

func (c *consumer) reset() error {
	opts := resetOpts{attempts: c.cfg.MaxResetAttempts, cancel: c.done}
	return retryReset(func() (bool, error) { // want `retryReset has no attempt cap and no deadline with these arguments; pass a positive count and set a deadline`
		if err := dial(); err != nil {
			return true, err
		}
		return false, nil
	}, opts)
}

// ---- look-alikes

// A positive count caps the same helper.
func (c *consumer) resetFive() error {
	return retryReset(func() (bool, error) { return true, dial() }, resetOpts{attempts: 5, cancel: c.done})
}

// A count the model cannot read is no finding.
func (c *consumer) resetN(n int) error {
	return retryReset(func() (bool, error) { return true, dial() }, resetOpts{attempts: n, cancel: c.done})
}
