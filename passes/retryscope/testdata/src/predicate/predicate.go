// Package predicate holds retries decided by a predicate on the attempt's
// results rather than by err == nil: the loop generated API SDKs emit.
package predicate

import (
	"context"
	"errors"
	"io"
	"math"
	"math/rand"
	"net/http"
	"time"
)

type config struct {
	Request     *http.Request
	HTTPClient  *http.Client
	MaxRetries  int
	Middlewares []func(*http.Request, func(*http.Request) (*http.Response, error)) (*http.Response, error)
}

func shouldRetry(req *http.Request, res *http.Response) bool {
	if res == nil {
		return true
	}
	return res.StatusCode == http.StatusTooManyRequests || res.StatusCode >= 500
}

func retryDelay(res *http.Response, n int) time.Duration {
	d := time.Duration(0.5 * float64(time.Second) * math.Pow(2, float64(n)))
	return d - time.Duration(rand.Int63n(int64(d/4)))
}

func fixedDelay(res *http.Response, n int) time.Duration { return time.Second }

// execute is the loop of a generated SDK: the attempt goes through a func
// value (the client's Do wrapped in middlewares), the exit tests the
// response with a predicate, the wait is computed by a helper.
func (cfg *config) execute() (*http.Response, error) {
	handler := cfg.HTTPClient.Do
	var res *http.Response
	var err error
	for retryCount := 0; retryCount <= cfg.MaxRetries; retryCount++ { // want `loop cap=bounded deadline=caller.s-context waits=jittered body`
		ctx := cfg.Request.Context()
		req := cfg.Request.Clone(ctx)
		res, err = handler(req)
		if ctx != nil && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if !shouldRetry(cfg.Request, res) || retryCount >= cfg.MaxRetries {
			break
		}
		if res != nil && res.Body != nil {
			res.Body.Close()
		}
		time.Sleep(retryDelay(res, retryCount))
	}
	return res, err
}

func (cfg *config) executeFixed() (*http.Response, error) {
	var res *http.Response
	var err error
	for n := 0; ; n++ { // want `loop cap=none deadline=none waits=constant body`
		res, err = cfg.HTTPClient.Do(cfg.Request)
		if !shouldRetry(cfg.Request, res) {
			break
		}
		time.Sleep(fixedDelay(res, n))
	}
	return res, err
}

func retryable(err error) bool { return err != nil && !errors.Is(err, context.Canceled) }

func op() error { return nil }

// untilNotRetryable leaves when the error predicate says stop: that covers
// success too (retryable(nil) is false).
func untilNotRetryable() error {
	for { // want `loop cap=none deadline=none waits=constant body`
		err := op()
		if !retryable(err) {
			return err
		}
		time.Sleep(time.Second)
	}
}

// statusOnly leaves on any status but 503.
func statusOnly(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 4; i++ { // want `loop cap=4 deadline=none waits=constant body`
		res, err := c.Do(req)
		if res != nil && res.StatusCode != http.StatusServiceUnavailable {
			return res, err
		}
		time.Sleep(2 * time.Second)
	}
	return nil, errors.New("unavailable")
}

// perPassContext derives each pass's context from itself (ctx, cancel =
// context.WithTimeout(ctx, d)): a variable declared in the body is new on
// every pass, so the attempt still sends the same request.
func (cfg *config) perPassContext() (*http.Response, error) {
	handler := cfg.HTTPClient.Do
	var res *http.Response
	var err error
	for n := 0; n <= cfg.MaxRetries; n++ { // want `loop cap=bounded deadline=none waits=jittered body`
		ctx := cfg.Request.Context()
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 10*time.Second)
		res, err = handler(cfg.Request.Clone(ctx))
		cancel()
		if !shouldRetry(cfg.Request, res) || n >= cfg.MaxRetries {
			break
		}
		time.Sleep(retryDelay(res, n))
	}
	return res, err
}

// verdictLocal keeps the predicate's answer in a local before the exit.
func (cfg *config) verdictLocal() (*http.Response, error) {
	var res *http.Response
	var err error
	for n := 0; ; n++ { // want `loop cap=unknown deadline=unknown waits=jittered body`
		last := n >= cfg.MaxRetries
		res, err = cfg.HTTPClient.Do(cfg.Request)
		again := shouldRetry(cfg.Request, res)
		if last || !again {
			break
		}
		time.Sleep(retryDelay(res, n))
	}
	return res, err
}

func backoffFor(res *http.Response, n int) (time.Duration, bool) {
	return time.Second << n, res.StatusCode >= 500
}

// statusRetry leaves on every transport error and retries by status
// alone, through a predicate that also computes the wait.
func statusRetry(c *http.Client, req *http.Request) (*http.Response, error) {
	for n := 0; n < 4; n++ { // want `loop cap=4 deadline=unknown waits=deterministic-growth body`
		res, err := c.Do(req)
		if err != nil {
			return res, err
		}
		d, again := backoffFor(res, n)
		if !again {
			return res, nil
		}
		time.Sleep(d)
	}
	return nil, errors.New("unavailable")
}

type permanent struct{ error }

// asPermanent leaves on one kind of error (errors.As) before it tests for
// success: that exit is not taken on every failure, the rest are retried.
func asPermanent() error {
	for i := 0; i < 5; i++ { // want `loop cap=5 deadline=none waits=constant body`
		err := op()
		var p *permanent
		if errors.As(err, &p) {
			return err
		}
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// ---- look-alikes

// pollReady leaves on every error and repeats until the status is 200,
// tested in place: a poll for a result, not a retry.
func pollReady(c *http.Client, req *http.Request) (*http.Response, error) {
	for {
		res, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if res.StatusCode == http.StatusOK {
			return res, nil
		}
		time.Sleep(5 * time.Second)
	}
}

type job struct{ Done bool }

func status(ctx context.Context) (*job, error) { return nil, nil }
func finished(j *job) bool                     { return j != nil && j.Done }

// pollState waits for a job's state: the exit tests a field of a result
// that is neither an error nor a response. A poller, not a retry.
func pollState(ctx context.Context) {
	for {
		j, _ := status(ctx)
		if finished(j) {
			return
		}
		time.Sleep(5 * time.Second)
	}
}

// leaveOnFailure stops on every failure of the predicate's error: a
// permanent error or an exhausted retry is not the shape.
func leaveOnFailure() error {
	for {
		err := op()
		if err != nil && !retryable(err) {
			return err
		}
		time.Sleep(time.Second)
	}
}

// readAll stops on io.EOF: errors.Is(err, io.EOF) holds only for an error.
func readAll(r io.Reader) {
	buf := make([]byte, 10)
	for {
		_, err := r.Read(buf)
		if errors.Is(err, io.EOF) {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// noWait retries on a predicate with no wait at all and no cap: the model
// keeps its rule that such a loop consumes input.
func noWait(c *http.Client, req *http.Request) *http.Response {
	for {
		res, _ := c.Do(req)
		if !shouldRetry(req, res) {
			return res
		}
	}
}

func value() (int, error) { return 0, nil }

// onlyRetryable retries retryable errors and returns everything else,
// success included: the exit is taken whenever err == nil.
func onlyRetryable() (int, error) {
	for { // want `loop cap=none deadline=none waits=constant body`
		v, err := value()
		if err != nil && retryable(err) {
			time.Sleep(time.Second)
			continue
		}
		return v, err
	}
}

// drain is the look-alike: it leaves only on a failure, and repeats on
// success.
func drain() error {
	for {
		_, err := value()
		if err != nil && !retryable(err) {
			return err
		}
		time.Sleep(time.Second)
	}
}

func needsRegistration(res *http.Response) bool { return res.StatusCode == http.StatusConflict }

// registerThenRetry is azcore's resource provider registration: the
// request is retried once a registration completes, which a nested loop
// polls for at a constant interval. That interval paces the poll, not the
// retry: the retry's waits are unknown.
func registerThenRetry(c *http.Client, req *http.Request, poll func() (bool, error)) (*http.Response, error) {
	for attempts := 0; attempts < 3; attempts++ { // want `loop cap=3 deadline=none waits=unknown body`
		res, err := c.Do(req)
		if err != nil || !needsRegistration(res) {
			return res, err
		}
		for {
			done, err := poll()
			if err != nil {
				return nil, err
			}
			if done {
				break
			}
			time.Sleep(15 * time.Second)
		}
	}
	return nil, errors.New("exceeded attempts")
}
