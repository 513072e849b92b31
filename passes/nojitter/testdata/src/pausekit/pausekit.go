// Package pausekit holds wait helpers that the delays package calls from
// another package: their wait summaries reach it as facts.
package pausekit

import (
	"math/rand"
	"time"
)

// Hold waits d through a helper of its own.
func Hold(d time.Duration) { hold(d) }

func hold(d time.Duration) { time.Sleep(d) }

// Spread waits up to d, at random.
func Spread(d time.Duration) { time.Sleep(time.Duration(rand.Int63n(int64(d)))) }
