// Package iterators holds ranges over function iterators: attempt
// iterators whose producer waits between yields (minio-go's
// newRetryTimer) are retry loops, capped by the iterator's loop and
// waiting its waits; iterators of items, or of numbers with no wait
// between them, are not.
package iterators

import (
	"context"
	"errors"
	"iter"
	"math/rand"
	"net/http"
	"time"
)

func op(ctx context.Context) error { return nil }

// retryTimer is minio-go's newRetryTimer: maxRetry attempts, an
// exponential wait with full jitter between them, the context checked
// before each.
func retryTimer(ctx context.Context, maxRetry int, base, maxSleep time.Duration) iter.Seq[int] {
	wait := func(attempt int) time.Duration {
		d := min(base*time.Duration(1<<uint(attempt)), maxSleep)
		return time.Duration(rand.Int63n(int64(d)))
	}
	return func(yield func(int) bool) {
		for i := range maxRetry {
			if !yield(i) {
				return
			}
			select {
			case <-time.After(wait(i)):
			case <-ctx.Done():
				return
			}
		}
	}
}

// fixedTimer waits the same delay between its attempts.
func fixedTimer(n int) func(yield func(int) bool) {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
			time.Sleep(time.Second)
		}
	}
}

// forever yields attempt numbers without end.
func forever() iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; ; i++ {
			if !yield(i) {
				return
			}
			time.Sleep(time.Second)
		}
	}
}

func execute(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	var err error
	for range retryTimer(ctx, 10, time.Second, 30*time.Second) { // want `loop cap=10 deadline=none waits=jittered body`
		var res *http.Response
		res, err = c.Do(req)
		if err != nil {
			continue
		}
		return res, nil
	}
	return nil, err
}

func fixed(ctx context.Context, n int) error {
	var err error
	for i := range fixedTimer(n) { // want `loop cap=bounded deadline=none waits=constant body`
		_ = i
		if err = op(ctx); err == nil {
			return nil
		}
	}
	return err
}

func bound(ctx context.Context) error {
	attempts := fixedTimer(3)
	for range attempts { // want `loop cap=3 deadline=none waits=constant body`
		if err := op(ctx); err == nil {
			return nil
		}
	}
	return errors.New("gave up")
}

func endless(ctx context.Context) {
	for range forever() { // want `loop cap=unknown deadline=none waits=constant body`
		if err := op(ctx); err == nil {
			return
		}
	}
}

// Look-alikes.

// numbers yields 0..n-1 at once: a sequence, not a backoff.
func numbers(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}

func firstOK(ctx context.Context) error {
	var err error
	for range numbers(3) {
		if err = op(ctx); err == nil {
			return nil
		}
	}
	return err
}

type page struct{ items []string }

// pages yields pages of items, pausing between them for the rate limit.
func pages(ctx context.Context) iter.Seq[page] {
	return func(yield func(page) bool) {
		for {
			if !yield(page{}) {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}

func process(ctx context.Context) error {
	for p := range pages(ctx) {
		if len(p.items) == 0 {
			return nil
		}
		if err := op(ctx); err != nil {
			continue
		}
	}
	return nil
}

// ticks yields on a schedule whether the last pass failed or not: a poll.
func ticks(ctx context.Context, d time.Duration) iter.Seq[int] {
	return func(yield func(int) bool) {
		t := time.NewTicker(d)
		defer t.Stop()
		for i := 0; ; i++ {
			if !yield(i) {
				return
			}
			select {
			case <-t.C:
			case <-ctx.Done():
				return
			}
		}
	}
}

func poll(ctx context.Context) {
	for range ticks(ctx, time.Minute) {
		if err := op(ctx); err != nil {
			continue
		}
	}
}

// continuous is minio-go's newRetryTimerContinous: jittered waits, no end.
func continuous(base time.Duration) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; ; i++ {
			if !yield(i) {
				return
			}
			time.Sleep(time.Duration(rand.Int63n(int64(base))))
		}
	}
}

func read(ctx context.Context) error { return nil }

// listen is minio-go's ListenBucketNotification: a failed request ends
// it; the iterator paces the reconnections after each stream ends, well
// or not. A watch, not a retry of the request.
func listen(ctx context.Context, events chan<- error) {
	for range continuous(time.Second) {
		if err := op(ctx); err != nil {
			events <- err
			return
		}
		if err := read(ctx); err != nil {
			events <- err
		}
	}
}

type info struct {
	records []string
	err     error
}

func decode(b []byte, v *info) error { return nil }

type scanner interface {
	Scan() bool
	Bytes() []byte
	Err() error
}

func open(ctx context.Context) (scanner, error) { return nil, nil }

// listenStream is the whole of ListenBucketNotification's loop: err is
// tested after open (the request) and again after bio.Err (the stream);
// the first test says nothing of the second value.
func listenStream(ctx context.Context, ch chan<- info) {
	for range continuous(time.Second) {
		bio, err := open(ctx)
		if err != nil {
			select {
			case ch <- info{err: err}:
			case <-ctx.Done():
			}
			return
		}
		// A scan that skips the records it cannot decode: the model takes
		// it for a retry of decode (a known imprecision; no check reports
		// it by itself, its cap being unknown).
		for bio.Scan() { // want `loop cap=unknown deadline=caller's-context waits=unknown body`
			var in info
			if err = decode(bio.Bytes(), &in); err != nil {
				select {
				case ch <- info{err: err}:
				case <-ctx.Done():
					return
				}
				continue
			}
			if len(in.records) == 0 && in.err == nil {
				continue
			}
			select {
			case ch <- in:
			case <-ctx.Done():
				return
			}
		}
		if err = bio.Err(); err != nil {
			select {
			case ch <- info{err: err}:
			case <-ctx.Done():
				return
			}
		}
	}
}
