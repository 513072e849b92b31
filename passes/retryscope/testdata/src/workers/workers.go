// Package workers holds loops that never leave on success: workers,
// pollers, subscription readers and queue drainers, whose every pass takes
// the next item of a source and drops it once handled (issue 47, item 3).
// A failure there is waited out, not retried: the model finds no scope.
// Beside them, the real retries that look like them: a loop that leaves on
// success, one whose success ends the loop through a flag, and reconnect
// loops, whose attempt opens a connection, a stream or a session that the
// pass serves, or carries what it returned into the next attempt.
package workers

import (
	"context"
	"errors"
	"log"
	"net"
	"time"
)

var (
	errEmpty   = errors.New("queue empty")
	errTimeout = errors.New("timeout")
)

type job struct{ id string }

type queue struct{}

func (q *queue) Dequeue(ctx context.Context) (job, error) { return job{}, nil }
func (q *queue) Ack(ctx context.Context, j job) error     { return nil }

type msg struct{ data []byte }

type subscription struct{}

func (s *subscription) NextMsg(timeout time.Duration) (*msg, error) { return &msg{}, nil }

func process(job)                                     {}
func processCtx(ctx context.Context, j job) error     { return nil }
func handle(*msg)                                     {}
func fetch(ctx context.Context) ([]job, error)        { return nil, nil }
func serve(c net.Conn)                                {}
func connect(ctx context.Context) error               { return nil }
func runSession(ctx context.Context)                  {}
func watchFrom(rev int64) ([]job, int64, error)       { return nil, 0, nil }
func openStream(ctx context.Context) (*stream, error) { return &stream{}, nil }

type stream struct{}

func (s *stream) Recv() (*msg, error) { return &msg{}, nil }

// The worker: it idles when the queue is empty and pauses after a
// failure, and never leaves: each pass takes the next job.
func worker(ctx context.Context, q *queue) {
	for {
		j, err := q.Dequeue(ctx)
		if errors.Is(err, errEmpty) {
			time.Sleep(time.Second)
			continue
		}
		if err != nil {
			log.Print(err)
			time.Sleep(time.Second)
			continue
		}
		process(j)
	}
}

// The same with a generic error only.
func workerGeneric(ctx context.Context, q *queue) {
	for {
		j, err := q.Dequeue(ctx)
		if err != nil {
			log.Print(err)
			time.Sleep(time.Second)
			continue
		}
		process(j)
	}
}

// Only the sentinel waits; any other failure goes on to the next job at
// once.
func workerSentinel(ctx context.Context, q *queue) {
	for {
		j, err := q.Dequeue(ctx)
		if errors.Is(err, errEmpty) {
			time.Sleep(time.Second)
			continue
		}
		if err != nil {
			log.Print(err)
			continue
		}
		process(j)
	}
}

// One branch for both, telling them apart only for the log.
func workerOneBranch(ctx context.Context, q *queue) {
	for {
		j, err := q.Dequeue(ctx)
		if err != nil {
			if !errors.Is(err, errEmpty) {
				log.Print(err)
			}
			time.Sleep(time.Second)
			continue
		}
		process(j)
	}
}

// A worker started in a goroutine, acking each job it processed.
func startWorker(q *queue) {
	ctx := context.Background()
	go func() {
		for {
			j, err := q.Dequeue(ctx)
			if err != nil {
				time.Sleep(500 * time.Millisecond)
				continue
			}
			process(j)
			if err := q.Ack(ctx, j); err != nil {
				log.Print(err)
			}
		}
	}()
}

// A worker that runs while its context lives.
func workerWhileAlive(ctx context.Context, q *queue) {
	for ctx.Err() == nil {
		j, err := q.Dequeue(ctx)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		process(j)
	}
}

// A worker that returns only when its context is cancelled.
func workerUntilCancel(ctx context.Context, q *queue) error {
	for {
		j, err := q.Dequeue(ctx)
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return err
			}
			time.Sleep(time.Second)
			continue
		}
		process(j)
	}
}

// A poller paced by a select on its context and a ticker.
func pollTicker(ctx context.Context) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		jobs, err := fetch(ctx)
		if err != nil {
			log.Print(err)
			continue
		}
		for _, j := range jobs {
			process(j)
		}
	}
}

// A poller paced by a select on its context and time.After.
func pollAfter(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(5 * time.Second):
		}
		jobs, err := fetch(ctx)
		if err != nil {
			log.Print(err)
			continue
		}
		for _, j := range jobs {
			process(j)
		}
	}
}

// A drainer that pauses after a failure and handles each batch it
// fetched, item by item.
func drain(ctx context.Context) {
	for {
		jobs, err := fetch(ctx)
		if err != nil {
			time.Sleep(2 * time.Second)
			continue
		}
		for _, j := range jobs {
			process(j)
		}
	}
}

// A subscription reader: a timeout means no message yet; any other failure
// pauses the reader.
func readSubscription(sub *subscription) {
	for {
		m, err := sub.NextMsg(time.Second)
		if err != nil {
			if errors.Is(err, errTimeout) {
				continue
			}
			log.Print(err)
			time.Sleep(time.Second)
			continue
		}
		handle(m)
	}
}

// A subscription reader that returns when its stop signal comes.
func readUntilDone(sub *subscription, done <-chan struct{}) {
	for {
		select {
		case <-done:
			return
		default:
		}
		m, err := sub.NextMsg(time.Second)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		handle(m)
	}
}

// ---- real retries that look like these

// A retry of the take: it leaves on success.
func takeOne(ctx context.Context, q *queue) job {
	for { // want "loop cap=none deadline=none waits=constant body"
		j, err := q.Dequeue(ctx)
		if err == nil {
			return j
		}
		time.Sleep(time.Second)
	}
}

// The same, leaving by a break.
func takeOneBreak(ctx context.Context, q *queue) job {
	var j job
	var err error
	for { // want "loop cap=none deadline=none waits=constant body"
		j, err = q.Dequeue(ctx)
		if err == nil {
			break
		}
		time.Sleep(time.Second)
	}
	return j
}

// A success ends the loop through a flag: the loop condition.
func takeFlag(ctx context.Context, q *queue) {
	done := false
	for !done { // want "loop cap=unknown deadline=unknown waits=constant body"
		j, err := q.Dequeue(ctx)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		process(j)
		done = true
	}
}

// A reconnect loop: the attempt opens a connection that the pass serves
// until it breaks, then dials again.
func reconnect(addr string) {
	for { // want "loop cap=none deadline=none waits=constant body"
		c, err := net.Dial("tcp", addr)
		if err != nil {
			log.Print(err)
			time.Sleep(time.Second)
			continue
		}
		serve(c)
	}
}

// A reconnect loop whose attempt returns only an error: it connects, and
// the pass runs the session.
func reconnectSession(ctx context.Context) {
	for { // want "loop cap=none deadline=none waits=constant body"
		err := connect(ctx)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		runSession(ctx)
	}
}

// A reconnect loop that reads the stream it opened in a loop of its own
// until the stream breaks, and waits before it opens the next one (etcd's
// lease keep-alive receiver).
func restream(ctx context.Context) error {
	for { // want "loop cap=none deadline=caller's-context waits=constant body"
		s, err := openStream(ctx)
		if err != nil {
			log.Print(err)
		} else {
			for {
				m, err := s.Recv()
				if err != nil {
					if errors.Is(err, context.Canceled) {
						return err
					}
					break
				}
				handle(m)
			}
		}
		select {
		case <-time.After(time.Second):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// A watch that resumes from the revision its last success returned: the
// next attempt starts from what this one carried, and a failure tries the
// same revision again.
func watch() {
	var rev int64
	for { // want "loop cap=none deadline=none waits=constant body"
		jobs, next, err := watchFrom(rev)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		rev = next
		for _, j := range jobs {
			process(j)
		}
	}
}

// A worker that stops when a job fails leaves after a successful take,
// as a watch ends when its callback says so (cloud metadata's
// subscription): it stays a retry of the take.
func watchJobs(ctx context.Context, q *queue) error {
	for { // want "loop cap=none deadline=none waits=constant body"
		j, err := q.Dequeue(ctx)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		if err := processCtx(ctx, j); err != nil {
			return err
		}
	}
}

// A worker that backs its take off by the count of consecutive failures,
// reset once a take succeeds (kafka-go's reader.run): it retries the take.
func workerBackoff(ctx context.Context, q *queue) {
	failures := 0
	for { // want "loop cap=none deadline=none waits=deterministic-growth body"
		j, err := q.Dequeue(ctx)
		if err != nil {
			failures++
			time.Sleep(time.Second << failures)
			continue
		}
		failures = 0
		process(j)
	}
}
