// Package shapes holds look-alikes of the recall corpus's missed shapes
// (testdata/recall/README.md, "What was missed, by shape"), done right: a
// delay from a configuration field or a helper that jitters by default,
// recursion and goto with a jittered wait, bounds whose zero means a
// default cap, SDK request helpers that key a POST once, and layers one
// step away that make one attempt.
package shapes

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

var errRetriable = errors.New("retriable")

func attempt(ctx context.Context) error { return nil }

// TxnConfig is a transactional producer's retry configuration.
type TxnConfig struct {
	Max         int
	Backoff     time.Duration
	BackoffFunc func(retries, maxRetries int) time.Duration
}

// NewTxnConfig defaults the backoff to a jittered function.
func NewTxnConfig() *TxnConfig {
	return &TxnConfig{Max: 5, Backoff: 100 * time.Millisecond, BackoffFunc: func(retries, _ int) time.Duration {
		return time.Duration(rand.Int64N(int64(100*time.Millisecond) << retries))
	}}
}

// Txn is a transactional producer.
type Txn struct{ conf *TxnConfig }

// computeBackoff returns the configured function's delay, or the base
// delay drawn at random.
func (t *Txn) computeBackoff(retries int) time.Duration {
	if t.conf.BackoffFunc != nil {
		return t.conf.BackoffFunc(retries, t.conf.Max)
	}
	return rand.N(t.conf.Backoff)
}

// AddOffsets retries with a delay a helper computes, jittered on both
// paths, up to Max attempts.
//
// lookalike nojitter sarama-txn-add-offsets: a delay from a helper that returns a constant field unless a BackoffFunc is set
func (t *Txn) AddOffsets(ctx context.Context) error {
	var err error
	for retries := 0; retries < t.conf.Max; retries++ {
		if err = attempt(ctx); err == nil || !errors.Is(err, errRetriable) {
			return err
		}
		time.Sleep(t.computeBackoff(retries))
	}
	return err
}

// FetchInitialOffset retries by recursion, counting down, with a jittered
// wait on every path that retries.
//
// lookalike nojitter sarama-fetch-initial-offset: recursion that retries at once or after a constant wait
func (t *Txn) FetchInitialOffset(ctx context.Context, retries int) error {
	err := attempt(ctx)
	switch {
	case err == nil:
		return nil
	case retries <= 0 || !errors.Is(err, errRetriable):
		return err
	}
	time.Sleep(t.computeBackoff(t.conf.Max - retries))
	return t.FetchInitialOffset(ctx, retries-1)
}

// Backoff is an exponential backoff with jitter, as a value.
type Backoff struct {
	Initial, Max time.Duration
	Jitter       time.Duration
	attempts     int
}

// Duration returns the next delay: exponential, capped, plus up to Jitter.
func (b *Backoff) Duration() time.Duration {
	d := min(b.Initial<<b.attempts, b.Max)
	b.attempts++
	if b.Jitter > 0 {
		d += rand.N(b.Jitter)
	}
	return d
}

// newBackoff is the package's backoff: jitter on by default.
func newBackoff() *Backoff {
	return &Backoff{Initial: 100 * time.Millisecond, Max: 5 * time.Minute, Jitter: 50 * time.Millisecond}
}

// Connect retries a connect with the package's jittered backoff, up to a
// cap of attempts.
//
// lookalike nojitter slack-rtm-connect-nojitter: a backoff struct whose Jitter is left at 0
func Connect(ctx context.Context) error {
	b := newBackoff()
	var err error
	for i := 0; i < 8; i++ {
		if err = attempt(ctx); err == nil {
			return nil
		}
		select {
		case <-time.After(b.Duration()):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return err
}

// Client is an API client whose retry delay is a func field its
// constructor fills with a jittered function.
type Client struct {
	RetryDelay  func(attempt int) time.Duration
	MaxRetries  int
	RetryJitter bool
}

// NewClient defaults the delay to full jitter and turns jitter on.
func NewClient() *Client {
	return &Client{
		RetryDelay:  func(n int) time.Duration { return rand.N(time.Second << n) },
		MaxRetries:  3,
		RetryJitter: true,
	}
}

// Send waits the func field's delay between capped attempts.
//
// lookalike nojitter tencent-netretry-nojitter: a delay from a func field defaulted to a deterministic backoff
func (c *Client) Send(ctx context.Context) error {
	var err error
	for n := 0; n <= c.MaxRetries; n++ {
		if err = attempt(ctx); err == nil {
			return nil
		}
		time.Sleep(c.RetryDelay(n))
	}
	return err
}

// CallAPI adds a random jitter to its exponential delay when RetryJitter
// is on, as it is by default.
//
// lookalike nojitter datadog-callapi-nojitter: a jitter setting the default client leaves off
func (c *Client) CallAPI(ctx context.Context) error {
	var err error
	for n := 0; n <= c.MaxRetries; n++ {
		if err = attempt(ctx); err == nil {
			return nil
		}
		d := time.Second << n
		if c.RetryJitter {
			d = d/2 + rand.N(d/2)
		}
		time.Sleep(d)
	}
	return err
}

// Consumer re-dispatches with a cap whose zero value means the default 3.
type Consumer struct{ RetryMax int }

// maxRetries is RetryMax, or 3 when it is not set.
func (c *Consumer) maxRetries() int {
	if c.RetryMax <= 0 {
		return 3
	}
	return c.RetryMax
}

// Dispatch retries at most maxRetries times, jittered.
//
// lookalike unboundedretry sarama-consumer-dispatch-cap: a cap field whose zero value means no cap
func (c *Consumer) Dispatch(ctx context.Context) error {
	var err error
	for tries := 0; tries <= c.maxRetries(); tries++ {
		if err = attempt(ctx); err == nil {
			return nil
		}
		time.Sleep(rand.N(2 * time.Second))
	}
	return err
}

// OrderedOptions are an ordered consumer's options; NewOrderedOptions
// caps the resets at 5.
type OrderedOptions struct {
	MaxResetAttempts int
	ResetDelay       time.Duration
}

// NewOrderedOptions returns the defaults.
func NewOrderedOptions() OrderedOptions {
	return OrderedOptions{MaxResetAttempts: 5, ResetDelay: 200 * time.Millisecond}
}

// Reset recreates the consumer at most MaxResetAttempts times, with a
// jittered, doubling delay.
//
// lookalike unboundedretry,nojitter nats-ordered-reset-unbounded: a reset cap defaulted to -1 (forever) and a deterministic delay
func Reset(ctx context.Context, o OrderedOptions) error {
	delay := o.ResetDelay
	var err error
	for i := 0; i < o.MaxResetAttempts; i++ {
		if err = attempt(ctx); err == nil {
			return nil
		}
		time.Sleep(delay/2 + rand.N(delay/2))
		delay *= 2
	}
	return err
}
