package backoff

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

var errNotReady = errors.New("not ready")

// Job is a long-running operation whose status a poller reads.
type Job interface {
	Status(ctx context.Context) (done bool, err error)
}

// PollUntilDone polls an operation's status on a jittered ticker-like
// wait until it is done, under a deadline.
//
// lookalike nojitter,unboundedretry k8s-consistency-nojitter: a poll at a constant interval that retries failures
func PollUntilDone(ctx context.Context, job Job) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	for {
		done, err := job.Status(ctx)
		if err != nil {
			return err
		}
		if done {
			return nil
		}
		select {
		case <-time.After(time.Second + rand.N(500*time.Millisecond)):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Flush sends the buffered events on every tick until its context ends:
// a periodic task, not a retry.
//
// lookalike nojitter,unboundedretry posthog-send-nojitter: a sender loop that waits a constant interval
func Flush(ctx context.Context, flush func(context.Context) error, logf func(string, ...any)) {
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			if err := flush(ctx); err != nil {
				logf("flush: %v", err)
			}
		case <-ctx.Done():
			return
		}
	}
}

// Batch is a batch of rows.
type Batch []string

// Drain reads batches until the source is drained: a loop over data that
// leaves when there is none left.
//
// lookalike unboundedretry,nojitter kafkago-reader-unbounded: a reader loop with no cap
func Drain(ctx context.Context, next func(context.Context) (Batch, error), write func(Batch) error) error {
	for {
		b, err := next(ctx)
		if err != nil {
			return err
		}
		if len(b) == 0 {
			return nil
		}
		if err := write(b); err != nil {
			return err
		}
	}
}

// WaitReady waits for a dependency with capped attempts and jittered
// waits, and tells a not-ready answer from a failure.
//
// lookalike unboundedretry,nojitter metadata-subscribe-unbounded: a wait for readiness that never gives up
func WaitReady(ctx context.Context, probe func(context.Context) error) error {
	for attempt := 0; attempt < 30; attempt++ {
		err := probe(ctx)
		if err == nil {
			return nil
		}
		if !errors.Is(err, errNotReady) {
			return err
		}
		if !sleepCtx(ctx, time.Duration(rand.Int64N(int64(time.Second)))) {
			return ctx.Err()
		}
	}
	return errNotReady
}
