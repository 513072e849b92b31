// Package delays waits for durations computed in another package (delay
// facts).
package delays

import (
	"math/rand"
	"time"

	"example.com/retrykit"
)

func op() error { return nil }

func growth() error {
	var err error
	for i := 0; i < 5; i++ { // want `loop cap=5 deadline=none waits=deterministic-growth body`
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(retrykit.Backoff(i))
	}
	return err
}

func jittered() error {
	var err error
	for i := 0; i < 5; i++ { // want `loop cap=5 deadline=none waits=jittered body`
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(retrykit.Jittered(i))
	}
	return err
}

func fixed() error {
	var err error
	for i := 0; i < 5; i++ { // want `loop cap=5 deadline=none waits=constant body`
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(retrykit.Fixed())
	}
	return err
}

// fieldNoJitter builds the backoff without Jitter: its random part is
// never added.
func fieldNoJitter() error {
	b := &retrykit.Doubling{Max: 5 * time.Minute}
	var err error
	for i := 0; i < 5; i++ { // want `loop cap=5 deadline=none waits=deterministic-growth body`
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(b.Duration())
	}
	return err
}

// fieldJitter sets Jitter: jittered.
func fieldJitter() error {
	b := &retrykit.Doubling{Max: 5 * time.Minute, Jitter: time.Second}
	var err error
	for i := 0; i < 5; i++ { // want `loop cap=5 deadline=none waits=jittered body`
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(b.Duration())
	}
	return err
}

// fieldJitterLater sets Jitter after the literal: jittered.
func fieldJitterLater(j time.Duration) error {
	b := &retrykit.Doubling{Max: 5 * time.Minute}
	b.Jitter = j
	var err error
	for i := 0; i < 5; i++ { // want `loop cap=5 deadline=none waits=jittered body`
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(b.Duration())
	}
	return err
}

// fieldUnknown takes its backoff from the caller: the model cannot tell
// whether Jitter is set, and keeps the jittered kind.
func fieldUnknown(b *retrykit.Doubling) error {
	var err error
	for i := 0; i < 5; i++ { // want `loop cap=5 deadline=none waits=jittered body`
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(b.Duration())
	}
	return err
}

// pacer is a backoff of this package, jittered only when Spread is set.
type pacer struct {
	base   time.Duration
	Spread bool
}

func (p *pacer) next(n int) time.Duration {
	d := p.base * time.Duration(n*n)
	if p.Spread {
		d = time.Duration(rand.Int63n(int64(d) + 1))
	}
	return d
}

func localNoJitter() error {
	p := &pacer{base: time.Second}
	var err error
	for i := 1; i <= 5; i++ { // want `loop cap=5 deadline=none waits=deterministic-growth body`
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(p.next(i))
	}
	return err
}

func localJitter() error {
	p := &pacer{base: time.Second, Spread: true}
	var err error
	for i := 1; i <= 5; i++ { // want `loop cap=5 deadline=none waits=jittered body`
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(p.next(i))
	}
	return err
}
