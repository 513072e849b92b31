package retry

import (
	"math/rand/v2"
	"time"
)

// Jitter returns a duration drawn uniformly from [0, d): full jitter. Use it
// where a hand-written retry loop must keep its own structure but should
// stop waking every client at the same instant:
//
//	time.Sleep(retry.Jitter(backoff))
//
// A d of zero or less gives 0. It is safe for concurrent use.
func Jitter(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return rand.N(d)
}
