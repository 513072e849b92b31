// Package backoff holds retry loops done right in the shapes of the recall
// corpus's nojitter and unboundedretry bugs: the wait is jittered, the
// attempts are capped, and an overall deadline ends the loop.
package backoff

import (
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"time"

	"github.com/idemlint/idemlint/runtime/retry"
)

var errRetriable = errors.New("retriable")

func send(ctx context.Context) error { return nil }

func transient(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout() || errors.Is(err, errRetriable)
}

// sleepCtx waits d or until ctx ends, and reports whether it waited.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// Config is a client's retry configuration, defaulted by NewConfig.
type Config struct {
	Max     int
	Backoff time.Duration
}

// NewConfig returns the defaults: 5 attempts from a 100ms base.
func NewConfig() *Config { return &Config{Max: 5, Backoff: 100 * time.Millisecond} }

// Admin retries a request with the configured base delay, full jitter.
type Admin struct{ conf *Config }

// RetryOnError waits a random fraction of the configured backoff.
//
// lookalike nojitter sarama-admin-retry: a configured backoff field, here with full jitter
func (a *Admin) RetryOnError(ctx context.Context, op func() error) error {
	var err error
	for attempt := 0; attempt < a.conf.Max; attempt++ {
		if err = op(); err == nil || !transient(err) {
			return err
		}
		time.Sleep(rand.N(a.conf.Backoff))
	}
	return err
}

// Publish waits with retry.Jitter of an exponential delay between capped
// attempts, under the caller's deadline.
//
// lookalike nojitter,unboundedretry nats-js-publish-noresponders: a publish retried after a constant wait
func Publish(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	delay := 50 * time.Millisecond
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		if err = send(ctx); err == nil {
			return nil
		}
		if !sleepCtx(ctx, retry.Jitter(delay)) {
			return ctx.Err()
		}
		delay = min(2*delay, 2*time.Second)
	}
	return err
}

// FindCoordinator retries by recursion after a jittered wait, counting its
// attempts down in a parameter.
//
// lookalike nojitter sarama-find-coordinator: recursion after a constant sleep
func FindCoordinator(ctx context.Context, attemptsRemaining int) error {
	err := send(ctx)
	if err == nil || attemptsRemaining <= 0 || !transient(err) {
		return err
	}
	time.Sleep(retry.Jitter(250 * time.Millisecond))
	return FindCoordinator(ctx, attemptsRemaining-1)
}

// Lock retries a lookup with goto after a jittered wait, a counter bounding it.
//
// lookalike nojitter consul-lock-monitor: a goto retry after a constant sleep
func Lock(ctx context.Context) error {
	retries := 3
RETRY:
	err := send(ctx)
	if err != nil && transient(err) && retries > 0 {
		time.Sleep(rand.N(2 * time.Second))
		retries--
		goto RETRY
	}
	return err
}

// Watch grows its wait with the failures but draws it at random, and
// gives up after ten failures in a row.
//
// lookalike nojitter consul-watch-hclog: deterministic growth in a labelled select
func Watch(ctx context.Context, changed func() error) error {
	failures := 0
OUTER:
	for {
		err := changed()
		if err == nil {
			failures = 0
			continue
		}
		failures++
		if failures > 10 {
			return err
		}
		wait := min(time.Duration(failures*failures)*time.Second, time.Minute)
		select {
		case <-time.After(rand.N(wait)):
			continue OUTER
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Dispatch re-dispatches a consumer after a jittered backoff, at most
// Max times, then gives up to the caller.
//
// lookalike nojitter,unboundedretry sarama-consumer-dispatch: a re-dispatch after a constant backoff with no cap
func (a *Admin) Dispatch(ctx context.Context) error {
	for tries := 0; ; tries++ {
		err := send(ctx)
		if err == nil {
			return nil
		}
		if tries+1 >= a.conf.Max {
			return err
		}
		select {
		case <-time.After(retry.Jitter(a.conf.Backoff << tries)):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Reconnect is a long-lived client's reconnect loop with a cap and a
// deadline on the whole, jittered exponential waits.
//
// lookalike unboundedretry,nojitter nsq-reconnect-unbounded: a reconnect loop only Close ends
func Reconnect(ctx context.Context, dial func(context.Context) (net.Conn, error)) (net.Conn, error) {
	deadline := time.Now().Add(time.Minute)
	backoff := time.Second
	for attempt := 1; ; attempt++ {
		conn, err := dial(ctx)
		if err == nil {
			return conn, nil
		}
		if attempt >= 8 || time.Now().After(deadline) {
			return nil, err
		}
		if !sleepCtx(ctx, backoff/2+rand.N(backoff/2)) {
			return nil, ctx.Err()
		}
		backoff = min(backoff*2, 30*time.Second)
	}
}

// Rejoin rejoins a group after a jittered wait, counting down by recursion.
//
// lookalike nojitter sarama-rejoin: every member rejoins in lockstep after a constant wait
func Rejoin(ctx context.Context, join func() error, retries int) error {
	err := join()
	if err == nil || retries <= 0 {
		return err
	}
	if !sleepCtx(ctx, retry.Jitter(2*time.Second)) {
		return ctx.Err()
	}
	return Rejoin(ctx, join, retries-1)
}

// LookupPartition retries a metadata lookup with retry.Do's policy.
//
// lookalike nojitter,unboundedretry kafkago-lookup-unbounded: a lookup retried forever at a constant interval
func LookupPartition(ctx context.Context, lookup func(context.Context) error) error {
	return retry.Do(ctx, retry.Policy{MaxAttempts: 5, BaseDelay: 100 * time.Millisecond, MaxDelay: 2 * time.Second, Deadline: 10 * time.Second}, lookup)
}
