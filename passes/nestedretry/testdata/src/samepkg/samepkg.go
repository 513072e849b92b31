package samepkg

import (
	"context"
	"time"

	retry "github.com/avast/retry-go/v4"
)

func op() error    { return nil }
func other() error { return nil }

// A retry library call inside a hand-written retry loop.
func libraryInLoop() error {
	var err error
	for i := 0; i < 3; i++ {
		err = retry.Do(op) // want `retry\.Do \(10 attempts\) inside a retry loop \(3 attempts\), up to 3×10 = 30 calls; retry in one layer only`
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// A hand-written loop inside a retry library's operation.
func loopInLibrary() error {
	return retry.Do(func() error {
		var err error
		for i := 0; i < 4; i++ { // want `retry loop \(4 attempts\) inside retry\.Do \(10 attempts\), up to 10×4 = 40 calls`
			if err = op(); err == nil {
				return nil
			}
			time.Sleep(time.Second)
		}
		return err
	}, retry.Attempts(10))
}

// Nested hand loops: the inner loop is reported.
func nestedLoops() error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		for i := 0; i < 5; i++ { // want `retry loop \(5 attempts\) inside a retry loop \(3 attempts\), up to 3×5 = 15 calls`
			if err = op(); err == nil {
				break
			}
			time.Sleep(time.Second)
		}
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// One call deep: the helper retries.
func helper() error {
	return retry.Do(op, retry.Attempts(5))
}

func oneCallDeep() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = helper(); err == nil { // want `samepkg\.helper reaches retry\.Do \(5 attempts\) inside a retry, up to 3×5 = 15 calls`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Two calls deep, through a method on a concrete type.
type store struct{}

func (s *store) save() error { return s.saveWithRetry() }

func (s *store) saveWithRetry() error {
	var err error
	for i := 0; i < 4; i++ {
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func twoCallsDeep(s *store) error {
	return retry.Do(func() error {
		return s.save() // want `\(\*samepkg\.store\)\.save reaches retry loop \(4 attempts\) inside a retry, up to 10×4 = 40 calls`
	})
}

// A closure held in a variable and called inside the loop.
func closureCall() error {
	send := func() error { return retry.Do(op, retry.Attempts(2)) }
	var err error
	for i := 0; i < 3; i++ {
		if err = send(); err == nil { // want `the closure send reaches retry\.Do \(2 attempts\) inside a retry, up to 3×2 = 6 calls`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// A named operation declared in this package: its body is the repeated code.
func attempt() error { return helper() } // want `samepkg\.helper reaches retry\.Do \(5 attempts\) inside retry\.Do \(3 attempts\), up to 3×5 = 15 calls`

func namedOp() error {
	return retry.Do(attempt, retry.Attempts(3))
}

// Suppressed with a reason.
func suppressed() error {
	return retry.Do(func() error {
		//idemlint:ignore nestedretry the helper's retries are for a different failure mode
		return helper()
	})
}

// ---- negatives

// Two retries one after the other.
func sequential() error {
	if err := retry.Do(op, retry.Attempts(3)); err != nil {
		return err
	}
	return retry.Do(other, retry.Attempts(3))
}

// The callee loops over items without retrying.
func each(items []string) error {
	for _, it := range items {
		if err := op(); err != nil {
			return err
		}
		_ = it
	}
	return nil
}

func itemsInRetry(items []string) error {
	return retry.Do(func() error { return each(items) })
}

// The outer loop ranges over items: not a retry.
func retryPerItem(items []string) error {
	for range items {
		if err := retry.Do(op, retry.Attempts(3)); err != nil {
			return err
		}
	}
	return nil
}

// A polling loop that never leaves on success is not a retry either.
func worker(ctx context.Context) {
	for ctx.Err() == nil {
		_ = retry.Do(op, retry.Attempts(3))
		time.Sleep(time.Second)
	}
}

// Calls inside the inner layer's own operation belong to the inner layer:
// only the inner retry.Do is reported against the loop.
func innerOpBody() error {
	var err error
	for i := 0; i < 2; i++ {
		err = retry.Do(func() error { // want `retry\.Do \(3 attempts\) inside a retry loop \(2 attempts\), up to 2×3 = 6 calls`
			return each(nil)
		}, retry.Attempts(3))
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// A closure stored but never called in the loop is not reached.
func storedClosure() (func() error, error) {
	var err error
	for i := 0; i < 3; i++ {
		later := func() error { return helper() }
		if err = op(); err == nil {
			return later, nil
		}
		time.Sleep(time.Second)
	}
	return nil, err
}

// A loop that never waits is not counted as an inner retry (read and scan
// loops look like retries to the model), but it still counts as an outer
// one.
func readAll() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = op(); err == nil {
			return nil
		}
	}
	return err
}

func hotInner() error {
	return retry.Do(readAll)
}

func hotOuter() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = helper(); err == nil { // want `samepkg\.helper reaches retry\.Do \(5 attempts\) inside a retry, up to 3×5 = 15 calls`
			return nil
		}
	}
	return err
}

// Three layers: each inner layer is reported once, against the layer
// directly around it, with the calls of every layer from the outermost in.
func threeLayers() error {
	var err error
	for i := 0; i < 3; i++ {
		err = retry.Do(func() error { // want `retry\.Do \(2 attempts\) inside a retry loop \(3 attempts\), up to 3×2×4 = 24 calls`
			var err error
			for j := 0; j < 4; j++ { // want `retry loop \(4 attempts\) inside retry\.Do \(2 attempts\), up to 2×4 = 8 calls`
				if err = op(); err == nil {
					return nil
				}
				time.Sleep(time.Second)
			}
			return err
		}, retry.Attempts(2))
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func reconnect() {
	for i := 0; i < 5; i++ {
		if err := op(); err == nil {
			return
		}
		time.Sleep(time.Second)
	}
}

// A retry that starts a reconnecting goroutine does not wait for it: no
// nested layer.
func spawnsRetry() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = op(); err == nil {
			go reconnect()
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Three layers: 4 attempts around 4 around retry-go's 5 make up to 80
// calls, and the message multiplies them all.
func fourAroundFive() error {
	var err error
	for i := 0; i < 4; i++ {
		if err = retry.Do(op, retry.Attempts(5)); err == nil { // want `retry\.Do \(5 attempts\) inside a retry loop \(4 attempts\), up to 4×5 = 20 calls`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func threeLayersThroughCall() error {
	var err error
	for i := 0; i < 4; i++ {
		if err = fourAroundFive(); err == nil { // want `samepkg\.fourAroundFive reaches retry loop \(4 attempts\) inside a retry, up to 4×4×5 = 80 calls`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// A function that retries by calling itself again after a wait (sarama's
// findCoordinator through its retry closure): a retry loop of its own,
// which a retry around its call nests.
func refresh(attempts int) error {
	if err := op(); err != nil {
		if attempts <= 0 {
			return err
		}
		time.Sleep(time.Second)
		return refresh(attempts - 1)
	}
	return nil
}

func aroundRecursion() error {
	return retry.Do(func() error {
		return refresh(3) // want `samepkg\.refresh reaches retry loop inside retry\.Do \(10 attempts\); retry in one layer only`
	})
}

// Look-alike: the recursion's own call is its next attempt, not a layer
// nested in it.
func refreshOnly() error { return refresh(3) }

// Look-alike: a recursion through a closure of its own (sarama's
// tryRefreshMetadata): the closure's call is the next attempt.
func refreshVia(attempts int) error {
	again := func(err error) error {
		if attempts <= 0 {
			return err
		}
		time.Sleep(time.Second)
		return refreshVia(attempts - 1)
	}
	if err := op(); err != nil {
		return again(err)
	}
	return nil
}
