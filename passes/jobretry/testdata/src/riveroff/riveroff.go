// Package riveroff inserts its jobs with a single attempt: not reported.
package riveroff

import (
	"context"
	"net/http"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
)

type OnceArgs struct{}

func (OnceArgs) Kind() string { return "once" }

// InsertOpts makes every OnceArgs job a single attempt.
func (OnceArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: 1} }

type OnceWorker struct {
	river.WorkerDefaults[OnceArgs]
}

func (w *OnceWorker) Work(ctx context.Context, job *river.Job[OnceArgs]) error {
	_, err := http.Post("https://api.example.com/once", "text/plain", nil)
	return err
}

type SingleArgs struct{}

func (SingleArgs) Kind() string { return "single" }

type SingleWorker struct {
	river.WorkerDefaults[SingleArgs]
}

func (w *SingleWorker) Work(ctx context.Context, job *river.Job[SingleArgs]) error {
	_, err := http.Post("https://api.example.com/single", "text/plain", nil)
	return err
}

func Enqueue(ctx context.Context, c *river.Client[pgx.Tx]) error {
	_, err := c.Insert(ctx, SingleArgs{}, &river.InsertOpts{MaxAttempts: 1})
	return err
}

type RetriedArgs struct{}

func (RetriedArgs) Kind() string { return "retried" }

type RetriedWorker struct {
	river.WorkerDefaults[RetriedArgs]
}

func (w *RetriedWorker) Work(ctx context.Context, job *river.Job[RetriedArgs]) error {
	_, err := http.Post("https://api.example.com/retried", "text/plain", nil) // want `POST through http\.Post sends no idempotency key in river worker Work \(25 attempts\)`
	return err
}

func EnqueueRetried(ctx context.Context, c *river.Client[pgx.Tx]) error {
	_, err := c.Insert(ctx, RetriedArgs{}, &river.InsertOpts{MaxAttempts: 5})
	return err
}
