package loops

import (
	"context"
	"errors"
	"math"
	"math/rand"
	"net/http"
	"strconv"
	"time"
)

func op() error                       { return nil }
func opCtx(ctx context.Context) error { return nil }
func get() (*http.Response, error)    { return nil, nil }
func retryable(err error) bool        { return true }
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func forever() error {
	for { // want `loop cap=none deadline=none waits=constant body`
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
}

func threeClause() error {
	var err error
	for i := 0; i < 3; i++ { // want `loop cap=3 deadline=none waits=deterministic-growth body`
		err = op()
		if err == nil {
			return nil
		}
		time.Sleep(time.Duration(1<<i) * 100 * time.Millisecond)
	}
	return err
}

func whileErr() {
	err := op()
	for err != nil { // want `loop cap=none deadline=none waits=constant body`
		time.Sleep(500 * time.Millisecond)
		err = op()
	}
}

func counterOutside() error {
	attempts := 0
	delay := 100 * time.Millisecond
	for { // want `loop cap=5 deadline=none waits=deterministic-growth body`
		err := op()
		if err == nil {
			return nil
		}
		attempts++
		if attempts >= 5 {
			return err
		}
		time.Sleep(delay)
		delay *= 2
	}
}

func neverIncremented() error {
	attempts := 0
	for { // want `loop cap=none deadline=none waits=jittered body`
		err := op()
		if err == nil {
			return nil
		}
		if attempts >= 5 {
			return err
		}
		time.Sleep(time.Duration(rand.Int63n(int64(time.Second))))
	}
}

func continueForm() (*http.Response, error) {
	for attempt := 0; attempt < 4; attempt++ { // want `loop cap=4 deadline=none waits=deterministic-growth body`
		resp, err := get()
		if err != nil {
			time.Sleep(time.Duration(math.Pow(2, float64(attempt))) * time.Second)
			continue
		}
		return resp, nil
	}
	return nil, errors.New("gave up")
}

func labelled() error {
	var err error
outer:
	for i := 0; i < 3; i++ { // want `loop cap=3 deadline=none waits=constant body`
		switch err = op(); {
		case err == nil:
			break outer
		}
		time.Sleep(time.Second)
	}
	return err
}

func selectCtx(ctx context.Context) error {
	for { // want `loop cap=none deadline=caller's-context waits=constant body`
		err := opCtx(ctx)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

func deadlineInScope(parent context.Context) error {
	ctx, cancel := context.WithTimeout(parent, 10*time.Second)
	defer cancel()
	for { // want `loop cap=none deadline=in-scope waits=jittered body`
		err := opCtx(ctx)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(rand.Intn(1000)) * time.Millisecond):
		}
	}
}

func timeBudget() error {
	start := time.Now()
	for { // want `loop cap=none deadline=in-scope waits=constant body`
		err := op()
		if err == nil {
			return nil
		}
		if time.Since(start) > time.Minute {
			return err
		}
		time.Sleep(time.Second)
	}
}

func helperWait(ctx context.Context) error {
	for i := 0; i < 5; i++ { // want `loop cap=5 deadline=caller's-context waits=constant body`
		err := opCtx(ctx)
		if err == nil {
			return nil
		}
		if err := sleepCtx(ctx, 2*time.Second); err != nil {
			return err
		}
	}
	return errors.New("gave up")
}

// Neither waiting nor counting: more often a read loop than a retry, so
// the model leaves it out.
func hot() error {
	for {
		if err := op(); err == nil {
			return nil
		}
	}
}

func hotCounted() error {
	for i := 0; i < 10; i++ { // want `loop cap=10 deadline=none waits=none body`
		if err := op(); err == nil {
			return nil
		}
	}
	return nil
}

func rangeInt() error {
	var err error
	for i := range 3 { // want `loop cap=3 deadline=none waits=deterministic-growth body`
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(time.Duration(i+1) * time.Second)
	}
	return err
}

func retryAfter() error {
	for i := 0; i < 5; i++ { // want `loop cap=5 deadline=none waits=server-directed body`
		resp, err := get()
		if err == nil && resp.StatusCode < 500 {
			return nil
		}
		secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		time.Sleep(time.Duration(secs) * time.Second)
	}
	return errors.New("gave up")
}

func statusRetry() (*http.Response, error) {
	for i := 0; i < 3; i++ { // want `loop cap=3 deadline=none waits=constant,constant body`
		resp, err := get()
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		if resp.StatusCode >= 500 {
			resp.Body.Close()
			time.Sleep(time.Second)
			continue
		}
		return resp, nil
	}
	return nil, errors.New("gave up")
}

func backoffHelper(attempt int) time.Duration {
	return 100 * time.Millisecond << attempt
}

func jitterHelper(d time.Duration) time.Duration {
	return d/2 + time.Duration(rand.Int63n(int64(d/2)))
}

func viaHelpers() error {
	for i := 0; i < 4; i++ { // want `loop cap=4 deadline=none waits=deterministic-growth body`
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(backoffHelper(i))
	}
	for i := 0; i < 4; i++ { // want `loop cap=4 deadline=none waits=jittered body`
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(jitterHelper(backoffHelper(i)))
	}
	return nil
}

func unknownExit(stop func() bool) error {
	for { // want `loop cap=unknown deadline=unknown waits=constant body`
		if err := op(); err == nil {
			return nil
		}
		if stop() {
			return errors.New("stopped")
		}
		time.Sleep(time.Second)
	}
}

func classifiedStop() error {
	for { // want `loop cap=none deadline=none waits=constant body`
		err := op()
		if err == nil {
			return nil
		}
		if !retryable(err) {
			return err
		}
		time.Sleep(time.Second)
	}
}

func timerReset(ctx context.Context) error {
	t := time.NewTimer(0)
	defer t.Stop()
	for i := 0; i < 6; i++ { // want `loop cap=6 deadline=caller's-context waits=constant body`
		if err := opCtx(ctx); err == nil {
			return nil
		}
		t.Reset(250 * time.Millisecond)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
	return errors.New("gave up")
}

func callInPlace() {
	for i := 0; i < 3; i++ { // want `loop cap=3 deadline=none waits=constant body`
		if op() == nil {
			return
		}
		time.Sleep(time.Second)
	}
}

func opAttempt(n int) error { return nil }

// The attempt number passed to the attempt is still a retry.
func attemptArg() error {
	for i := 0; i < 3; i++ { // want `loop cap=3 deadline=none waits=constant body`
		if err := opAttempt(i); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return nil
}

// A wait helper with a default case in its select.
func trySleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	default:
		return nil
	}
}

func defaultCase(ctx context.Context) error {
	for i := 0; i < 3; i++ { // want `loop cap=3 deadline=caller's-context waits=constant body`
		if err := opCtx(ctx); err == nil {
			return nil
		}
		if err := trySleep(ctx, time.Second); err != nil {
			return err
		}
	}
	return nil
}

func newReq() (*http.Request, error)               { return nil, nil }
func do(req *http.Request) (*http.Response, error) { return nil, nil }

// One err for building the request and for sending it: the build error
// leaves at once, the send error is retried.
func sharedErr() (*http.Response, error) {
	for i := 0; i < 4; i++ { // want `loop cap=4 deadline=none waits=constant body`
		req, err := newReq()
		if err != nil {
			return nil, err
		}
		resp, err := do(req)
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("gave up")
}

// The same shape where the send error also leaves at once is no retry.
func sharedErrNoRetry() (*http.Response, error) {
	var resps []*http.Response
	for i := 0; i < 4; i++ {
		req, err := newReq()
		if err != nil {
			return nil, err
		}
		resp, err := do(req)
		if err != nil {
			return nil, err
		}
		resps = append(resps, resp)
		time.Sleep(time.Second)
	}
	return resps[0], nil
}

type stepper interface{ Next() (time.Duration, bool) }

// A backoff's own stop signal bounds the loop in a way the model cannot
// read: the bound is unknown, not missing.
func stopSignal(b stepper) error {
	for { // want `loop cap=unknown deadline=unknown waits=unknown body`
		err := op()
		if err == nil {
			return nil
		}
		next, stop := b.Next()
		if stop {
			return err
		}
		time.Sleep(next)
	}
}

func coordinatorLookup() error { return nil }
func sendBeat() error          { return nil }

// A heartbeat loop paced by a ticker that also waits on a backoff timer of
// its own after a failed lookup (sarama's consumer group heartbeat): the
// timer is a backoff between retry attempts.
func heartbeatLoop(dying <-chan struct{}, max int) {
	pause := time.NewTicker(time.Second)
	defer pause.Stop()
	backoff := time.NewTimer(250 * time.Millisecond)
	defer backoff.Stop()
	retries := max
	for { // want `loop cap=bounded deadline=.* waits=constant body`
		if err := coordinatorLookup(); err != nil {
			if retries <= 0 {
				return
			}
			backoff.Reset(250 * time.Millisecond)
			select {
			case <-dying:
				return
			case <-backoff.C:
				retries--
			}
			continue
		}
		if err := sendBeat(); err != nil {
			retries--
			continue
		}
		retries = max
		select {
		case <-pause.C:
		case <-dying:
			return
		}
	}
}
