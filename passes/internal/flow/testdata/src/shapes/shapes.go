// Package shapes holds one function for each shape of loop the flow engine
// must recognise. Each want gives the loop's kind, the statement it maps
// to, its exit and back edge counts, its induction variables with the
// bounds they are compared with, and each call's outcome: "repeats" when
// its failure edge leads to the loop's next pass, "leaves" when it leaves
// the loop, "untested" when the error is not compared with nil in place,
// "noreturn" for a call that never returns.
package shapes

import (
	"context"
	"errors"
	"iter"
	"log"
	"os"
	"testing"
	"time"
)

func get(ctx context.Context) (string, error) { return "", nil }
func send() error                             { return nil }
func ready() bool                             { return true }
func use(any)                                 {}

// a for with a counter: the success returns, the failure goes round
func forReturnOnSuccess(ctx context.Context) (string, error) {
	var err error
	for i := 0; i < 3; i++ { // want `loop natural for exits=2 back=1 ind=\[i:up i<3\] calls=\[get:repeats\]`
		var v string
		v, err = get(ctx)
		if err == nil {
			return v, nil
		}
		time.Sleep(time.Second)
	}
	return "", err
}

// a for with no condition that breaks on success, the count stepped only
// on failure and compared inside the body
func forBreakOnSuccess(max int) error {
	attempt := 0
	for { // want `loop natural for exits=2 back=1 ind=\[attempt:up attempt>=max\] calls=\[send:repeats\]`
		err := send()
		if err == nil {
			break
		}
		attempt++
		if attempt >= max {
			return err
		}
	}
	return nil
}

// a retry written with goto
func gotoRetry() error {
	n := 0
RETRY: // want `loop natural label RETRY exits=2 back=1 ind=\[n:up n<5\] calls=\[send:repeats\]`
	err := send()
	if err != nil && n < 5 {
		n++
		time.Sleep(time.Millisecond)
		goto RETRY
	}
	return err
}

// a goto into the middle of a cycle: no block dominates the other
func gotoIrreducible(c bool) {
	n := 0
	if c {
		goto L2
	}
L1: // want `loop irreducible label L1 exits=1 back=2 ind=\[\] calls=\[send:untested\]`
	_ = send()
L2:
	n++
	if n < 3 {
		goto L1
	}
}

// a labelled continue across a select: the inner loop's failure leaves
// it and starts the outer loop's next pass, the outer loop's only back
// edge (its body ends in a return); the builder names the hidden counters
func labelledContinue(ctx context.Context, items []string) {
outer:
	for range 10 { // want `loop natural range exits=3 back=1 ind=\[rangeint.iter:up rangeint.iter<10\] calls=\[get:repeats\]`
		for _, it := range items { // want `loop natural range exits=2 back=1 ind=\[rangeindex:up rangeindex<len\] calls=\[get:leaves\]`
			_, err := get(ctx)
			if err != nil {
				select {
				case <-ctx.Done():
					return
				case <-time.After(time.Second):
					continue outer
				}
			}
			use(it)
		}
		return
	}
}

// a range over a func: the body is a closure the iterator calls
func rangeOverFunc(seq iter.Seq[int]) error {
	for range seq { // want `loop yield range exits=1 back=1 ind=\[\] calls=\[send:repeats\]`
		if err := send(); err == nil {
			break
		}
	}
	return nil
}

// os.Exit in the failure branch: the branch leaves the loop
func exitOnFailure(ctx context.Context) {
	for i := 0; i < 3; i++ { // want `loop natural for exits=2 back=1 ind=\[i:up i<3\] calls=\[get:leaves os.Exit:noreturn\]`
		if _, err := get(ctx); err != nil {
			os.Exit(1)
		}
	}
}

// log.Fatal on success, a retry on failure
func fatalOnSuccess() {
	for { // want `loop natural for exits=1 back=1 ind=\[\] calls=\[send:repeats log.Fatal:noreturn\]`
		if err := send(); err == nil {
			log.Fatal("done")
		}
	}
}

// the attempt is a closure that captures the context; the loop variable
// is captured too, so it lives in a new cell each pass: its phi is of
// pointers, and the bound compares a load of it
func closureCapture(ctx context.Context) error {
	op := func() error {
		_, err := get(ctx)
		return err
	}
	var fns []func()
	for i := 0; i < 3; i++ { // want `loop natural for exits=2 back=1 ind=\[i:up cell i<3\] calls=\[op:repeats\]`
		fns = append(fns, func() { use(i) })
		if err := op(); err == nil {
			return nil
		}
	}
	return errors.New("gave up")
}

// a count down into a named result, tested in place
func countDown(ctx context.Context) (err error) {
	for left := 5; left > 0; left-- { // want `loop natural for exits=2 back=1 ind=\[left:down left>0\] calls=\[get:repeats\]`
		if _, err = get(ctx); err == nil {
			return nil
		}
	}
	return err
}

// a loop in a package-level func literal belongs to the synthetic init
var poll = func() {
	for ready() { // want `loop natural for exits=1 back=1 ind=\[\] calls=\[\]`
	}
}

// the loop condition tests the error: the call's error reaches the test
// at the next pass through a phi (the first call is before the loop)
func whileFailing(ctx context.Context) {
	_, err := get(ctx)
	for err != nil { // want `loop natural for exits=1 back=1 ind=\[\] calls=\[get:repeats\]`
		time.Sleep(time.Second)
		_, err = get(ctx)
	}
}

// t.Fatal, promoted from testing.common, never returns
func fatalInTest(t *testing.T) {
	for i := 0; i < 3; i++ { // want `loop natural for exits=2 back=1 ind=\[i:up i<3\] calls=\[send:leaves t.Fatal:noreturn\]`
		if err := send(); err != nil {
			t.Fatal(err)
		}
	}
}

// the labelled statement is a declaration that makes no instruction: the
// loop's code starts after it, up to the end of the block (paho's
// RETRYCONN)
func gotoAfterDecl(c bool) error {
RETRY: // want `loop natural label RETRY exits=2 back=1 ind=\[\] calls=\[send:repeats\]`
	var err error
	err = send()
	if err != nil && c {
		time.Sleep(time.Second)
		goto RETRY
	}
	return err
}

// a counter the attempt's closure steps lives in one cell and has no phi:
// not an induction variable yet (a summary of the closure will tell)
func closureCounter() error {
	n := 0
	attempt := func() error { n++; return send() }
	for n < 3 { // want `loop natural for exits=2 back=1 ind=\[\] calls=\[attempt:repeats\]`
		if err := attempt(); err == nil {
			return nil
		}
	}
	return nil
}

// the error is a variable of the function around the range-over-func
// loop: the yield closure stores it in its cell and loads it to test it
func rangeCapturedErr(seq iter.Seq[int]) error {
	var err error
	for range seq { // want `loop yield range exits=1 back=1 ind=\[\] calls=\[send:repeats\]`
		err = send()
		if err != nil {
			continue
		}
		return nil
	}
	return err
}

// errors.Is holds only for an error, but the engine does not read it yet
func whileBusy() error {
	err := send()
	for i := 0; errors.Is(err, os.ErrDeadlineExceeded) && i < 3; i++ { // want `loop natural for exits=2 back=1 ind=\[i:up i<3\] calls=\[send:untested\]`
		time.Sleep(time.Second)
		err = send()
	}
	return err
}

// a range-over-func loop inside a retry loop, and a loop inside its body:
// the yield closure's loop is in the for loop of the function around it
func rangeInRetry(seq iter.Seq[int]) {
	for i := 0; i < 3; i++ { // want `loop natural for exits=1 back=1 ind=\[i:up i<3\] calls=\[\]$`
		for range seq { // want `loop yield range exits=0 back=1 ind=\[\] calls=\[\] in for$`
			for j := 0; j < 2; j++ { // want `loop natural for exits=1 back=1 ind=\[j:up j<2\] calls=\[\] in range$`
				use(j)
			}
		}
	}
}

// the outer body starts with the inner loop, which has no init statement
// (compress/flate's huffSym): the builder gives both loops one header,
// the engine one loop for each statement, so the inner counter is an
// induction variable
func sharedHeader(ctx context.Context) {
	n := 0
	for { // want `loop natural for exits=0 back=1 ind=\[\] calls=\[get:repeats\]$`
		for n < 3 { // want `loop natural for exits=2 back=1 ind=\[n:up n<3\] calls=\[get:repeats\] in for$`
			if _, err := get(ctx); err == nil {
				break
			}
			n++
		}
		n = 0
		time.Sleep(time.Minute)
	}
}

// a continue and the end of the body are two back edges of one loop
func continueAndEnd(ctx context.Context) {
	for { // want `loop natural for exits=1 back=2 ind=\[\] calls=\[get:repeats\]$`
		if _, err := get(ctx); err != nil {
			continue
		}
		if ready() {
			return
		}
	}
}

// a label a forward goto targets, then a loop: the label's code runs to
// the end of the block, around the for statement, which is the loop's
// (bytes.EqualFold's hasUnicode)
func forwardGoto(c bool, xs []int) {
	if c {
		goto slow
	}
	return
slow:
	xs = xs[1:]
	for r := 0; r < 3; r++ { // want `loop natural for exits=1 back=1 ind=\[r:up r<3\] calls=\[\]$`
		use(xs)
	}
}
