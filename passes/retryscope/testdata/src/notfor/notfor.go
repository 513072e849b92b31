// Package notfor holds retries that are not plain for loops.
package notfor

import (
	"context"
	"errors"
	"time"
)

func op(ctx context.Context) error { return nil }

// labelled continue of the outer loop from an inner one.
func labelled(ctx context.Context, urls []string) error {
outer:
	for attempt := 0; attempt < 3; attempt++ { // want `loop cap=3 deadline=none waits=constant body`
		for range urls {
			if err := op(ctx); err != nil {
				time.Sleep(time.Second)
				continue outer
			}
		}
		return nil
	}
	return errors.New("gave up")
}

// range over an integer with the wait at the end.
func rangeInt(ctx context.Context) error {
	var err error
	for i := range 4 { // want `loop cap=4 deadline=none waits=deterministic-growth body`
		if err = op(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Duration(1<<i) * time.Second)
	}
	return err
}

type kv struct{}

func (kv) Get(key string) (string, error) { return "", nil }

func retryableErr(err error) bool { return true }

// gotoRetry is consul's monitorLock: a goto back to the attempt, bounded
// by a counter that counts down from an option.
func gotoRetry(c kv, retries int, wait time.Duration) string {
RETRY: // want `loop cap=bounded deadline=none waits=constant body`
	v, err := c.Get("k")
	if err != nil {
		if retries > 0 && retryableErr(err) {
			time.Sleep(wait)
			retries--
			goto RETRY
		}
		return ""
	}
	return v
}

// gotoForever retries with goto and nothing else.
func gotoForever(ctx context.Context) {
again: // want `loop cap=none deadline=none waits=constant body`
	if err := op(ctx); err != nil {
		time.Sleep(time.Second)
		goto again
	}
}

type client struct{ backoff time.Duration }

// refresh is sarama's tryRefreshMetadata: it calls itself again after a
// wait, with one attempt less.
func (c *client) refresh(ctx context.Context, attemptsRemaining int) error {
	err := op(ctx)
	if err == nil {
		return nil
	}
	if attemptsRemaining > 0 {
		time.Sleep(c.backoff)
		return c.refresh(ctx, attemptsRemaining-1) // want `loop cap=bounded deadline=none waits=constant body`
	}
	return err
}

// ---- look-alikes

type node struct{ left, right *node }

// walk recurses into a tree: the argument is another node, not the same
// attempt again.
func walk(n *node) error {
	if n == nil {
		return nil
	}
	time.Sleep(time.Millisecond)
	return walk(n.left)
}

// connectRetry is paho.mqtt.golang's Connect: in a goroutine, a failed
// attempt sleeps and goes back only while an option is set and the status
// still says connecting; otherwise it gives up. The status is a call the
// model does not read: the bound is unknown, the wait constant.
func connectRetry(c kv, retry bool, interval time.Duration, connecting func() bool) {
	go func() {
		attempts := 0
	RETRYCONN: // want `loop cap=unknown deadline=unknown waits=constant body`
		var err error
		_, err = c.Get("k")
		if err != nil {
			attempts++
			if retry {
				time.Sleep(interval)
				if connecting() {
					goto RETRYCONN
				}
			}
			println("failed to connect")
			return
		}
	}()
}

// connectOnce is the same shape in a for loop: it goes back while the
// error is retryable, which bounds nothing.
func connectOnce(c kv, retry bool) {
	for { // want `loop cap=none deadline=none waits=constant body`
		if _, err := c.Get("k"); err != nil {
			if retry {
				time.Sleep(time.Second)
				if retryableErr(err) {
					continue
				}
			}
			return
		}
		return
	}
}

// stateMachine jumps back to read the next token: no wait.
func stateMachine(next func() (byte, error)) int {
	n := 0
loop:
	b, err := next()
	if err == nil && b != ';' {
		n++
		goto loop
	}
	return n
}

// countdown recurses to count, with no failure in sight.
func countdown(n int) int {
	if n == 0 {
		return 0
	}
	return countdown(n - 1)
}

type broker struct{}

func (b *broker) get(topics []string) (bool, error) { return false, nil }

type metaClient struct{ backoff time.Duration }

func newMetaClient() *metaClient { return &metaClient{backoff: 250 * time.Millisecond} }

func (c *metaClient) leastLoaded() *broker { return nil }
func (c *metaClient) deregister(b *broker) {}

var errPartial = errors.New("partial")

// sarama's tryRefreshMetadata: the function calls itself again through a
// local closure, after the closure's wait, while attempts remain.
func (c *metaClient) tryRefresh(topics []string, attemptsRemaining int, deadline time.Time) error {
	pastDeadline := func(backoff time.Duration) bool {
		return !deadline.IsZero() && time.Now().Add(backoff).After(deadline)
	}
	retry := func(err error) error {
		if attemptsRemaining > 0 {
			backoff := c.backoff
			if pastDeadline(backoff) {
				return err
			}
			if backoff > 0 {
				time.Sleep(backoff)
			}
			attemptsRemaining--
			return c.tryRefresh(topics, attemptsRemaining, deadline)
		}
		return err
	}
	for b := c.leastLoaded(); b != nil && !pastDeadline(0); b = c.leastLoaded() {
		partial, err := b.get(topics)
		if err == nil {
			if partial {
				return retry(errPartial) // want `loop cap=bounded deadline=unknown waits=constant body`
			}
			return nil
		}
		c.deregister(b)
	}
	return retry(errors.New("out of brokers"))
}

// Look-alike: a closure that calls the function again with no wait is a
// walk (here of the next broker), not a retry.
func (c *metaClient) tryEach(topics []string, n int) error {
	next := func() error {
		return c.tryEach(topics, n-1)
	}
	if n == 0 {
		return nil
	}
	if _, err := c.leastLoaded().get(topics); err != nil {
		return next()
	}
	return nil
}

type result struct{}

type coordClient struct{}

func (coordClient) RefreshCoordinator(id string) error { return nil }

type group struct {
	client  coordClient
	groupID string
	closed  chan struct{}
	backoff time.Duration
}

func newGroup() *group { return &group{backoff: 2 * time.Second} }

func (g *group) joinSync(ctx context.Context, retries int) (*result, error) { return nil, nil }

// sarama's retryJoinSync: wait, refresh the coordinator when asked, and
// call itself again while its refresh fails; on success it goes on to
// joinSync.
func (g *group) retryJoinSync(ctx context.Context, retries int, refresh bool) (*result, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-g.closed:
		return nil, errors.New("closed")
	case <-time.After(g.backoff):
	}
	if refresh {
		err := g.client.RefreshCoordinator(g.groupID)
		if err != nil {
			if retries <= 0 {
				return nil, err
			}
			return g.retryJoinSync(ctx, retries-1, true) // want `loop cap=bounded deadline=caller.s-context waits=constant body`
		}
	}
	return g.joinSync(ctx, retries-1)
}

// Look-alike: the refresh's failure does not leave the pass, so the call
// after it is made whatever the refresh did: the recursion is not reached
// by a failure, and the pass always leaves on its first try.
func (g *group) rejoinOnce(ctx context.Context, retries int, refresh bool) (*result, error) {
	time.Sleep(g.backoff)
	if refresh {
		err := g.client.RefreshCoordinator(g.groupID)
		if err != nil && retries < 0 {
			return g.rejoinOnce(ctx, retries-1, true)
		}
	}
	return g.joinSync(ctx, retries-1)
}

// rescheduler tries again by scheduling its own method with
// time.AfterFunc after a failure: a retry loop that is no for statement,
// capped by its counter.
type rescheduler struct {
	attempts int
	timer    *time.Timer
}

func (r *rescheduler) attempt() {
	if err := op(context.Background()); err != nil {
		if r.attempts >= 5 {
			return
		}
		r.attempts++
		r.timer = time.AfterFunc(time.Duration(r.attempts)*time.Second, r.attempt) // want `loop cap=5 deadline=none waits=deterministic-growth body`
	}
}

// syncForever reschedules a closure held by a variable, forever, after a
// constant wait.
func syncForever(ctx context.Context) {
	var try func()
	try = func() {
		if err := op(ctx); err != nil {
			time.AfterFunc(2*time.Second, try) // want `loop cap=none deadline=none waits=constant body`
		}
	}
	try()
}

// Look-alikes: a timer that runs another function once, and a function
// that schedules itself on success (a periodic job, not a retry).
func remindLater(ctx context.Context) {
	time.AfterFunc(time.Minute, func() { _ = op(ctx) })
}

func (r *rescheduler) tick() {
	if err := op(context.Background()); err != nil {
		return
	}
	time.AfterFunc(time.Minute, r.tick)
}
