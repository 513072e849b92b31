// Package waitkit is a package of wait helpers that other packages of the
// module call: their wait summaries reach the callers as facts.
package waitkit

import (
	"math/rand"
	"time"
)

// Hold waits d, through a helper of its own.
func Hold(d time.Duration) { hold(d) }

func hold(d time.Duration) { time.Sleep(d) }

// Exp waits base times 2^attempt, plus up to base at random.
func Exp(base time.Duration, attempt int) {
	time.Sleep(base<<attempt + time.Duration(rand.Int63n(int64(base))))
}

// Timer hands out a timer of d: its caller waits on it.
func Timer(d time.Duration) *time.Timer { return time.NewTimer(d) }

// Next takes the next value of ch, or gives up after d: it gets its timer
// from Timer and waits on it with ch, a receive with a timeout, no wait.
func Next(ch <-chan int, d time.Duration) (int, bool) {
	t := Timer(d)
	select {
	case v := <-ch:
		return v, true
	case <-t.C:
		return 0, false
	}
}

// Settle waits d only when the call succeeded: on a failure it returns
// at once.
func Settle(err error, d time.Duration) {
	if err == nil {
		time.Sleep(d)
	}
}
