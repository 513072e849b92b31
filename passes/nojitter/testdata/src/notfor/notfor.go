// Package notfor: retries that are not for loops, with constant waits.
package notfor

import (
	"context"
	"math/rand"
	"time"
)

func op(ctx context.Context) error { return nil }

type monitor struct {
	retries   int
	retryTime time.Duration
}

// watch retries with goto, as consul's lock monitor does.
func (m *monitor) watch(ctx context.Context) error {
	retries := m.retries
RETRY:
	if err := op(ctx); err != nil {
		if retries > 0 {
			time.Sleep(m.retryTime) // want `constant wait between retry attempts has no jitter`
			retries--
			goto RETRY
		}
		return err
	}
	return nil
}

// refresh retries by recursion, as sarama's metadata refresh does.
func (m *monitor) refresh(ctx context.Context, attemptsRemaining int) error {
	err := op(ctx)
	if err != nil && attemptsRemaining > 0 {
		time.Sleep(m.retryTime) // want `constant wait between retry attempts has no jitter`
		return m.refresh(ctx, attemptsRemaining-1)
	}
	return err
}

// refreshJittered is the look-alike: the same recursion with a random wait.
func (m *monitor) refreshJittered(ctx context.Context, attemptsRemaining int) error {
	err := op(ctx)
	if err != nil && attemptsRemaining > 0 {
		time.Sleep(time.Duration(rand.Int63n(int64(m.retryTime))))
		return m.refreshJittered(ctx, attemptsRemaining-1)
	}
	return err
}

// resync reschedules itself with time.AfterFunc after a failure, after a
// constant wait.
func resync(ctx context.Context) {
	var try func()
	try = func() {
		if err := op(ctx); err != nil {
			time.AfterFunc(2*time.Second, try) // want `constant wait between retry attempts has no jitter`
		}
	}
	try()
}

// resyncJittered waits a random duration before it tries again.
func resyncJittered(ctx context.Context) {
	var try func()
	try = func() {
		if err := op(ctx); err != nil {
			time.AfterFunc(time.Duration(rand.Int63n(int64(2*time.Second))), try)
		}
	}
	try()
}

// options is paho.mqtt.golang's ClientOptions: ConnectRetryInterval is set
// to 30 seconds by its constructor.
type options struct {
	ConnectRetry         bool
	ConnectRetryInterval time.Duration
}

func newOptions() *options { return &options{ConnectRetryInterval: 30 * time.Second} }

// connect is paho's Connect: in a goroutine, a failed attempt sleeps the
// option's interval and goes back while the client still says connecting.
func connect(ctx context.Context, o *options, connecting func() bool) {
	go func() {
	RETRYCONN:
		if err := op(ctx); err != nil {
			if o.ConnectRetry {
				time.Sleep(o.ConnectRetryInterval) // want `constant wait between retry attempts has no jitter`
				if connecting() {
					goto RETRYCONN
				}
			}
			return
		}
	}()
}

// connectJittered waits a random part of the interval.
func connectJittered(ctx context.Context, o *options, connecting func() bool) {
	go func() {
	RETRYCONN:
		if err := op(ctx); err != nil {
			if o.ConnectRetry {
				time.Sleep(time.Duration(rand.Int63n(int64(o.ConnectRetryInterval))))
				if connecting() {
					goto RETRYCONN
				}
			}
			return
		}
	}()
}
