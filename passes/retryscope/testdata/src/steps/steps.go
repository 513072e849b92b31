// Package steps holds loops that count their attempts in a field of a
// local value: the apimachinery wait.ExponentialBackoff loop (copied into
// go-containerregistry's internal/retry/wait), for b.Steps > 0 with a
// method of pointer receiver that decrements b.Steps, is bounded by the
// Steps it was given. A method that does not decrement, or decrements a
// copy, bounds nothing.
package steps

import (
	"math/rand"
	"time"
)

type Backoff struct {
	Duration time.Duration
	Jitter   float64
	Steps    int
}

// Step decrements Steps and returns the next jittered delay.
func (b *Backoff) Step() time.Duration {
	if b.Steps < 1 {
		return b.Duration
	}
	b.Steps--
	d := b.Duration
	b.Duration *= 2
	return d + time.Duration(rand.Float64()*b.Jitter*float64(d))
}

// Peek reads Steps and changes nothing.
func (b *Backoff) Peek() time.Duration { return b.Duration }

// CopyStep decrements the Steps of a copy.
func (b Backoff) CopyStep() time.Duration {
	b.Steps--
	return b.Duration
}

type ConditionFunc func() (bool, error)

func ExponentialBackoff(backoff Backoff, condition ConditionFunc) error {
	for backoff.Steps > 0 { // want "loop cap=bounded deadline=none waits=jittered body"
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

func inlineSteps(b Backoff, op func() error) error {
	for b.Steps > 0 { // want "loop cap=bounded deadline=none waits=deterministic-growth body"
		if err := op(); err == nil {
			return nil
		}
		b.Steps--
		time.Sleep(b.Duration)
	}
	return nil
}

func peekForever(b Backoff, op func() error) error {
	for b.Steps > 0 { // want "loop cap=none deadline=none waits=deterministic-growth body"
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(b.Peek())
	}
	return nil
}

func copyForever(b Backoff, op func() error) error {
	for b.Steps > 0 { // want "loop cap=none deadline=none waits=deterministic-growth body"
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(b.CopyStep())
	}
	return nil
}
