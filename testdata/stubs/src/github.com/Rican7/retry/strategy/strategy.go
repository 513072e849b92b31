// Package strategy is a test stub of github.com/Rican7/retry@v0.3.1: signatures only.
package strategy

import (
	"github.com/Rican7/retry/backoff"
	"github.com/Rican7/retry/jitter"
	"time"
)

// ---- strategy.go

// Strategy defines a function that Retry calls before every successive attempt to determine whether it should make the next attempt or not.
type Strategy func(attempt uint) bool

// Limit creates a Strategy that limits the number of attempts that Retry will make.
// attemptLimit counts attempts; Limit(0) makes Retry return nil without calling the action.
func Limit(attemptLimit uint) Strategy { panic("stub") }

// Delay creates a Strategy that waits the given duration before the first attempt is made.
func Delay(duration time.Duration) Strategy { panic("stub") }

// Wait creates a Strategy that waits the given durations for each attempt after the first.
func Wait(durations ...time.Duration) Strategy { panic("stub") }

// Backoff creates a Strategy that waits before each attempt, with a duration as defined by the given backoff.Algorithm.
func Backoff(algorithm backoff.Algorithm) Strategy { panic("stub") }

// BackoffWithJitter creates a Strategy that waits before each attempt, with a duration as defined by the given backoff.Algorithm and jitter.Transformation.
func BackoffWithJitter(algorithm backoff.Algorithm, transformation jitter.Transformation) Strategy {
	panic("stub")
}
