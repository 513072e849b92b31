// Package waitsums holds waits through helpers of the package at any
// depth, and through recursion, with their look-alikes.
package waitsums

import (
	"errors"
	"time"
)

func call() error { return errors.New("busy") }

// Four helpers deep: the wait is level4's sleep, of what the loop passes
// (doubled on the way).
func fourDeep() error {
	var err error
	for i := 0; i < 3; i++ { // want `loop cap=3 deadline=none waits=constant body`
		if err = call(); err == nil {
			return nil
		}
		level1(time.Second)
	}
	return err
}

func fourDeepGrowth() error {
	var err error
	for i := 0; i < 3; i++ { // want `loop cap=3 deadline=none waits=deterministic-growth body`
		if err = call(); err == nil {
			return nil
		}
		level1(time.Second << i)
	}
	return err
}

func level1(d time.Duration) { level2(d) }
func level2(d time.Duration) { level3(2 * d) }
func level3(d time.Duration) { level4(d) }
func level4(d time.Duration) { time.Sleep(d) }

// Mutual recursion: pace waits through paceAgain, which waits and calls
// pace again; the summaries meet at a fixed point.
func recursive() error {
	var err error
	for i := 0; i < 3; i++ { // want `loop cap=3 deadline=none waits=constant body`
		if err = call(); err == nil {
			return nil
		}
		pace(time.Second, 2)
	}
	return err
}

func pace(d time.Duration, n int) {
	if n <= 0 {
		return
	}
	paceAgain(d, n-1)
}

func paceAgain(d time.Duration, n int) {
	<-time.After(d)
	pace(d, n)
}

// ---- look-alikes

// Four deep to a timer from a pool: the last helper waits on it with
// other channels (a timeout, nats.go's NextMsg), so none of them waits.
func fourDeepTimer(ch <-chan int) error {
	var err error
	for i := 0; i < 3; i++ { // want `loop cap=3 deadline=none waits=none body`
		if err = call(); err == nil {
			return nil
		}
		take1(ch)
	}
	return err
}

func take1(ch <-chan int) { take2(ch) }
func take2(ch <-chan int) { take3(ch) }
func take3(ch <-chan int) { take4(ch, pooledTimer(time.Second)) }

func take4(ch <-chan int, t *time.Timer) {
	select {
	case <-ch:
	case <-t.C:
	}
}

var pool []*time.Timer

func pooledTimer(d time.Duration) *time.Timer {
	if n := len(pool); n > 0 {
		t := pool[n-1]
		pool = pool[:n-1]
		t.Reset(d)
		return t
	}
	return time.NewTimer(d)
}

// A recursion that waits only when its work is done: a failed attempt
// goes on at once.
func recursiveSettle() error {
	var err error
	for i := 0; i < 3; i++ { // want `loop cap=3 deadline=none waits=none body`
		err = call()
		settle(err, 2)
		if err == nil {
			return nil
		}
	}
	return err
}

func settle(err error, n int) {
	if n <= 0 {
		return
	}
	if err == nil {
		time.Sleep(time.Second)
	}
	settle(err, n-1)
}
