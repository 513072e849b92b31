// Package delays waits for durations computed by another package.
package delays

import (
	"time"

	"example.com/retrykit"
)

func op() error { return nil }

func growth() error {
	var err error
	for i := 0; i < 5; i++ {
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(retrykit.Backoff(i)) // want `deterministic backoff between retry attempts has no jitter`
	}
	return err
}

// jittered is the look-alike: the other package's delay is random.
func jittered() error {
	var err error
	for i := 0; i < 5; i++ {
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(retrykit.Jittered(i))
	}
	return err
}

// helper is the other look-alike: the constant wait of a retry helper
// (retrykit.Forever) is reported at the helper's own loop, not again at
// every call of it.
func helper() error {
	return retrykit.Forever(nil, op)
}

// A backoff type of another package whose jitter is a field left unset.
func doublingNoJitter() error {
	b := &retrykit.Doubling{Max: time.Minute}
	var err error
	for i := 0; i < 5; i++ {
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(b.Duration()) // want `deterministic backoff between retry attempts has no jitter`
	}
	return err
}

// The same type with Jitter set: jittered, no finding.
func doublingJitter() error {
	b := &retrykit.Doubling{Max: time.Minute, Jitter: 500 * time.Millisecond}
	var err error
	for i := 0; i < 5; i++ {
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(b.Duration())
	}
	return err
}

func renewOnce() error { return nil }

// The failure branch sets the next wait to a constant before it continues.
func renewal(ttl time.Duration, done <-chan struct{}) error {
	wait := ttl / 2
	start := time.Now()
	for {
		if time.Since(start) > 10*ttl {
			return nil
		}
		select {
		case <-time.After(wait): // want `constant wait between retry attempts has no jitter`
			if err := renewOnce(); err != nil {
				wait = time.Second
				continue
			}
			return nil
		case <-done:
			return nil
		}
	}
}
