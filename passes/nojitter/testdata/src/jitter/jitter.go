package jitter

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

func op() error                    { return nil }
func get() (*http.Response, error) { return nil, nil }

func doubling() error {
	delay := 100 * time.Millisecond
	for i := 0; i < 5; i++ {
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(delay) // want `deterministic backoff between retry attempts has no jitter`
		delay *= 2
	}
	return nil
}

var schedule = []time.Duration{time.Second, 2 * time.Second, 5 * time.Second}

func table() error {
	for i := 0; i < len(schedule); i++ {
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(schedule[i]) // want `deterministic backoff between retry attempts has no jitter`
	}
	return nil
}

func hot() error {
	for i := 0; i < 10; i++ { // want `retry loop makes 10 attempts with no wait between them`
		if err := op(); err == nil {
			return nil
		}
	}
	return nil
}

// Negatives.

func fullJitter() error {
	for i := 0; i < 5; i++ {
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(time.Duration(rand.Int64N(int64(100 * time.Millisecond << i))))
	}
	return nil
}

func jittered(d time.Duration) time.Duration {
	return d/2 + rand.N(d/2)
}

func viaHelper() error {
	for i := 0; i < 5; i++ {
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(jittered(time.Second))
	}
	return nil
}

func retryAfter() error {
	for i := 0; i < 5; i++ {
		resp, err := get()
		if err == nil && resp.StatusCode != http.StatusTooManyRequests {
			return nil
		}
		secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		time.Sleep(time.Duration(secs) * time.Second)
	}
	return nil
}

func fewImmediate() error {
	var err error
	for i := 0; i < 3; i++ { // three quick attempts, e.g. on a conflict: fine
		if err = op(); err == nil {
			return nil
		}
	}
	return err
}

func unknownWait(limiter interface{ Wait(context.Context) error }) error {
	for {
		if err := op(); err == nil {
			return nil
		}
		if err := limiter.Wait(context.Background()); err != nil {
			return err
		}
	}
}

// A ticker-paced poller is not a retry: its constant period is fine.
func poller() {
	t := time.NewTicker(time.Second)
	for range t.C {
		_ = op()
	}
}

// A constant pause in a batch loop is pacing, not a retry.
func paced(items []int) error {
	for range items {
		if err := op(); err != nil {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil
}

type rateLimitedError struct{ RetryAfter time.Duration }

func (e *rateLimitedError) Error() string { return "rate limited" }

// pagination that waits the RetryAfter the server sent with a rate-limited
// answer (slack-go's GetUsersContext): server-directed, no jitter needed
func waitsServersRetryAfter(ctx context.Context) error {
	var err error
	for page := 0; err == nil && page < 100; {
		err = op()
		if err == nil {
			page++
			continue
		}
		var rl *rateLimitedError
		if errors.As(err, &rl) {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(rl.RetryAfter):
				err = nil
			}
		}
	}
	return err
}

type config struct{ Pause time.Duration }

// a wait read from a configuration's field is no server's answer
func waitsConfigured(c *config) error {
	for i := 0; i < 5; i++ {
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(c.Pause) // want `constant wait between retry attempts has no jitter`
	}
	return nil
}
