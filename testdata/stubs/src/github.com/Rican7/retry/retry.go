// Package retry is a test stub of github.com/Rican7/retry@v0.3.1: signatures only.
package retry

import (
	"github.com/Rican7/retry/strategy"
)

// ---- retry.go

// Action defines a callable function that package retry can handle.
type Action func(attempt uint) error

// Retry takes an action and performs it, repetitively, until successful.
// With no strategies it retries forever with no delay; there is no context support.
func Retry(action Action, strategies ...strategy.Strategy) error { panic("stub") }
