package unbounded

import (
	"context"
	"time"
)

// A loop that ends only on a context its own type makes with WithCancel:
// the reader's partition loop (kafka-go's reader.run) is given the
// cancel-only context of start, cancelled on Close, which is no deadline.
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

func (p *partitionReader) Close() { p.cancel() }

func (p *partitionReader) loop(ctx context.Context) {
	for attempt := 0; true; attempt++ { // want `retry loop has no attempt cap and no deadline`
		if attempt != 0 {
			if !sleepCtx(ctx, time.Duration(attempt)*100*time.Millisecond) {
				return
			}
		}
		if err := dialCtx(ctx); err != nil {
			continue
		}
		attempt = 0
		p.consume(ctx)
	}
}

func (p *partitionReader) consume(ctx context.Context) {}

func dialCtx(ctx context.Context) error { return nil }

// sleepCtx waits d, and returns false when ctx ends first.
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

// ---- look-alikes

// Lookup ends on its caller's context, which may have a deadline
// (reported only with -strict-context).
func Lookup(ctx context.Context) error {
	for attempt := 0; ; attempt++ {
		if attempt != 0 {
			if !sleepCtx(ctx, time.Second) {
				return ctx.Err()
			}
		}
		if err := dialCtx(ctx); err == nil {
			return nil
		}
	}
}

// timedLoop is given a context with a timeout by its one caller.
func timedStart() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	timedLoop(ctx)
}

func timedLoop(ctx context.Context) {
	for {
		if !sleepCtx(ctx, time.Second) {
			return
		}
		if err := dialCtx(ctx); err == nil {
			return
		}
	}
}
