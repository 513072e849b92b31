// Package workers holds workers, pollers and subscription readers, loops
// that never leave on success and take the next item on every pass (issue
// 47): their pauses after a failure are no retries, and unboundedretry reports
// none of them. Beside them, the real retries that look like them stay
// reported.
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

type msg struct{ data []byte }

type subscription struct{}

func (s *subscription) NextMsg(timeout time.Duration) (*msg, error) { return &msg{}, nil }

func process(job)                                 {}
func processCtx(ctx context.Context, j job) error { return nil }
func handle(*msg)                                 {}
func fetch(ctx context.Context) ([]job, error)    { return nil, nil }
func serve(c net.Conn)                            {}

// The worker: it idles when the queue is empty, pauses after a
// failure, and never leaves.
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

// Only the sentinel waits.
func workerSentinel(ctx context.Context, q *queue) {
	for {
		j, err := q.Dequeue(ctx)
		if errors.Is(err, errEmpty) {
			time.Sleep(time.Second)
			continue
		}
		if err != nil {
			continue
		}
		process(j)
	}
}

// A worker in a goroutine.
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
			continue
		}
		for _, j := range jobs {
			process(j)
		}
	}
}

// A drainer that pauses after a failure.
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

// A subscription reader.
func readSubscription(sub *subscription) {
	for {
		m, err := sub.NextMsg(time.Second)
		if err != nil {
			if errors.Is(err, errTimeout) {
				continue
			}
			time.Sleep(time.Second)
			continue
		}
		handle(m)
	}
}

// ---- real retries that look like these

// A retry of the take: it leaves on success.
func takeOne(ctx context.Context, q *queue) job {
	for { // want `retry loop has no attempt cap and no deadline`
		j, err := q.Dequeue(ctx)
		if err == nil {
			return j
		}
		time.Sleep(time.Second)
	}
}

// A reconnect loop: the attempt opens a connection that the pass serves
// until it breaks, then dials again.
func reconnect(addr string) {
	for { // want `retry loop has no attempt cap and no deadline`
		c, err := net.Dial("tcp", addr)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		serve(c)
	}
}

// A worker that stops when a job fails leaves after a successful take,
// as a watch ends when its callback says so (cloud metadata's
// subscription): it stays a retry of the take.
func watchJobs(ctx context.Context, q *queue) error {
	for { // want `retry loop has no attempt cap and no deadline`
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
