// Package policies holds, for each policy of the flow engine's policy
// package, a loop it rejects and a near one it keeps. The test judges the
// innermost loop (or the call-graph cycle) of each function that has an
// attempt.
package policies

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"time"
)

func op() error                       { return nil }
func opCtx(ctx context.Context) error { return nil }
func send(item string) error          { return nil }
func sendN(n int) error               { return nil }
func status() (string, error)         { return "", nil }
func poll() (bool, error)             { return false, nil }
func write(p []byte) (int, error)     { return 0, nil }
func process()                        {}

var errBusy = errors.New("busy")

func retry() error {
	for {
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
}

func onSuccess() error {
	for i := 0; i < 3; i++ {
		if err := op(); err != nil {
			return err
		}
	}
	return nil
}

func contextQuery(ctx context.Context, full func() bool) {
	for full() {
		if ctx.Err() != nil {
			time.Sleep(time.Millisecond)
			continue
		}
		return
	}
}

func contextOp(ctx context.Context, full func() bool) {
	for full() {
		if opCtx(ctx) != nil {
			time.Sleep(time.Millisecond)
			continue
		}
		return
	}
}

func poller() {
	for {
		if err := op(); err != nil {
			time.Sleep(time.Second)
			continue
		}
		process()
		time.Sleep(10 * time.Second)
	}
}

// a reconnect loop: the count of failures is reset once connected
func reconnect(ctx context.Context) {
	for attempt := 0; true; attempt++ {
		if attempt != 0 {
			time.Sleep(time.Duration(attempt) * time.Second)
		}
		if err := op(); err != nil {
			continue
		}
		attempt = 0
		process()
	}
}

func delivery() {
	for {
		if err := op(); err == nil {
			return
		}
		time.Sleep(time.Second)
	}
}

func ticker(t *time.Ticker) {
	for range t.C {
		if err := op(); err != nil {
			continue
		}
		return
	}
}

func eintr(p []byte) (int, error) {
	for {
		n, err := write(p)
		if err == syscall.EINTR {
			continue
		}
		return n, err
	}
}

func sentinel(p []byte) (int, error) {
	for {
		n, err := write(p)
		if err == errBusy {
			time.Sleep(time.Second)
			continue
		}
		return n, err
	}
}

func nextItem(items []string) {
	for _, it := range items {
		if err := send(it); err != nil {
			time.Sleep(time.Second)
			continue
		}
		return
	}
}

// each pass calls the next function of the list: a failure moves on
func nextFunc(fns []func() error) {
	for _, f := range fns {
		if err := f(); err != nil {
			time.Sleep(time.Second)
			continue
		}
		return
	}
}

func sendAll(items []string) error { return nil }

// each pass sends the next item, in a slice of its own: a failure moves on
func itemInSlice(items []string) {
	for _, it := range items {
		if err := sendAll([]string{it}); err != nil {
			time.Sleep(time.Second)
			continue
		}
		return
	}
}

// the same list each pass: a retry
func sameSlice(items []string) {
	for i := 0; i < 3; i++ {
		if err := sendAll([]string{items[0]}); err != nil {
			time.Sleep(time.Second)
			continue
		}
		return
	}
}

func attemptNumber() {
	for i := 0; i < 3; i++ {
		if err := sendN(i); err != nil {
			time.Sleep(time.Second)
			continue
		}
		return
	}
}

type response struct{ StatusCode int }

func get() (*response, error) { return nil, nil }

func predicateNoWait() {
	for {
		res, err := get()
		if err != nil {
			return
		}
		if res.StatusCode < 500 {
			return
		}
	}
}

func retryable(res *response) bool { return res.StatusCode >= 500 }
func transient(code int) bool      { return code >= 500 }

// a predicate given the response: the generated SDKs' retry (Datadog's
// CallAPI)
func predicateWaits() {
	for {
		res, err := get()
		if err != nil {
			return
		}
		if !retryable(res) {
			return
		}
		time.Sleep(time.Second)
	}
}

// gives up on every error and compares the status in place: a poll until
// the status is right, not a retry of the model's
func statusInPlace() {
	for i := 0; i < 3; i++ {
		res, err := get()
		if err != nil {
			return
		}
		if res.StatusCode == 409 {
			time.Sleep(time.Second)
			continue
		}
		return
	}
}

// the status read in place and given to a helper: as statusInPlace
func statusHelper() {
	for i := 0; i < 3; i++ {
		res, err := get()
		if err != nil {
			return
		}
		if transient(res.StatusCode) {
			time.Sleep(time.Second)
			continue
		}
		return
	}
}

// the status compared in the loop's condition
func statusInCondition() {
	var res *response
	var err error
	for i := 0; i < 3 && (res == nil || res.StatusCode >= 500); i++ {
		res, err = get()
		if err == nil && res.StatusCode == 404 {
			process()
		}
		if err != nil {
			return
		}
	}
}

// the status compared, then the response given to a predicate: the
// predicate decides, a retry
func statusThenPredicate() {
	for i := 0; i < 3; i++ {
		res, err := get()
		if err != nil {
			return
		}
		if res.StatusCode != 200 && retryable(res) {
			time.Sleep(time.Second)
			continue
		}
		return
	}
}

// its failures are retried too: a retry
func statusAndFailure() {
	for i := 0; i < 3; i++ {
		res, err := get()
		if err == nil && res.StatusCode == 409 {
			time.Sleep(time.Second)
			continue
		}
		if err == nil {
			return
		}
		time.Sleep(time.Second)
	}
}

// a state awaited, not a failed request
func pollState() {
	for {
		st, err := status()
		if err != nil {
			return
		}
		if st == "ready" {
			return
		}
		time.Sleep(time.Second)
	}
}

type failed struct{}

func execute() (any, error) { return nil, nil }

// a typed failure reply is a failed result
func failureReply() {
	for {
		r, err := execute()
		if err != nil {
			return
		}
		if _, ok := r.(*failed); !ok {
			return
		}
		time.Sleep(time.Second)
	}
}

// a registration polled for inside a retry
func pollInRetry() error {
	for attempts := 0; attempts < 3; attempts++ {
		if err := op(); err == nil {
			return nil
		}
		for {
			done, err := poll()
			if err != nil {
				return err
			}
			if done {
				break
			}
			time.Sleep(time.Second)
		}
	}
	return nil
}

func pollAlone() error {
	for {
		done, err := poll()
		if err != nil {
			return err
		}
		if done {
			return nil
		}
		time.Sleep(time.Second)
	}
}

func neitherWaitsNorCounts() {
	for {
		if err := op(); err == nil {
			return
		}
	}
}

func counts() {
	for i := 0; i < 3; i++ {
		if err := op(); err == nil {
			return
		}
	}
}

func rejoin(retries int) error {
	time.Sleep(time.Second)
	err := op()
	if err != nil && retries < 0 {
		return rejoin(retries - 1)
	}
	process()
	return nil
}

func refresh(retries int) error {
	err := op()
	if err == nil {
		return nil
	}
	if retries > 0 {
		time.Sleep(time.Second)
		return refresh(retries - 1)
	}
	return err
}

func nested() error {
	var err error
	for i := 0; i < 3; i++ {
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

type event struct{ obj any }

func accessor(any) (string, error) { return "", nil }
func record(string)                {}

// each pass handles the next event a select receives
func selectItem(ctx context.Context, events <-chan event) {
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-events:
			if !ok {
				return
			}
			name, err := accessor(ev.obj)
			if err != nil {
				time.Sleep(time.Second)
				continue
			}
			record(name)
		}
	}
}

type frames struct{}

func (frames) Read(p []byte) (int, error)         { return 0, nil }
func (frames) ReadFrame() ([]byte, error)         { return nil, nil }
func (frames) Reconnect(addr string) (int, error) { return 0, nil }

// each call reads the next frame: a failure is waited out
func readFrames(f frames) {
	for {
		if _, err := f.ReadFrame(); err != nil {
			time.Sleep(time.Second)
			continue
		}
		return
	}
}

func acceptLoop(l net.Listener) {
	for {
		c, err := l.Accept()
		if err != nil {
			time.Sleep(time.Millisecond)
			continue
		}
		go c.Close()
	}
}

type dialer struct{}

func (dialer) Dial() (net.Conn, error) { return nil, nil }

func dialLoop(d dialer) net.Conn {
	for {
		c, err := d.Dial()
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		return c
	}
}

// pause waits on a timer's channel: a helper that waits
func pause(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	<-t.C
}

func timerHelper() {
	for {
		if err := op(); err == nil {
			return
		}
		pause(time.Second)
	}
}

// a timer reset whose channel nobody receives from waits for nothing
func resetOnly(t *time.Timer) {
	for {
		if err := op(); err == nil {
			return
		}
		t.Reset(time.Second)
	}
}

type queue struct{}

func (q *queue) Dequeue(ctx context.Context) (string, error) { return "", nil }

type stream struct{}

func (s *stream) Recv() (string, error) { return "", nil }

func openStream() (*stream, error) { return nil, nil }

// each pass takes the next job: a worker
func worker(ctx context.Context, q *queue) {
	for {
		j, err := q.Dequeue(ctx)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		record(j)
	}
}

// the same take, until a flag its success sets
func untilFlag(ctx context.Context, q *queue) {
	done := false
	for !done {
		j, err := q.Dequeue(ctx)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		record(j)
		done = true
	}
}

// the attempt opens what the pass serves in a loop of its own
func streamLoop() {
	for {
		s, err := openStream()
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		for {
			if _, err := s.Recv(); err != nil {
				break
			}
		}
	}
}

// the outer loop retries what the inner retry ended with: the inner loop
// is a retry of its own, not a step of the outer's
func nestedRetry() error {
	var err error
	for n := 0; n < 3; n++ {
		for i := 0; i < 5; i++ {
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

// transport errors come round at once, a failed result waits: a retry
func resultWaits() {
	for {
		res, err := get()
		if err == nil && res.StatusCode == 404 {
			time.Sleep(time.Second)
			continue
		}
		if err == nil {
			return
		}
	}
}

// the result is tested, but nothing waits: neither waits nor counts
func resultHot() {
	for {
		res, err := get()
		if err == nil && res.StatusCode == 404 {
			process()
			continue
		}
		if err == nil {
			return
		}
	}
}

type request struct{ url string }

func newRequest(url string) *request { return &request{url} }
func do(r *request) error            { return nil }

// a request built from the ranged element: the next item
func requestPerItem(urls []string) {
	for _, u := range urls {
		if err := do(newRequest(u)); err != nil {
			time.Sleep(time.Second)
			continue
		}
		return
	}
}

// a request built from the same URL each pass: a retry
func requestAgain(url string) {
	for i := 0; i < 3; i++ {
		if err := do(newRequest(url)); err != nil {
			time.Sleep(time.Second)
			continue
		}
		return
	}
}

type reply struct{ Err error }

var errNotReady = errors.New("not ready")

func ask() (*reply, error) { return nil, nil }
func done(*reply) bool     { return false }

// the reply's error code, read with errors.Is, is a failed result: the
// request is retried (sarama's findCoordinator)
func replyError() (*reply, error) {
	for {
		r, err := ask()
		if err != nil {
			return nil, err
		}
		if !errors.Is(r.Err, errNotReady) {
			return r, nil
		}
		time.Sleep(time.Second)
	}
}

// the reply's error compared with nil: a failed result too
func replyErrorNil() *reply {
	for {
		r, err := ask()
		if err != nil {
			return nil
		}
		if r.Err == nil {
			return r
		}
		time.Sleep(time.Second)
	}
}

// the look-alike: a predicate on the reply is a state waited for
func statePredicate() {
	for {
		r, err := ask()
		if err != nil {
			return
		}
		if done(r) {
			return
		}
		time.Sleep(time.Second)
	}
}

// a connection is a reader, but a method given what it asks for sends a
// request and reads its reply (kafka-go's Conn.ReadPartitions)
type conn struct{}

func (conn) Read(p []byte) (int, error)                     { return 0, nil }
func (conn) ReadPartitions(topics ...string) ([]int, error) { return nil, nil }
func (conn) ReadString(delim byte) (string, error)          { return "", nil }
func (conn) SetDeadline(t time.Time) error                  { return nil }

func readPartitions(c conn) []int {
	for attempt := 0; ; attempt++ {
		if attempt != 0 {
			time.Sleep(time.Duration(attempt) * time.Second)
		}
		ps, err := c.ReadPartitions("topic")
		if err != nil {
			continue
		}
		return ps
	}
}

// the look-alike: a read up to a delimiter takes the next line
func readLines(c conn) string {
	for {
		line, err := c.ReadString('\n')
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		return line
	}
}

// the look-alike: a deadline set on the connection is no request
func setDeadline(c conn) {
	for {
		if err := c.SetDeadline(time.Now()); err != nil {
			time.Sleep(time.Second)
			continue
		}
		return
	}
}

// a condition polled until done, giving up on every error (a
// wait.ConditionFunc's contract): the bool is the state, not a failure
func pollDone(check func() (bool, error)) {
	for {
		done, err := check()
		if err != nil {
			return
		}
		if done {
			return
		}
		time.Sleep(time.Second)
	}
}

// a helper that calls its operation again while it asks to (nats.go's
// retryWithBackoff): the bool asks for another attempt, the error rides
// along; a retry
func againWhileAsked(f func() (bool, error)) error {
	for {
		again, err := f()
		if !again {
			return err
		}
		time.Sleep(time.Second)
	}
}

func sync() error { return nil }
func logf(error)  {}

// a periodic task: a failed sync is logged and the next one comes after
// the same interval (etcd's autoSync)
func autoSync(done <-chan struct{}) {
	for {
		select {
		case <-done:
			return
		case <-time.After(time.Minute):
		}
		if err := sync(); err != nil {
			logf(err)
		}
	}
}

// a failure that waits on its own way before the pass goes on: a retry,
// though a success comes round too (a watch)
func watchBackoff(done <-chan struct{}) {
	for {
		select {
		case <-done:
			return
		default:
		}
		if err := sync(); err != nil {
			time.Sleep(time.Second)
		}
	}
}

type dispatcher struct {
	trigger chan struct{}
	done    chan struct{}
}

func (d *dispatcher) redispatch() {
	select {
	case d.trigger <- struct{}{}:
	default:
	}
}

// a failed dispatch signals the loop itself, whose next round waits
// (sarama's partition consumer): a retry, though the failure rejoins
func (d *dispatcher) dispatchLoop() {
	for {
		select {
		case <-d.done:
			return
		case <-d.trigger:
			time.Sleep(time.Second)
		}
		if err := sync(); err != nil {
			logf(err)
			d.redispatch()
		}
	}
}

// a failure logged on its way to a status test that may leave: a retry of
// the status and the failure (cloudflare-go's makeRequestWithAuthType)
func logThenStatus() {
	for i := 0; i < 3; i++ {
		res, err := get()
		if err != nil {
			logf(err)
		}
		if err == nil && res.StatusCode < 500 {
			return
		}
		time.Sleep(time.Second)
	}
}

var readFull = func(r io.Reader, buf []byte) (int, error) { return io.ReadFull(r, buf) }

func upload(part []byte) error { return nil }

// a part loop: each pass reads the next part of the input and uploads it,
// a short read ending the loop (minio-go's putObjectMultipartNoStream)
func partLoop(r io.Reader) error {
	buf := make([]byte, 16)
	for part := 1; part <= 100; part++ {
		n, err := readFull(r, buf)
		if err == io.EOF && part > 1 {
			break
		}
		if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
			time.Sleep(time.Second)
			continue
		}
		if err := upload(buf[:n]); err != nil {
			return err
		}
	}
	return nil
}

func receive() (string, error) { return "", nil }
func handle(string)            {}

// a subscription reader whose failure count only says whether one came
// before (go-redis's PubSub channel): it takes the next message
func subscriber() {
	var errCount int
	for {
		msg, err := receive()
		if err != nil {
			if errCount > 0 {
				time.Sleep(100 * time.Millisecond)
			}
			errCount++
			continue
		}
		errCount = 0
		handle(msg)
	}
}

// a counted pass over new inputs whose failure is only counted and
// logged: no retry (idemlint's own test of its fuzzer's grammar)
func countedFailures(n int) int {
	bad := 0
	for range n {
		if err := sync(); err != nil {
			bad++
			if bad <= 3 {
				logf(err)
			}
		}
	}
	return bad
}

// a counted loop whose failure is logged on its way to a status test that
// may leave: a retry (logThenStatus over a range of an integer)
func countedStatus() {
	for range 3 {
		res, err := get()
		if err != nil {
			logf(err)
		}
		if err == nil && res.StatusCode < 500 {
			return
		}
		time.Sleep(time.Second)
	}
}

func fatalf(string, ...any) { panic("fatal") }

// a counted pass of random operations checked against a model: an
// operation's failure the model also expects goes on to the next step,
// an unexpected result aborts; no retry (idemlint's own model test)
func modelSteps(ops []int) {
	for step := range 1000 {
		err := sync()
		if (ops[step%len(ops)] > 0) != (err == nil) || (err != nil && !errors.Is(err, errClosed)) {
			fatalf("step %d: %v", step, err)
		}
	}
}

var errClosed = errors.New("closed")

func readHolder(string) (string, error) { return "", nil }
func tryAcquire(string) (bool, error)   { return false, nil }

// a poll for a free lock: it returns when a read fails or finds the lock
// its own, waits for the holder to go, and comes round on a refused
// acquire; every failure leaves (consul's Lock)
func lockPoll(stop <-chan struct{}, key, self string, wait time.Duration) (bool, error) {
	start := time.Now()
WAIT:
	select {
	case <-stop:
		return false, nil
	default:
	}
	if time.Since(start) > wait {
		return false, nil
	}
	holder, err := readHolder(key)
	if err != nil {
		return false, err
	}
	if holder == self {
		return true, nil
	}
	if holder != "" {
		goto WAIT
	}
	locked, err := tryAcquire(key)
	if err != nil {
		return false, err
	}
	if !locked {
		select {
		case <-time.After(time.Second):
			goto WAIT
		case <-stop:
			return false, nil
		}
	}
	return true, nil
}

// the same acquire counted: a retry helper's tries
func lockTries(key string) (bool, error) {
	for i := 0; i < 3; i++ {
		locked, err := tryAcquire(key)
		if err != nil {
			return false, err
		}
		if locked {
			return true, nil
		}
		time.Sleep(time.Second)
	}
	return false, nil
}

type cmdQueue struct{ cmds []string }

func (q *cmdQueue) takeInto(buf []string, n int) []string { return append(buf, q.cmds[:n]...) }
func (q *cmdQueue) more() bool                            { return len(q.cmds) > 0 }
func sizeBatch(batch []string) (int, error)               { return len(batch), nil }

type writer struct {
	q    *cmdQueue
	body *cmdQueue
}

// a queue worker: each pass takes the next batch from the queue the
// receiver holds, grows it while more arrive, and drops a batch it
// cannot size (go-redis's full-duplex writer): no retry
func (w *writer) serve(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case <-time.After(time.Millisecond):
		}
		batch := w.q.takeInto(nil, 8)
		for len(batch) < 8 && w.q.more() {
			batch = w.q.takeInto(batch, 1)
		}
		if _, err := sizeBatch(batch); err != nil {
			logf(err)
			time.Sleep(time.Millisecond)
			continue
		}
		_ = sync()
	}
}

func (q *cmdQueue) encode() []byte { return nil }
func sendBody([]byte) error        { return nil }

// a request whose body a field's value encodes again each pass: a retry
func (w *writer) resend() error {
	for i := 0; i < 3; i++ {
		if err := sendBody(w.body.encode()); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

type watchEvent struct {
	Kind   int
	Object fmt.Stringer
}

type eventStore interface {
	Add(obj any) error
	Bookmark(version string) error
}

type objectMeta interface{ Version() string }

func metaOf(any) (objectMeta, error) { return nil, nil }
func logEvent(*watchEvent)           {}

// a watch's event reader: each pass receives the next event; a bad one is
// skipped, a store error only logged (client-go's handleAnyWatch): no
// retry
func watchEvents(ctx context.Context, events <-chan watchEvent, s eventStore) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case ev, ok := <-events:
			if !ok {
				return nil
			}
			m, err := metaOf(ev.Object)
			if err != nil {
				logEvent(&ev)
				continue
			}
			if ev.Kind == 0 {
				if err := s.Bookmark(m.Version()); err != nil {
					logf(err)
				}
				continue
			}
			if err := s.Add(ev.Object); err != nil {
				logf(err)
			}
		}
	}
}

func post(body string) (bool, error) { return true, nil }

// a recursion that counts its attempts in a parameter and makes the next
// one at once (rollbar-go's doSend): a retry, counted
func countedRecursion(body string, left int) error {
	canRetry, err := post(body)
	if err != nil {
		if !canRetry || left <= 0 {
			return err
		}
		return countedRecursion(body, left-1)
	}
	return nil
}

// the same call of itself given the same count: no count, a walk
func uncountedRecursion(body string, left int) error {
	canRetry, err := post(body)
	if err != nil {
		if !canRetry || left <= 0 {
			return err
		}
		return uncountedRecursion(body+"/", left)
	}
	return nil
}
