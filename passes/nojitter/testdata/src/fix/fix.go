package fix

import (
	"context"
	"time"
)

func op() error { return nil }

// The constant and the shifted wait of a retry loop, with their fixes (the
// jitter package holds the other waits).

func sleeps() error {
	for i := 0; i < 5; i++ {
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(2 * time.Second) // want `constant wait between retry attempts has no jitter; wait a random duration in \[0, d\), e\.g\. retry\.Jitter\(d\)`
	}
	return nil
}

func afters(ctx context.Context) error {
	for i := 0; i < 5; i++ {
		if err := op(); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond << i): // want `deterministic backoff between retry attempts has no jitter`
		}
	}
	return nil
}
