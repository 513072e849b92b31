package unbounded

import (
	"context"
	"errors"
	"time"
)

var errGone = errors.New("gone")

func fetch(ctx context.Context) (string, error) { return "", nil }

// WatchContext retries every failure but an ended context: bounded by its
// caller's context, which Watch, the package's own wrapper, makes
// context.Background(). On that path nothing ends the retry.
func WatchContext(ctx context.Context, fn func(string) error) error {
	for { // want `retry loop has no attempt cap and no deadline when called from Watch; cap it and set a deadline$`
		v, err := fetch(ctx)
		if err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return err
			}
			time.Sleep(5 * time.Second)
			continue
		}
		if err := fn(v); err != nil {
			return err
		}
	}
}

// Watch is WatchContext without a context.
func Watch(fn func(string) error) error {
	return WatchContext(context.Background(), fn)
}

// Through a chain of context parameters: open is called by the reader's
// start with a cancel-only context, through dialFirst.
func Open(ctx context.Context) error {
	for attempt := 0; ; attempt++ { // want `retry loop has no attempt cap and no deadline when called from start`
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

func dialFirst(ctx context.Context) error { return Open(ctx) }

type openReader struct{ cancel context.CancelFunc }

func (r *openReader) start() {
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	go func() { _ = dialFirst(ctx) }()
}

// ---- look-alikes

// PollContext is given a context by every caller in the package that has
// a deadline: only its callers elsewhere can leave it unbounded
// (reported only with -strict-context).
func PollContext(ctx context.Context) error {
	for {
		_, err := fetch(ctx)
		if err == nil {
			return nil
		}
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		time.Sleep(time.Second)
	}
}

// Poll gives PollContext a minute.
func Poll() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return PollContext(ctx)
}

// FetchCapped ends on its caller's context, which Fetch makes
// Background, but caps its attempts.
func FetchCapped(ctx context.Context) error {
	for i := 0; i < 5; i++ {
		if _, err := fetch(ctx); err == nil {
			return nil
		}
		if !sleepCtx(ctx, time.Second) {
			return ctx.Err()
		}
	}
	return errGone
}

// Fetch is FetchCapped without a context.
func Fetch() error { return FetchCapped(context.Background()) }

// ResolveContext is given context.Background() only by a test.
func ResolveContext(ctx context.Context) error {
	for {
		_, err := fetch(ctx)
		if err == nil {
			return nil
		}
		if errors.Is(err, context.Canceled) {
			return err
		}
		time.Sleep(time.Second)
	}
}
