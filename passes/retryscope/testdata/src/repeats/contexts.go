package repeats

import (
	"context"
	"errors"
	"time"
)

// The context a loop ends on, traced to where it is made: kafka-go's
// Reader.start makes context.WithCancel(context.Background()) and hands it,
// through a goroutine's literal, to reader.run, whose every caller is then
// known. A cancel-only context ends when its owner cancels it (on Close),
// at no time of its own: no deadline.

type partitionReader struct {
	cancel context.CancelFunc
}

func (p *partitionReader) start() {
	ctx, cancel := context.WithCancel(context.Background())
	p.cancel = cancel
	go func(ctx context.Context) {
		p.loop(ctx)
	}(ctx)
}

func (p *partitionReader) loop(ctx context.Context) {
	for attempt := 0; true; attempt++ { // want "loop cap=none deadline=none waits=deterministic-growth body"
		if attempt != 0 {
			if !sleep(ctx, backoff(attempt, time.Millisecond, time.Second)) {
				return
			}
		}
		if err := p.dial(ctx); err != nil {
			continue
		}
		attempt = 0
		p.consume(ctx)
	}
}

func (p *partitionReader) dial(ctx context.Context) error { return nil }
func (p *partitionReader) consume(ctx context.Context)    {}

// One caller gives the loop a deadline, the other a cancel-only context:
// the context is the caller's, and on the second path it has no deadline.
type timedReader struct{}

func (t *timedReader) start(d time.Duration) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	t.loop(ctx)
	tctx, tcancel := context.WithTimeout(context.Background(), d)
	defer tcancel()
	t.loop(tctx)
}

func (t *timedReader) loop(ctx context.Context) {
	for attempt := 0; true; attempt++ { // want "loop cap=none deadline=caller's-context waits=deterministic-growth body unbounded-by-caller"
		if attempt != 0 {
			if !sleep(ctx, backoff(attempt, time.Millisecond, time.Second)) {
				return
			}
		}
		if err := dialAny(ctx); err != nil {
			continue
		}
		attempt = 0
	}
}

func dialAny(ctx context.Context) error { return nil }

var errTooLong = errors.New("too long")

// sleepAtMost returns false when the wait would be too long, too: its
// false is not only the context's, so the exit under it is a bound the
// model cannot read.
func sleepAtMost(ctx context.Context, d time.Duration) bool {
	if d > time.Minute {
		return false
	}
	select {
	case <-time.After(d):
		return true
	case <-ctx.Done():
		return false
	}
}

// Look-alike: the exit is the helper's own limit as much as the context.
func retryAtMost(ctx context.Context) error {
	for attempt := 0; ; attempt++ { // want "loop cap=unknown deadline=unknown waits=deterministic-growth body"
		if attempt != 0 {
			if !sleepAtMost(ctx, backoff(attempt, time.Second, time.Hour)) {
				return errTooLong
			}
		}
		if err := dialAny(ctx); err == nil {
			return nil
		}
	}
}
