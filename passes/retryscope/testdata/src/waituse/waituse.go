// Package waituse retries through the wait helpers of waitkit, another
// package of the module: their facts say how long they wait.
package waituse

import (
	"errors"
	"time"

	"waitkit"
)

func call() error { return errors.New("busy") }

func hold() error {
	var err error
	for i := 0; i < 3; i++ { // want `loop cap=3 deadline=none waits=constant body`
		if err = call(); err == nil {
			return nil
		}
		waitkit.Hold(time.Second)
	}
	return err
}

// The attempt counter passed to Exp: jittered growth, jittered.
func exp() error {
	var err error
	for i := 0; i < 5; i++ { // want `loop cap=5 deadline=none waits=jittered body`
		if err = call(); err == nil {
			return nil
		}
		waitkit.Exp(100*time.Millisecond, i)
	}
	return err
}

// The caller's own growth passed through Hold.
func grow() error {
	var err error
	for i := 0; i < 5; i++ { // want `loop cap=5 deadline=none waits=deterministic-growth body`
		if err = call(); err == nil {
			return nil
		}
		waitkit.Hold(time.Second << i)
	}
	return err
}

// ---- look-alikes

// Next's timer is a timeout of the receive, not a pause between attempts.
func next(ch <-chan int) (sum int, err error) {
	for i := 0; i < 3; i++ { // want `loop cap=3 deadline=none waits=none body`
		if err = call(); err == nil {
			return sum, nil
		}
		v, _ := waitkit.Next(ch, time.Second)
		sum += v
	}
	return sum, err
}

// Settle waits only after a success: a failed attempt is tried again at
// once.
func settle() error {
	var err error
	for i := 0; i < 3; i++ { // want `loop cap=3 deadline=none waits=none body`
		err = call()
		waitkit.Settle(err, time.Second)
		if err == nil {
			return nil
		}
	}
	return err
}
