// Package steps: the apimachinery wait.ExponentialBackoff loop, copied
// into many modules, is bounded by the Steps its Step method decrements;
// a loop on a Steps field that nothing decrements is not.
package steps

import (
	"math/rand"
	"time"
)

type Backoff struct {
	Duration time.Duration
	Steps    int
}

func (b *Backoff) Step() time.Duration {
	if b.Steps < 1 {
		return b.Duration
	}
	b.Steps--
	return b.Duration + time.Duration(rand.Int63n(int64(b.Duration)+1))
}

func (b *Backoff) Peek() time.Duration {
	return b.Duration + time.Duration(rand.Int63n(int64(b.Duration)+1))
}

type ConditionFunc func() (bool, error)

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
	return nil
}

func Forever(backoff Backoff, condition ConditionFunc) error {
	for backoff.Steps > 0 { // want "retry loop has no attempt cap and no deadline"
		if ok, err := condition(); err != nil || ok {
			return err
		}
		time.Sleep(backoff.Peek())
	}
	return nil
}
