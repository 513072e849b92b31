// Package poll holds the runtime's background loop, shared by the modules of
// the runtime (the outbox relay, the PostgreSQL store's reaper).
package poll

import (
	"context"
	"time"
)

// Run runs pass after the delay first, then again after each delay pass
// returns, until ctx is done; then it returns ctx's error.
func Run(ctx context.Context, first time.Duration, pass func() (next time.Duration)) error {
	t := time.NewTimer(first)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		t.Reset(pass())
	}
}
