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
