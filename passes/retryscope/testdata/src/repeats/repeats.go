// Package repeats holds retries in loops that repeat on success too, whose
// failure waits after the branch that tells success from failure or at the
// top of the next pass (kafka-go's consumer group and reader), each beside
// a look-alike.
package repeats

import (
	"context"
	"errors"
	"time"
)

var (
	errClosed    = errors.New("closed")
	errRebalance = errors.New("rebalance")
	errRange     = errors.New("out of range")
)

type groupConfig struct{ JoinGroupBackoff time.Duration }

type group struct {
	config groupConfig
	done   chan struct{}
	errs   chan error
}

func newGroup(c groupConfig) *group {
	if c.JoinGroupBackoff == 0 {
		c.JoinGroupBackoff = 5 * time.Second
	}
	return &group{config: c, done: make(chan struct{}), errs: make(chan error)}
}

func (g *group) next(id string) (string, error) { return id, nil }
func (g *group) leave(id string) error          { return nil }

// kafka-go's ConsumerGroup.run: a generation that ends well continues at
// once; a failure falls out of the switch, reports the error and waits the
// configured backoff (5 s by default) before it rejoins.
func (g *group) run() {
	var id string
	var err error
	for { // want "loop cap=none deadline=none waits=constant body"
		id, err = g.next(id)
		var backoff <-chan time.Time
		switch {
		case err == nil:
			continue
		case errors.Is(err, errClosed):
			_ = g.leave(id)
			return
		case errors.Is(err, errRebalance):
		default:
			_ = g.leave(id)
			id = ""
			backoff = time.After(g.config.JoinGroupBackoff)
		}
		select {
		case <-g.done:
			return
		case g.errs <- err:
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

// The same with an if: success continues, the rest of the pass is the
// failure's.
func (g *group) runIf() {
	var id string
	var err error
	for { // want "loop cap=none deadline=none waits=constant body"
		id, err = g.next(id)
		if err == nil {
			continue
		}
		g.errs <- err
		time.Sleep(g.config.JoinGroupBackoff)
	}
}

// Look-alike: a poller that also waits after a success: its wait is a
// period, not a backoff.
func (g *group) poll() {
	var id string
	var err error
	for {
		id, err = g.next(id)
		if err == nil {
			time.Sleep(time.Minute)
			continue
		}
		time.Sleep(g.config.JoinGroupBackoff)
	}
}

// Look-alike: each pass works on the next message received: a failure is
// skipped after the pause, not retried.
func (g *group) consume(msgs <-chan string) {
	for {
		m := <-msgs
		_, err := g.next(m)
		if err == nil {
			continue
		}
		time.Sleep(time.Second)
	}
}

type conn struct{}

type reader struct {
	backoffMin, backoffMax time.Duration
	maxAttempts            int
}

func newReader() *reader {
	return &reader{backoffMin: 100 * time.Millisecond, backoffMax: time.Second, maxAttempts: 3}
}

func (r *reader) initialize(ctx context.Context) (*conn, error) { return &conn{}, nil }
func (r *reader) read(ctx context.Context, c *conn)             {}
func (r *reader) sendError(err error)                           {}

func sleep(ctx context.Context, d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
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

// kafka-go's reader.run: the failure branch continues at once; the next
// pass starts with a wait that the count of consecutive failures sizes,
// reset once the attempt succeeds.
func (r *reader) run(ctx context.Context) {
	for attempt := 0; true; attempt++ { // want "loop cap=none deadline=caller's-context waits=deterministic-growth body"
		if attempt != 0 {
			if !sleep(ctx, backoff(attempt, r.backoffMin, r.backoffMax)) {
				return
			}
		}
		c, err := r.initialize(ctx)
		if err != nil {
			if errors.Is(err, errRange) {
				continue
			}
			if attempt >= r.maxAttempts {
				r.sendError(err)
			}
			continue
		}
		attempt = 0
		r.read(ctx, c)
	}
}

// Look-alike: a poller whose wait at the top of the pass is its period:
// no failure counter sizes it, and nothing is reset on success.
func (r *reader) pollTop(ctx context.Context) {
	for {
		if !sleep(ctx, time.Second) {
			return
		}
		c, err := r.initialize(ctx)
		if err != nil {
			continue
		}
		r.read(ctx, c)
	}
}

type none struct{}

type consumerConfig struct {
	Consumer struct {
		Retry struct {
			Max         int
			Backoff     time.Duration
			BackoffFunc func(retries int) time.Duration
		}
	}
}

func newConsumerConfig() *consumerConfig {
	c := &consumerConfig{}
	c.Consumer.Retry.Backoff = 2 * time.Second
	return c
}

type partitionConsumer struct {
	conf                    *consumerConfig
	trigger, dying, stopped chan none
	retries                 int
	switching               bool
}

func (child *partitionConsumer) dispatch() error     { return nil }
func (child *partitionConsumer) sendError(err error) {}

// triggerRedispatch queues a redispatch unless one is pending.
func (child *partitionConsumer) triggerRedispatch() {
	select {
	case <-child.dying:
		return
	default:
	}
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

// sarama's partition consumer: a failed dispatch signals the loop itself
// (triggerRedispatch), whose trigger case arms the backoff timer that the
// dispatching case receives. Consumer.Retry.Max is 0 by default, which
// the loop reads as no cap.
func (child *partitionConsumer) dispatcher() {
	var backoff <-chan time.Time
	for { // want "loop cap=none deadline=none waits=none,constant body"
		select {
		case <-child.stopped:
			return
		case <-child.dying:
			return
		case <-child.trigger:
			if max := child.conf.Consumer.Retry.Max; max > 0 && child.retries >= max {
				child.sendError(errClosed)
				return
			}
			if backoff == nil {
				if child.switching {
					backoff = time.After(0)
				} else {
					backoff = time.After(child.computeBackoff())
				}
			}
		case <-backoff:
			backoff = nil
			if err := child.dispatch(); err != nil {
				select {
				case <-child.stopped:
					return
				default:
					child.sendError(err)
					child.triggerRedispatch()
				}
			}
		}
	}
}

// Look-alike: a loop that serves a trigger channel and reports a failure
// without signalling itself: the next dispatch waits for someone else's
// trigger, which is no retry (policy failure-rejoins: the failure goes on
// to where the success goes, with no wait and no signal of its own).
func (child *partitionConsumer) serve() {
	for {
		select {
		case <-child.stopped:
			return
		case <-child.trigger:
			time.Sleep(child.conf.Consumer.Retry.Backoff)
			if err := child.dispatch(); err != nil {
				child.sendError(err)
			}
		}
	}
}
