package strict

import (
	"context"
	"math/rand"
	"time"
)

func opCtx(ctx context.Context) error { return nil }
func jitter() time.Duration           { return time.Duration(rand.Int63n(int64(time.Second))) }

func callerOnly(ctx context.Context) error {
	for { // want `retry loop has no cap or deadline of its own`
		err := opCtx(ctx)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jitter()):
		}
	}
}

func ownDeadline(parent context.Context) error {
	ctx, cancel := context.WithTimeout(parent, time.Minute)
	defer cancel()
	for {
		err := opCtx(ctx)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return err
		}
		time.Sleep(jitter())
	}
}
