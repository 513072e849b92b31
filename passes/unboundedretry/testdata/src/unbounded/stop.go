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
