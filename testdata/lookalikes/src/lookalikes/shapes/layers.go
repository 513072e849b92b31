package shapes

import (
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"time"

	"github.com/idemlint/idemlint/runtime/retry"
)

// Refresher refreshes a coordinator.
type Refresher interface {
	Refresh(ctx context.Context) error
}

// client is the package's one Refresher: a single attempt.
type client struct{ dial func(context.Context) error }

// Refresh makes one attempt.
func (c *client) Refresh(ctx context.Context) error { return c.dial(ctx) }

// NewRefresher returns the package's Refresher.
func NewRefresher(dial func(context.Context) error) Refresher { return &client{dial: dial} }

// RefreshCoordinator retries through an interface whose only concrete type
// makes one attempt.
//
// lookalike nestedretry sarama-admin-coordinator-nested: a retry calling, through an interface, a method that retries itself
func RefreshCoordinator(ctx context.Context, r Refresher) error {
	return retry.Do(ctx, retry.Policy{MaxAttempts: 4, Deadline: 10 * time.Second}, r.Refresh)
}

// Watcher renews a lease for its lifetime; each renewal is one attempt.
type Watcher struct {
	renew func(context.Context) (time.Duration, error)
}

// Run renews on the lease's schedule; a failed renewal is retried with a
// jittered backoff at most five times in a row, then the watcher stops.
//
// lookalike nestedretry,nojitter,unboundedretry consul-session-renew: a renewal loop retrying errors after a constant wait
func (w *Watcher) Run(ctx context.Context) error {
	failures := 0
	next := time.Duration(0)
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(next):
		}
		ttl, err := w.renew(ctx)
		if err != nil {
			failures++
			if failures >= 5 {
				return err
			}
			next = retry.Jitter(time.Second << failures)
			continue
		}
		failures = 0
		next = ttl / 2
	}
}

var errStop = errors.New("stop")

// Poller polls work for an environment; the SDK call it makes retries
// by itself, so a failed poll ends the poller.
type Poller struct {
	poll func(ctx context.Context) ([]string, error)
	ack  func(ctx context.Context, id string) error
}

// Run polls until stopped, idles a jittered while when there is nothing,
// and returns on a failed poll or ack instead of retrying around the SDK.
//
// lookalike nestedretry,nojitter anthropic-poller-nested: a poller retrying a call that retries by itself
func (p *Poller) Run(ctx context.Context, handle func(context.Context, string) error) error {
	for {
		ids, err := p.poll(ctx)
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Second + rand.N(time.Second)):
			}
			continue
		}
		for _, id := range ids {
			if err := handle(ctx, id); err != nil {
				return err
			}
			if err := p.ack(ctx, id); err != nil {
				return err
			}
		}
	}
}

// dialOnce makes one connection attempt.
func dialOnce(ctx context.Context, addr string) (net.Conn, error) {
	var d net.Dialer
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return d.DialContext(ctx, "tcp", addr)
}

// Recover re-establishes a connection after a failure: a capped,
// jittered loop over a dial that makes one attempt.
//
// lookalike nestedretry,nojitter,unboundedretry amqp-recovery-nested: a recovery loop around a dial that retries itself
func Recover(ctx context.Context, addr string) (net.Conn, error) {
	var err error
	for i := 0; i < 6; i++ {
		var c net.Conn
		if c, err = dialOnce(ctx, addr); err == nil {
			return c, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(retry.Jitter(time.Second << i)):
		}
	}
	return nil, errors.Join(errStop, err)
}

// ConnectServers tries each server of the list in turn, and waits a
// jittered backoff after a full pass, for at most three passes.
//
// lookalike nojitter,unboundedretry zk-connect-nojitter: a connect loop over a server list with a constant wait after each pass
func ConnectServers(ctx context.Context, servers []string) (net.Conn, error) {
	var err error
	for pass := 0; pass < 3; pass++ {
		for _, s := range servers {
			var c net.Conn
			if c, err = dialOnce(ctx, s); err == nil {
				return c, nil
			}
		}
		time.Sleep(retry.Jitter(time.Second << pass))
	}
	return nil, err
}
