// Package attempts holds the shapes of Loop.Attempts, Package.Cycles and
// the package's own never-returning functions.
package attempts

import (
	"errors"
	"io"
	"os"
	"time"
)

func op() error                { return nil }
func get() (*response, error)  { return nil, nil }
func try() (bool, error)       { return false, nil }
func retryable(err error) bool { return err != nil }
func ready(res *response) bool { return res != nil }
func read() (int, error)       { return 0, nil }

type response struct{ StatusCode int }

var errBusy = errors.New("busy")

func errNil() {
	for { // want `loop natural for attempts=\[attempts.op:err-nil\]`
		if err := op(); err == nil {
			return
		}
		time.Sleep(time.Second)
	}
}

func errorsIs() error {
	err := op()
	for r := 0; errors.Is(err, errBusy) && r < 3; r++ { // want `loop natural for attempts=\[attempts.op:err-test\]`
		time.Sleep(time.Second)
		err = op()
	}
	return err
}

func helperOnError() error {
	for { // want `loop natural for attempts=\[attempts.op:err-test pred=attempts.retryable\]`
		err := op()
		if !retryable(err) {
			return err
		}
		time.Sleep(time.Second)
	}
}

func predicate() {
	for { // want `loop natural for attempts=\[attempts.get:predicate pred=attempts.ready\]`
		res, _ := get()
		if ready(res) {
			return
		}
		time.Sleep(time.Second)
	}
}

func boolResult() error {
	for { // want `loop natural for attempts=\[attempts.try:bool-result\]`
		again, err := try()
		if !again {
			return err
		}
		time.Sleep(time.Second)
	}
}

// the error leaves; a 5xx is retried
func failedResult() {
	for i := 0; i < 3; i++ { // want `loop natural for attempts=\[attempts.get:result-test\]`
		res, err := get()
		if err != nil {
			return
		}
		if res.StatusCode < 500 {
			return
		}
		time.Sleep(time.Second)
	}
}

// the error is tested first: its failure repeats
func errFirst() {
	for i := 0; i < 3; i++ { // want `loop natural for attempts=\[attempts.get:err-nil\]`
		res, err := get()
		if err == nil && res.StatusCode < 500 {
			return
		}
		time.Sleep(time.Second)
	}
}

func onSuccess() error {
	for i := 0; i < 3; i++ { // want `loop natural for attempts=\[attempts.op:err-nil:on-success\]`
		if err := op(); err != nil {
			return err
		}
	}
	return nil
}

func readUntilEOF() {
	var err error
	for !errors.Is(err, io.EOF) { // want `loop natural for attempts=\[attempts.read:err-test:on-success\]`
		_, err = read()
	}
}

// the scan's attempt is the inner loop's; the outer loop retries connect
func inner() {
	for { // want `loop natural for attempts=\[attempts.op:err-nil\]`
		if err := op(); err != nil {
			time.Sleep(time.Second)
			continue
		}
		for i := 0; i < 10; i++ { // want `loop natural for attempts=\[attempts.read:err-nil\]`
			if _, err := read(); err != nil {
				continue
			}
			break
		}
	}
}

// the outer loop retries what the inner retry ended with: both retry op
func nestedRetry() error {
	var err error
	for n := 0; n < 3; n++ { // want `loop natural for attempts=\[attempts.op:err-nil\]`
		for i := 0; i < 5; i++ { // want `loop natural for attempts=\[attempts.op:err-nil\]`
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

// the inner retry's failure leaves the outer loop: op is the inner's alone
func nestedGivesUp() error {
	var err error
	for n := 0; n < 3; n++ { // want `loop natural for attempts=\[\]`
		for i := 0; i < 5; i++ { // want `loop natural for attempts=\[attempts.op:err-nil\]`
			if err = op(); err == nil {
				break
			}
			time.Sleep(time.Second)
		}
		if err != nil {
			return err
		}
		time.Sleep(time.Second)
	}
	return nil
}

// no attempt: the call's result decides nothing
func ignored() {
	for i := 0; i < 3; i++ { // want `loop natural for attempts=\[\]`
		_ = op()
	}
}

type client struct{ n, retries int }

func (c *client) refresh(left int) error {
	err := op()
	if err == nil {
		return nil
	}
	if left > 0 {
		time.Sleep(time.Second)
		return c.refresh(left - 1) // want `loop recursion call attempts=\[attempts.op:err-nil\]`
	}
	return err
}

func viaClosure(left int) error {
	again := func() error {
		left--
		return viaClosure(left)
	}
	if err := op(); err != nil && left > 0 {
		return again() // want `loop recursion call attempts=\[attempts.op:err-nil\]`
	}
	return nil
}

func (c *client) attempt() {
	if err := op(); err != nil {
		c.n++
		time.AfterFunc(time.Second, c.attempt) // want `loop reschedule call attempts=\[attempts.op:err-nil\]`
	}
}

func closureVar() {
	var f func()
	f = func() {
		if err := op(); err != nil {
			time.AfterFunc(time.Second, f) // want `loop reschedule call attempts=\[attempts.op:err-nil\]`
		}
	}
	f()
}

// a walk, not a retry of a failure: no attempt
func walk(n int) {
	if n == 0 {
		return
	}
	walk(n - 1) // want `loop recursion call attempts=\[\]`
}

// fatal never returns: the package's own, through another of its own
func fatal(msg string) {
	println(msg)
	os.Exit(1)
}

func die() { fatal("die") }

func neverReturns() {
	for { // want `loop natural for attempts=\[attempts.op:err-nil:on-success\]`
		if err := op(); err != nil {
			die()
		}
	}
}

func list() ([]string, *response, error)   { return nil, nil, nil }
func decode(s []string) (*response, error) { return nil, nil }

// a watch that retries its read with goto (consul's monitorLock): the
// read's failure path goes back to RETRY, its success to WAIT; the read is
// the attempt of the RETRY loop, not of the WAIT loop around it (an inner
// loop's attempt), which repeats on a held lock
func (c *client) monitor() {
WAIT: // want `loop natural label WAIT attempts=\[attempts.decode:result-test\]`
	retries := c.retries
RETRY: // want `loop natural label RETRY attempts=\[attempts.list:err-nil\]`
	pairs, meta, err := list()
	if err != nil {
		if retries > 0 && retryable(err) {
			time.Sleep(time.Second)
			retries--
			goto RETRY
		}
		return
	}
	lock, err := decode(pairs)
	if err != nil {
		return
	}
	if lock.StatusCode == meta.StatusCode {
		goto WAIT
	}
}

type broker struct{}

type reply struct{ Err error }

func (*broker) find() (*reply, error) { return nil, nil }
func (*client) leastLoaded() *broker  { return nil }
func (*client) drop(*broker)          {}

var errNotAvailable = errors.New("not available")

// a lookup that asks each broker of a pool in turn, and asks again through
// its retry closure when the answer is "not available" (sarama's
// findCoordinator): the retry is the cycle through the closure, its
// attempt the reply's error; the loop only moves to the next broker
func (c *client) coordinator(left int) (*reply, error) {
	retry := func(err error) (*reply, error) {
		if left > 0 {
			time.Sleep(time.Second)
			return c.coordinator(left - 1)
		}
		return nil, err
	}
	for b := c.leastLoaded(); b != nil; b = c.leastLoaded() { // want `loop natural for attempts=\[\(\*attempts.broker\).find:err-nil\]`
		res, err := b.find()
		if err != nil {
			c.drop(b)
			continue
		}
		if res.Err == nil {
			return res, nil
		} else if errors.Is(res.Err, errNotAvailable) {
			time.Sleep(2 * time.Second)
			return retry(errNotAvailable) // want `loop recursion call attempts=\[\(\*attempts.broker\).find:result-test\]`
		}
		return nil, errBusy
	}
	return retry(errBusy) // want `loop recursion call attempts=\[\]`
}

// the same with a WAIT label whose first statement emits no code: the
// loop starts at the label all the same
func watch(retries0 int) {
WAIT: // want `loop natural label WAIT attempts=\[\]`
	retries := retries0
RETRY: // want `loop natural label RETRY attempts=\[attempts.get:err-nil\]`
	if _, err := get(); err != nil {
		if retries > 0 {
			time.Sleep(time.Second)
			retries--
			goto RETRY
		}
		return
	}
	goto WAIT
}

func probe(url string) error { return nil }

// a round over items inside a loop that waits and comes round again
// (olivere's startupHealthcheck): the range takes the next URL on a
// failure, the outer loop retries the round; the range is no retry of
// the probe
func probeRound(urls []string, deadline time.Time) error {
	for time.Now().Before(deadline) { // want `loop natural for attempts=\[attempts.probe:err-nil\]`
		for _, u := range urls { // want `loop natural range attempts=\[attempts.probe:err-nil\]`
			if err := probe(u); err == nil {
				return nil
			}
		}
		time.Sleep(time.Second)
	}
	return errBusy
}

// the same round with a count inside: the counted loop retries the probe
// of one URL, the outer loop does not
func probeEach(urls []string) error {
	for _, u := range urls { // want `loop natural range attempts=\[\]`
		for i := 0; i < 3; i++ { // want `loop natural for attempts=\[attempts.probe:err-nil\]`
			if err := probe(u); err == nil {
				return nil
			}
			time.Sleep(time.Second)
		}
	}
	return errBusy
}
