// Package shapes holds the retry shapes of real code that the model learned
// from the recall corpus (testdata/recall), each beside a look-alike.
package shapes

import (
	"errors"
	"io"
	"time"
)

var errBusy = errors.New("busy")

func connect() error { return nil }
func send() error    { return nil }

// asynq's subscriber: the failure branch ends in a select whose every case
// leaves the pass (continue after the wait, return when stopped).
func reconnect(done <-chan struct{}, d time.Duration) {
	for { // want "loop cap=none deadline=caller.s-context waits=constant body"
		err := connect()
		if err != nil {
			select {
			case <-time.After(d):
				continue
			case <-done:
				return
			}
		}
		break
	}
}

// Look-alike: one case falls out of the select to the break, so the loop
// leaves on a failure: it makes one attempt.
func reconnectOnce(done <-chan struct{}, d time.Duration) {
	for {
		err := connect()
		if err != nil {
			select {
			case <-time.After(d):
			case <-done:
				return
			}
		}
		break
	}
}

// A switch whose every clause leaves, the default included.
func classify(d time.Duration) error {
	for { // want "loop cap=none deadline=none waits=constant body"
		err := connect()
		if err != nil {
			switch {
			case errors.Is(err, errBusy):
				time.Sleep(d)
				continue
			default:
				return err
			}
		}
		return nil
	}
}

// nats' publish: the loop condition repeats while the error is a given one
// (errors.Is holds only for a non-nil error), the attempt at the end.
func publish(d time.Duration) error {
	err := send()
	for r := 0; errors.Is(err, errBusy) && r < 3; r++ { // want "loop cap=3 deadline=none waits=constant body"
		time.Sleep(d)
		err = send()
	}
	return err
}

// nats' publishMsg: the count caps the loop unless the caller asks for
// "forever" with a negative n, a disjunct the loop never changes
func publishN(d time.Duration, n int) error {
	err := send()
	for r := 0; errors.Is(err, errBusy) && (r < n || n < 0); r++ { // want "loop cap=bounded deadline=none waits=constant body"
		time.Sleep(d)
		err = send()
	}
	return err
}

// the same with a flag the loop sets: no cap
func publishUntil(d time.Duration, n int) error {
	err := send()
	more := true
	for r := 0; errors.Is(err, errBusy) && (r < n || more); r++ { // want "loop cap=none deadline=none waits=constant body"
		time.Sleep(d)
		err = send()
		more = err != nil
	}
	return err
}

type reader interface{ Read([]byte) (int, error) }

// Look-alike: reading until io.EOF; !errors.Is holds for a nil error too.
func drain(r reader, buf []byte) {
	var err error
	for !errors.Is(err, io.EOF) {
		_, err = r.Read(buf)
	}
}

// kafka-go's writer: the delay comes from a helper whose arguments are the
// attempt and two methods returning a field or a default.
type writer struct {
	WriteBackoffMin, WriteBackoffMax time.Duration
}

func (w *writer) backoffMin() time.Duration {
	if w.WriteBackoffMin > 0 {
		return w.WriteBackoffMin
	}
	return 100 * time.Millisecond
}

func (w *writer) backoffMax() time.Duration {
	if w.WriteBackoffMax > 0 {
		return w.WriteBackoffMax
	}
	return time.Second
}

func backoff(attempt int, min, max time.Duration) time.Duration {
	d := time.Duration(attempt*attempt) * min
	if d > max {
		d = max
	}
	return d
}

func (w *writer) write() error {
	var err error
	for attempt := 0; attempt < 10; attempt++ { // want "loop cap=10 deadline=none waits=deterministic-growth body"
		if attempt != 0 {
			delay := backoff(attempt, w.backoffMin(), w.backoffMax())
			time.Sleep(delay)
		}
		if err = send(); err == nil {
			return nil
		}
	}
	return err
}

// sarama's transaction manager: the attempt says in a bool result whether
// to go on, and the delay helper returns a field unless an optional hook,
// which the package never sets, is set.
type retryConf struct {
	Max         int
	Backoff     time.Duration
	BackoffFunc func(retries, max int) time.Duration
}

type txn struct{ conf retryConf }

func (t *txn) computeBackoff(remaining int) time.Duration {
	if t.conf.BackoffFunc != nil {
		return t.conf.BackoffFunc(t.conf.Max-remaining, t.conf.Max)
	}
	return t.conf.Backoff
}

func (t *txn) publish() error {
	remaining := t.conf.Max
	exec := func(run func() (bool, error), err error) error {
		for remaining >= 0 { // want "loop cap=bounded deadline=none waits=constant body"
			var retry bool
			retry, err = run()
			if !retry {
				return err
			}
			time.Sleep(t.computeBackoff(remaining))
			remaining--
		}
		return err
	}
	return exec(func() (bool, error) {
		err := send()
		return err != nil, err
	}, nil)
}

// Look-alike: a hook the package sets is what the delay is by default.
type hooked struct {
	Backoff     time.Duration
	BackoffFunc func(n int) time.Duration
}

func newHooked(f func(int) time.Duration) *hooked {
	return &hooked{Backoff: time.Second, BackoffFunc: f}
}

func (h *hooked) delay(n int) time.Duration {
	if h.BackoffFunc != nil {
		return h.BackoffFunc(n)
	}
	return h.Backoff
}

func (h *hooked) run() error {
	var err error
	for n := 0; n < 5; n++ { // want "loop cap=5 deadline=none waits=unknown body"
		if err = send(); err == nil {
			return nil
		}
		time.Sleep(h.delay(n))
	}
	return err
}

// Look-alike: a poller, not a retry: it gives up on every error and
// leaves when the condition is done.
func poll(check func() (bool, error), d time.Duration) error {
	for {
		done, err := check()
		if err != nil {
			return err
		}
		if done {
			return nil
		}
		time.Sleep(d)
	}
}

// The delay from a closure of the function (sarama's AddPartitionsToTxn).
func (t *txn) addPartitions() error {
	backoffDefault := t.conf.Backoff
	computeBackoff := func(remaining int) time.Duration {
		if t.conf.BackoffFunc != nil {
			return t.conf.BackoffFunc(t.conf.Max-remaining, t.conf.Max)
		}
		return backoffDefault
	}
	var err error
	for remaining := t.conf.Max; remaining >= 0; remaining-- { // want "loop cap=bounded deadline=none waits=constant body"
		if err = send(); err == nil {
			return nil
		}
		time.Sleep(computeBackoff(remaining))
	}
	return err
}

type watcher struct{ stop chan struct{} }

func (p *watcher) watch() (int, error) { return 0, nil }
func (p *watcher) stopped() bool       { return false }

// consul's watch plan: the loop repeats on success by design; its failure
// branch backs off and continues the labelled loop: that is the retry.
func (p *watcher) run(handle func(int)) {
	failures := 0
OUTER:
	for !p.stopped() { // want "loop cap=unknown deadline=unknown waits=deterministic-growth body"
		v, err := p.watch()
		if err != nil {
			failures++
			retry := time.Second * time.Duration(failures*failures)
			select {
			case <-time.After(retry):
				continue OUTER
			case <-p.stop:
				return
			}
		}
		failures = 0
		handle(v)
	}
}

// cloud metadata's subscription: the failure branch sleeps and continues
// under a further test of the error.
func (p *watcher) subscribe(fn func(int) error) error {
	for { // want "loop cap=none deadline=none waits=constant body"
		v, err := p.watch()
		if err != nil {
			if errors.Is(err, errBusy) {
				return err
			}
			time.Sleep(5 * time.Second)
			continue
		}
		if err := fn(v); err != nil {
			return err
		}
	}
}

// Look-alike: a consumer that pauses after a failed message goes on to the
// next message: the failure is skipped, not retried.
func consume(msgs <-chan int, handle func(int) error) {
	for {
		m := <-msgs
		if err := handle(m); err != nil {
			time.Sleep(time.Second)
			continue
		}
	}
}

// Look-alike: a loop that repeats on success and skips failures with no
// wait: nothing is retried after a backoff.
func (p *watcher) spin(handle func(int)) {
	for !p.stopped() {
		v, err := p.watch()
		if err != nil {
			continue
		}
		handle(v)
	}
}

func (p *watcher) get(etag string) (int, string, error) { return 0, etag, nil }

// cloud metadata's watch: the etag the attempt sends changes only after a
// success, so a failure retries the same request.
func (p *watcher) follow(fn func(int) error) error {
	last := ""
	for { // want "loop cap=none deadline=none waits=constant body"
		v, etag, err := p.get(last)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		last = etag
		if err := fn(v); err != nil {
			return err
		}
	}
}

// Look-alike: the input moves on before the failure branch (the next
// page), so a failure is skipped, not retried.
func (p *watcher) pages(fn func(int) error) {
	page := ""
	for !p.stopped() {
		page = page + "x"
		v, _, err := p.get(page)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		_ = fn(v)
	}
}

// sleepOrStop waits d unless done closes first.
func sleepOrStop(done <-chan struct{}, d time.Duration) bool {
	select {
	case <-done:
		return false
	case <-time.After(d):
		return true
	}
}

// kafka-go's and sarama's retry waits: the count guard only chooses
// whether to wait; the exit under it is the stop signal, which the helper
// returns false on (stopWaitArg), not a cap: no cap, and the signal comes
// with the call, so the deadline is the caller's.
func waitAfterFirst(done <-chan struct{}) error {
	for n := 0; ; n++ { // want "loop cap=none deadline=caller's-context waits=constant body"
		if n > 0 {
			if !sleepOrStop(done, time.Second) {
				return errBusy
			}
		}
		if err := send(); err == nil {
			return nil
		}
	}
}

// A count guard after the attempt, the counter counted by the post
// statement from 0: n is 0, 1, 2 at the three attempts.
func capped() error {
	var err error
	for n := 0; ; n++ { // want "loop cap=3 deadline=none waits=constant body"
		if err = send(); err == nil {
			return nil
		}
		if n >= 2 {
			return err
		}
		time.Sleep(time.Second)
	}
}

// The same guard before the attempt leaves at n == 2, after two attempts.
func cappedFirst() error {
	var err error
	for n := 0; ; n++ { // want "loop cap=2 deadline=none waits=constant body"
		if n >= 2 {
			return err
		}
		if err = send(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
}

// Counted from 1: n is 1, 2, 3 at the three attempts.
func cappedFromOne() error {
	var err error
	for n := 1; ; n++ { // want "loop cap=3 deadline=none waits=constant body"
		if err = send(); err == nil {
			return nil
		}
		if n >= 3 {
			return err
		}
		time.Sleep(time.Second)
	}
}

type tempErr interface{ Temporary() bool }

func sendReq() (int, error) { return 0, nil }
func rewind() error         { return nil }

// Tencent Cloud's network-failure retry: a temporary failure sleeps and
// continues; every other outcome reaches the return at the end of the
// body. A count-gated rewind whose own failure leaves is no cap.
func temporaryOnly(maxRetries int) (int, error) {
	var v int
	var err error
	for idx := 0; idx <= maxRetries; idx++ { // want "loop cap=bounded deadline=unknown waits=constant body"
		if idx > 0 {
			err = rewind()
			if err != nil {
				return 0, err
			}
		}
		v, err = sendReq()
		if err != nil && idx < maxRetries {
			if t, ok := err.(tempErr); ok && t.Temporary() {
				time.Sleep(time.Second)
				continue
			}
		}
		return v, err
	}
	return v, err
}

// Look-alike: the same body without the failure branch's continue leaves
// on its first pass.
func noContinue(maxRetries int) (int, error) {
	var v int
	var err error
	for idx := 0; idx <= maxRetries; idx++ {
		v, err = sendReq()
		if err != nil {
			time.Sleep(time.Second)
		}
		return v, err
	}
	return v, err
}

func renew() (int, error)       { return 0, nil }
func ttlOf(v int) time.Duration { return time.Duration(v) * time.Second }

var errExpired = errors.New("session expired")

// Consul's session renewal: the wait is ttl/2 on success, and the failure
// branch sets it to a constant second before the next pass.
func renewPeriodic(ttl time.Duration, done <-chan struct{}) error {
	wait := ttl / 2
	last := time.Now()
	for { // want "loop cap=none deadline=in-scope waits=constant body"
		if time.Since(last) > ttl {
			return errExpired
		}
		select {
		case <-time.After(wait):
			v, err := renew()
			if err != nil {
				wait = time.Second
				continue
			}
			if v == 0 {
				return errExpired
			}
			wait = ttlOf(v) / 2
			last = time.Now()
		case <-done:
			return nil
		}
	}
}

var errOutOfRange = errors.New("out of range")

type partReader struct{ strict bool }

// An exit under a test for one kind of failure gives up on that failure
// only: it bounds nothing the loop retries (kafka-go's reader.run, whose
// OffsetOutOfRange exit depends on a flag).
func (r *partReader) run() {
	for { // want "loop cap=none deadline=none waits=constant body"
		if err := connect(); err != nil {
			if errors.Is(err, errOutOfRange) {
				if r.strict {
					return
				}
			}
			time.Sleep(time.Second)
			continue
		}
		return
	}
}

func renewTTL() (string, error) { return "", nil }

// The same with the success's wait parsed from the server's answer (an
// unknown duration, consul's time.ParseDuration(entry.TTL)): the retry
// still waits the constant the failure branch sets.
func renewParsed(done <-chan struct{}) {
	wait := time.Minute
	for { // want "loop cap=none deadline=caller's-context waits=constant body"
		select {
		case <-done:
			return
		case <-time.After(wait):
		}
		ttl, err := renewTTL()
		if err != nil {
			wait = time.Second
			continue
		}
		if ttl == "" {
			return // expired
		}
		wait, _ = time.ParseDuration(ttl)
	}
}
