// Package loops holds loops with a wait that are no retry of a failure, or
// that are bounded: workers and pollers that idle on an empty queue, batch
// and pagination loops paced by a rate limit, and retries bounded by a
// wall-clock deadline.
package loops

import (
	"context"
	"database/sql"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/idemlint/idemlint/runtime/retry"
)

var db *sql.DB

const schema = `CREATE TABLE jobs (id bigint PRIMARY KEY, state text, payload text);`

// ClaimWorker claims one job at a time with SKIP LOCKED and idles a
// jittered while when there is none; an error of the work ends it.
//
// lookalike unboundedretry,nojitter issue47: a job-table poller idling on sql.ErrNoRows taken for a retry
func ClaimWorker(ctx context.Context, work func(context.Context, int64, string) error) error {
	for {
		var id int64
		var payload string
		err := db.QueryRowContext(ctx, `UPDATE jobs SET state = 'running' WHERE id = (
			SELECT id FROM jobs WHERE state = 'queued' ORDER BY id FOR UPDATE SKIP LOCKED LIMIT 1) RETURNING id, payload`).Scan(&id, &payload)
		if errors.Is(err, sql.ErrNoRows) {
			select {
			case <-time.After(retry.Jitter(2 * time.Second)):
				continue
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if err != nil {
			return err
		}
		if err := work(ctx, id, payload); err != nil {
			return err
		}
	}
}

// oneAttempt turns the SDK's retries off on a call: the loop that makes it
// is the one layer.
func oneAttempt(o *sqs.Options) { o.RetryMaxAttempts = 1 }

// LongPoll receives from SQS with a 20 s long poll until its context ends,
// and waits a jittered second when a receive fails: a consumer's
// lifetime loop whose failures are retried at most ten times in a row, the
// SDK's own retries turned off on the receive. A failed delete is not
// retried by the loop: it returns.
//
// lookalike unboundedretry,nojitter kafkago-reader-unbounded: a receive loop retrying failures forever
func LongPoll(ctx context.Context, c *sqs.Client, url string, handle func(context.Context, string) error) error {
	failures := 0
	for ctx.Err() == nil {
		out, err := c.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(url), WaitTimeSeconds: 20, MaxNumberOfMessages: 10}, oneAttempt)
		if err != nil {
			failures++
			if failures >= 10 {
				return err
			}
			time.Sleep(retry.Jitter(time.Second))
			continue
		}
		failures = 0
		for _, m := range out.Messages {
			if err := handle(ctx, aws.ToString(m.Body)); err != nil {
				continue // left for redelivery after the visibility timeout
			}
			if _, err := c.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: aws.String(url), ReceiptHandle: m.ReceiptHandle}); err != nil {
				return err
			}
		}
	}
	return ctx.Err()
}

// Backfill writes ids in batches of 500, pausing between batches to keep
// the database's load down: a paced loop over data, no retry.
//
// lookalike nojitter,unboundedretry sarama-producer-retry-backoff: a constant sleep between sends
func Backfill(ctx context.Context, ids []int64) error {
	for len(ids) > 0 {
		n := min(len(ids), 500)
		if _, err := db.ExecContext(ctx, `UPDATE jobs SET state = 'queued' WHERE id = ANY($1)`, ids[:n]); err != nil {
			return err
		}
		ids = ids[n:]
		time.Sleep(100 * time.Millisecond)
	}
	return nil
}

// Page is one page of a listing.
type Page struct {
	Items []string
	Next  string
}

// ListAll walks the pages of a listing, paced by the API's rate limit.
//
// lookalike nojitter,unboundedretry olivere-startup-nojitter: a loop over a range with a constant wait
func ListAll(ctx context.Context, list func(ctx context.Context, token string) (Page, error)) ([]string, error) {
	var all []string
	token := ""
	limiter := time.NewTicker(200 * time.Millisecond)
	defer limiter.Stop()
	for {
		p, err := list(ctx, token)
		if err != nil {
			return nil, err
		}
		all = append(all, p.Items...)
		if p.Next == "" {
			return all, nil
		}
		token = p.Next
		select {
		case <-limiter.C:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// UntilDeadline retries until a wall-clock deadline, jittered.
//
// lookalike unboundedretry,nojitter zk-connect-unbounded: a connect loop with no bound
func UntilDeadline(ctx context.Context, connect func(context.Context) error) error {
	deadline := time.Now().Add(30 * time.Second)
	var err error
	for time.Now().Before(deadline) {
		if err = connect(ctx); err == nil {
			return nil
		}
		time.Sleep(500*time.Millisecond + rand.N(500*time.Millisecond))
	}
	return err
}

// UntilContextDeadline retries under a context with a deadline it sets
// itself, jittered.
//
// lookalike unboundedretry,nojitter asynq-subscriber-unbounded: a subscribe retried until the caller's context ends
func UntilContextDeadline(ctx context.Context, subscribe func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for {
		err := subscribe(ctx)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return errors.Join(err, ctx.Err())
		case <-time.After(retry.Jitter(5 * time.Second)):
		}
	}
}

// Queue is an in-memory queue.
type Queue struct{ items chan string }

// Run drains the queue until it is closed: the loop blocks on the channel,
// no sleep, no retry.
//
// lookalike unboundedretry issue47: a worker loop taken for an unbounded retry
func (q *Queue) Run(ctx context.Context, handle func(context.Context, string) error, logf func(string, ...any)) {
	for item := range q.items {
		if err := handle(ctx, item); err != nil {
			logf("item %s: %v", item, err)
		}
	}
}

// Heartbeats sends a heartbeat every interval for the lease's lifetime;
// a failed beat is logged, the next one comes on the next tick.
//
// lookalike nojitter,unboundedretry sarama-heartbeat: a heartbeat loop at a constant interval
func Heartbeats(ctx context.Context, beat func(context.Context) error, logf func(string, ...any)) {
	t := time.NewTicker(3 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := beat(ctx); err != nil {
				logf("heartbeat: %v", err)
			}
		}
	}
}
