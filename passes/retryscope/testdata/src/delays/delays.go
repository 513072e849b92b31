// Package delays waits for durations computed in another package (delay
// facts).
package delays

import (
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
