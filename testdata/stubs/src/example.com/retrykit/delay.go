package retrykit

import (
	"math/rand"
	"time"
)

// Backoff returns the n-th delay of a doubling schedule from 100ms: no
// jitter.
func Backoff(n int) time.Duration { return 100 * time.Millisecond << n }

// Jittered returns a random delay below Backoff(n).
func Jittered(n int) time.Duration { return time.Duration(rand.Int63n(int64(Backoff(n)))) }

// Fixed returns the same delay every time.
func Fixed() time.Duration { return 2 * time.Second }

// Doubling doubles from Initial up to Max; it adds a random part only when
// Jitter is set (the zero Doubling has none).
type Doubling struct {
	attempts int
	Initial  time.Duration
	Max      time.Duration
	Jitter   time.Duration
}

// Duration returns the next delay.
func (b *Doubling) Duration() (d time.Duration) {
	if b.Initial == 0 {
		b.Initial = 100 * time.Millisecond
	}
	d = b.Initial << b.attempts
	if d > b.Max {
		d = b.Max
	}
	if b.Jitter > 0 {
		d += time.Duration(rand.Int63n(int64(b.Jitter)))
	}
	b.attempts++
	return d
}
