package repeats

import (
	"context"
	"errors"
	"time"
)

// Exits that no retried failure reaches cap nothing: the failures repeat
// until an attempt succeeds.

var errGone = errors.New("gone")

func get(ctx context.Context) (string, error) { return "", nil }

// The metadata watch (cloud.google.com/go/compute/metadata's
// SubscribeWithContext): it leaves on its callback's result only past the
// failure branch that retries, and on a failure that says its context
// ended: that context is its deadline. It has no cap: the exit past the
// failure branch tests a flag (ok) that only the unretried errGone
// failure clears, which gives up on that failure and bounds nothing the
// loop retries (flagOfFailureKind).
func watch(ctx context.Context, fn func(string, bool) error) error {
	ok := true
	for { // want "loop cap=none deadline=caller's-context waits=constant body"
		v, err := get(ctx)
		if err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return err
			}
			if !errors.Is(err, errGone) {
				time.Sleep(5 * time.Second)
				continue
			}
			ok = false
		}
		if err := fn(v, ok); err != nil || !ok {
			return err
		}
	}
}

type notDefined struct{}

func (notDefined) Error() string { return "not defined" }

// The same watch as metadata writes it: the failure that clears the flag
// is told by a type assertion of the error.
func watchTyped(ctx context.Context, fn func(string, bool) error) error {
	ok := true
	for { // want "loop cap=none deadline=caller's-context waits=constant body"
		v, err := get(ctx)
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return err
			}
			if _, deleted := err.(notDefined); !deleted {
				time.Sleep(5 * time.Second)
				continue
			}
			ok = false
		}
		if err := fn(v, ok); err != nil || !ok {
			return err
		}
	}
}

// Look-alike: the flag is what a pass read, not a kind of failure: a
// bound the model cannot read.
func watchUntilEmpty(ctx context.Context, fn func(string) error) error {
	more := true
	for { // want "loop cap=unknown deadline=caller's-context waits=constant body"
		v, err := get(ctx)
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return err
			}
			time.Sleep(5 * time.Second)
			continue
		}
		more = v != ""
		if err := fn(v); err != nil || !more {
			return err
		}
	}
}

// Look-alike: the failure branch counts its failures and gives up.
func watchCounted(ctx context.Context, fn func(string) error) error {
	failures := 0
	for { // want "loop cap=4 deadline=caller's-context waits=constant body"
		v, err := get(ctx)
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return err
			}
			failures++
			if failures > 3 {
				return err
			}
			time.Sleep(time.Second)
			continue
		}
		failures = 0
		if err := fn(v); err != nil {
			return err
		}
	}
}

func list(ctx context.Context) ([]int, error) { return nil, nil }
func temporary(err error) bool                { return true }

var errMissing = errors.New("missing")

// kafka-go's LookupPartition: temporary failures continue; the exit on the
// partition found is reached only past a successful read, so it caps
// nothing, and the context of the wait ends the loop.
func lookup(ctx context.Context, id int) (int, error) {
	for attempt := 0; true; attempt++ { // want "loop cap=none deadline=caller's-context waits=deterministic-growth body"
		if attempt != 0 {
			if !sleep(ctx, backoff(attempt, 100*time.Millisecond, 10*time.Second)) {
				return 0, ctx.Err()
			}
		}
		parts, err := list(ctx)
		if err != nil {
			if temporary(err) {
				continue
			}
			return 0, err
		}
		for _, p := range parts {
			if p == id {
				return p, nil
			}
		}
	}
	return 0, errMissing
}

// Look-alike: the same lookup gives up after five passes, at the top of
// the pass, which every retried failure reaches.
func lookupCapped(ctx context.Context, id int) (int, error) {
	for attempt := 0; true; attempt++ { // want "loop cap=5 deadline=caller's-context waits=deterministic-growth body"
		if attempt >= 5 {
			return 0, errMissing
		}
		if attempt != 0 {
			if !sleep(ctx, backoff(attempt, 100*time.Millisecond, 10*time.Second)) {
				return 0, ctx.Err()
			}
		}
		parts, err := list(ctx)
		if err != nil {
			if temporary(err) {
				continue
			}
			return 0, err
		}
		for _, p := range parts {
			if p == id {
				return p, nil
			}
		}
	}
	return 0, errMissing
}

// WatchContext is the exported watch: its context is its caller's, but
// Watch, in the package, gives it context.Background(): on that path the
// retry has no deadline (Deadline.Unbounded).
func WatchContext(ctx context.Context) error {
	for { // want "loop cap=none deadline=caller's-context waits=constant body unbounded-by-caller"
		v, err := get(ctx)
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return err
			}
			time.Sleep(time.Second)
			continue
		}
		if err := handle(v); err != nil {
			return err
		}
	}
}

// Watch is WatchContext with no context.
func Watch() error { return WatchContext(context.Background()) }

// Look-alike: the package's one caller of WatchTimed gives it a deadline.
func WatchTimed(ctx context.Context) error {
	for { // want "loop cap=none deadline=caller's-context waits=constant body$"
		v, err := get(ctx)
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return err
			}
			time.Sleep(time.Second)
			continue
		}
		if err := handle(v); err != nil {
			return err
		}
	}
}

// WatchMinute watches for a minute.
func WatchMinute() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return WatchTimed(ctx)
}

func handle(v string) error { return nil }

type lro struct{ finished bool }

func (l *lro) poll(ctx context.Context) (string, error)   { return "", nil }
func (l *lro) result(ctx context.Context) (string, error) { return "", nil }
func (l *lro) done() bool                                 { return l.finished }

// delay is another package's wait in azcore (shared.Delay): a call the
// model does not read.
var delay = func(ctx context.Context, d time.Duration) error { return nil }

// Look-alike: azcore's PollUntilDone, reduced: err is shared between a
// poll that leaves on failure, the result and the delay; the loop polls,
// it retries nothing (no scope). (In azcore itself the model still takes
// it for a retry of unknown bounds; its exit on done() follows the poll's
// success, and the poll is not a retried attempt, so successSide keeps
// that exit a bound.)
func pollUntilDone(ctx context.Context, l *lro) (res string, err error) {
	for {
		_, err = l.poll(ctx)
		if err != nil {
			return
		}
		if l.done() {
			res, err = l.result(ctx)
			return
		}
		if err = delay(ctx, time.Second); err != nil {
			return
		}
	}
}

type failed struct{ nonRetryable bool }

type activityEnv struct{ attempt int }

func (a *activityEnv) execute() (any, error) { return nil, nil }

func (a *activityEnv) backoff(maxAttempts int) time.Duration {
	if a.attempt >= maxAttempts {
		return -1
	}
	return time.Second
}

// Look-alike: Temporal's test-suite activity retry panics on the call's
// error and retries by what a successful call returned (a failure reply),
// while the policy's backoff is positive: the exits past the success are
// the retry's own decision, a bound the model cannot read.
func (a *activityEnv) run(maxAttempts int) (res any) {
	for { // want "loop cap=unknown deadline=unknown"
		r, err := a.execute()
		res = r
		if err != nil {
			if err == context.DeadlineExceeded {
				return err
			}
			panic(err)
		}
		if f, ok := r.(*failed); ok && maxAttempts > 0 {
			if f.nonRetryable {
				break
			}
			if d := a.backoff(maxAttempts); d > 0 {
				<-time.After(d)
				a.attempt++
				continue
			}
		}
		break
	}
	return
}
