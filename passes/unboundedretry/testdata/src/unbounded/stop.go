package unbounded

import (
	"context"
	"errors"
	"time"
)

func dial() error { return errors.New("refused") }

// subscriber reconnects until it connects or the server shuts down: the
// done channel is closed on shutdown, which is no deadline.
type subscriber struct {
	done  chan struct{}
	retry time.Duration
}

func (s *subscriber) start() {
	for { // want `retry loop has no attempt cap and no deadline`
		err := dial()
		if err != nil {
			select {
			case <-time.After(s.retry):
				continue
			case <-s.done:
				return
			}
		}
		break
	}
}

// ---- look-alikes

// untilStopped takes its stop channel from the caller, as it would a
// context: the caller's to bound (reported only with -strict-context).
func untilStopped(stop <-chan struct{}) {
	for {
		err := dial()
		if err != nil {
			select {
			case <-time.After(time.Second):
				continue
			case <-stop:
				return
			}
		}
		break
	}
}

// withDeadline ends on a timer's channel made before the loop.
func withDeadline() error {
	deadline := time.After(time.Minute)
	for {
		err := dial()
		if err == nil {
			return nil
		}
		select {
		case <-time.After(time.Second):
		case <-deadline:
			return err
		}
	}
}

// untilDone holds the context's Done channel in a local: the caller's
// context (reported only with -strict-context).
func untilDone(ctx context.Context) {
	stop := ctx.Done()
	for {
		err := dial()
		if err != nil {
			select {
			case <-time.After(time.Second):
				continue
			case <-stop:
				return
			}
		}
		break
	}
}

// rescheduleForever tries again with time.AfterFunc after every failure,
// with no count and no deadline.
type syncer struct{ n int }

func (s *syncer) sync() {
	if err := op(); err != nil {
		time.AfterFunc(time.Second, s.sync) // want `retry loop has no attempt cap and no deadline`
	}
}

// rescheduleCapped gives up after three reschedules.
func (s *syncer) syncCapped() {
	if err := op(); err != nil {
		if s.n >= 3 {
			return
		}
		s.n++
		time.AfterFunc(time.Second, s.syncCapped)
	}
}
