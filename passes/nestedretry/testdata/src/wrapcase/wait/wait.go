// Package wait is the apimachinery backoff loop as go-containerregistry
// vendors it (internal/retry/wait): a retry helper of its condition.
package wait

import (
	"errors"
	"time"
)

type Backoff struct {
	Duration time.Duration
	Factor   float64
	Steps    int
}

// Step decrements Steps and returns the next delay.
func (b *Backoff) Step() time.Duration {
	if b.Steps < 1 {
		return b.Duration
	}
	b.Steps--
	d := b.Duration
	b.Duration = time.Duration(float64(b.Duration) * b.Factor)
	return d
}

type ConditionFunc func() (done bool, err error)

var ErrWaitTimeout = errors.New("timed out waiting for the condition")

func ExponentialBackoff(backoff Backoff, condition ConditionFunc) error {
	for backoff.Steps > 0 {
		if ok, err := condition(); err != nil || ok {
			return err
		}
		if backoff.Steps == 1 {
			break
		}
		time.Sleep(backoff.Step())
	}
	return ErrWaitTimeout
}
