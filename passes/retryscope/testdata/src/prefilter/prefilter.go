// Package prefilter holds retry loops of the shapes the syntax-only
// LoopFilter must not rule out (TestPrefilterSound checks each scope here),
// next to look-alikes it may rule out (TestLoopFilter).
package prefilter

import (
	"context"
	"time"
)

func op() error                { return nil }
func temporary(err error) bool { return true }
func pause()                   { time.Sleep(time.Second) }

// An exit on every error, but a branch before it: temporary errors retry.
func branchBeforeReturn() error {
	for i := 0; i < 3; i++ { // want `loop cap=3 deadline=none waits=constant body`
		err := op()
		if err != nil {
			if temporary(err) {
				time.Sleep(time.Second)
				continue
			}
			return err
		}
		return nil
	}
	return nil
}

// A labelled assignment.
func labelled() error {
	var err error
	for i := 0; i < 3; i++ { // want `loop cap=3 deadline=none waits=constant body`
	again:
		err = op()
		if err == nil {
			return nil
		}
		if i < 0 {
			goto again
		}
		time.Sleep(time.Second)
	}
	return err
}

// A switch on the error with a nil case.
func switchNil() error {
	for i := 0; i < 3; i++ { // want `loop cap=3 deadline=none waits=constant body`
		err := op()
		switch err {
		case nil:
			return nil
		}
		time.Sleep(time.Second)
	}
	return nil
}

// An if with the attempt in its init and an else.
func initElse() error {
	for i := 0; i < 3; i++ { // want `loop cap=3 deadline=none waits=constant body`
		if err := op(); err == nil {
			return nil
		} else {
			time.Sleep(time.Second)
		}
	}
	return nil
}

// A range over an integer, a wait through a helper of the package.
func rangeInt() error {
	for range 4 { // want `loop cap=4 deadline=none waits=constant body`
		if op() == nil {
			return nil
		}
		pause()
	}
	return nil
}

// The loop condition repeats while the error is not nil.
func whileErr(ctx context.Context) {
	err := op()
	for err != nil { // want `loop cap=none deadline=caller.s-context waits=constant body`
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
		err = op()
	}
}
