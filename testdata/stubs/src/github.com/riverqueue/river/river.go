// Package river is a test stub of github.com/riverqueue/river@v0.51.2: signatures only.
//
// Subset: Client (NewClient, Insert, InsertTx, InsertMany, Start, Stop,
// JobCancel, JobGet), Config, QueueConfig, Workers, Worker, WorkerDefaults,
// WorkFunc, AddWorker, Job, JobArgs, InsertOpts, UniqueOpts, JobCancel,
// JobSnooze, ClientRetryPolicy, ErrorHandler. Jobs are retried by River itself:
// MaxAttempts defaults to 25 (attempts, not retries), delay attempt^4 s ±10%.
package river

import (
	"context"
	"log/slog"
	"time"

	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/rivertype"
)

const (
	FetchCooldownDefault = 100 * time.Millisecond
	FetchCooldownMin     = 1 * time.Millisecond

	FetchPollIntervalDefault = 1 * time.Second
	FetchPollIntervalMin     = 1 * time.Millisecond

	JobStuckThresholdDefault = 10 * time.Second
	JobTimeoutDefault        = 1 * time.Minute
	MaxAttemptsDefault       = 25 // rivercommon.MaxAttemptsDefault
	PriorityDefault          = 1  // rivercommon.PriorityDefault
	QueueDefault             = "default"
	QueueNumWorkersMax       = 10_000
)

// JobArgs is an interface that represents the arguments for a job of type T.
type JobArgs interface {
	// Kind is a string that uniquely identifies the type of job.
	Kind() string
}

// JobArgsWithInsertOpts is an extra interface that a job may implement on top of JobArgs to provide insertion-time options for all jobs of this type.
type JobArgsWithInsertOpts interface {
	InsertOpts() InsertOpts
}

// Job represents a single unit of work, holding both the arguments and information for a job with args of type T.
type Job[T JobArgs] struct {
	*rivertype.JobRow

	// Args are the arguments for the job.
	Args T
}

// Worker is an interface that can perform a job with args of type T.
type Worker[T JobArgs] interface {
	Middleware(job *rivertype.JobRow) []rivertype.WorkerMiddleware
	NextRetry(job *Job[T]) time.Time
	Timeout(job *Job[T]) time.Duration
	Work(ctx context.Context, job *Job[T]) error
}

// WorkerDefaults is an empty struct that can be embedded in your worker struct to make it fulfill the Worker interface with default values.
type WorkerDefaults[T JobArgs] struct{}

func (w WorkerDefaults[T]) Middleware(*rivertype.JobRow) []rivertype.WorkerMiddleware { return nil }

// NextRetry returns an empty time.Time{} to avoid setting any job or Worker-specific overrides on the next retry time.
func (w WorkerDefaults[T]) NextRetry(*Job[T]) time.Time { return time.Time{} }

// Timeout returns the job-specific timeout. Override this method to set a job-specific timeout, otherwise the Client-level timeout will be applied.
func (w WorkerDefaults[T]) Timeout(*Job[T]) time.Duration { return 0 }

// Workers is a list of available job workers.
type Workers struct{}

// NewWorkers initializes a new registry of available job workers.
func NewWorkers() *Workers { return &Workers{} }

// AddWorker registers a Worker on the provided Workers bundle.
func AddWorker[T JobArgs](workers *Workers, worker Worker[T]) {}

// AddWorkerArgs registers a worker for the given job args.
func AddWorkerArgs[T JobArgs](workers *Workers, jobArgs T, worker Worker[T]) {}

// AddWorkerSafely registers a worker on the provided Workers bundle.
func AddWorkerSafely[T JobArgs](workers *Workers, worker Worker[T]) error { return nil }

// WorkFunc wraps a function to implement the Worker interface.
func WorkFunc[T JobArgs](f func(context.Context, *Job[T]) error) Worker[T] { panic("stub") }

// UniqueOpts contains parameters for uniqueness for a job.
type UniqueOpts struct {
	ByArgs      bool
	ByPeriod    time.Duration
	ByQueue     bool
	ByState     []rivertype.JobState
	ExcludeKind bool
}

// InsertOpts are optional settings for a new job which can be provided at job insertion time.
type InsertOpts struct {
	// MaxAttempts is the maximum number of total attempts (including both the
	// original run and all retries) before a job is abandoned and set as
	// discarded. Default 0 falls back to Config.MaxAttempts (25).
	MaxAttempts int
	Metadata    []byte
	Pending     bool
	Priority    int
	Queue       string
	ScheduledAt time.Time
	Tags        []string
	// UniqueOpts returns options relating to job uniqueness. No dedupe by default.
	UniqueOpts UniqueOpts
}

// InsertManyParams encapsulates a single job combined with insert options for use with batch insertion.
type InsertManyParams struct {
	Args       JobArgs
	InsertOpts *InsertOpts
}

// ClientRetryPolicy is an interface that can be implemented to provide a retry policy for how River deals with failed jobs at the client level.
type ClientRetryPolicy interface {
	NextRetry(job *rivertype.JobRow) time.Time
}

// DefaultClientRetryPolicy is River's default retry policy (attempt^4 seconds, ±10% jitter).
type DefaultClientRetryPolicy struct{}

// NextRetry gets the next retry given for the given job, accounting for when it was last attempted and what attempt number that was.
func (p *DefaultClientRetryPolicy) NextRetry(job *rivertype.JobRow) time.Time { panic("stub") }

// ErrorHandlerResult contains current job state changes to apply after handling an error.
type ErrorHandlerResult struct {
	SetCancelled bool
}

// ErrorHandler provides an interface that will be invoked in case of an error or panic occurring in the job.
type ErrorHandler interface {
	HandleError(ctx context.Context, job *rivertype.JobRow, err error) *ErrorHandlerResult
	HandlePanic(ctx context.Context, job *rivertype.JobRow, panicVal any, trace string) *ErrorHandlerResult
}

// QueueConfig contains queue-specific configuration.
type QueueConfig struct {
	FetchCooldown     time.Duration
	FetchPollInterval time.Duration
	MaxWorkers        int
}

// Config is the configuration for a Client (field subset).
type Config struct {
	ErrorHandler ErrorHandler
	ID           string
	// JobTimeout is the maximum amount of time a job is allowed to run; default JobTimeoutDefault (1m).
	JobTimeout time.Duration
	Logger     *slog.Logger
	// MaxAttempts is the default number of times a job will be retried before
	// being discarded. If not specified, defaults to 25.
	MaxAttempts int
	Queues      map[string]QueueConfig
	// RetryPolicy is a configurable retry policy for the client; default DefaultClientRetryPolicy.
	RetryPolicy ClientRetryPolicy
	Schema      string
	TestOnly    bool
	Workers     *Workers
}

// Client is a single isolated instance of River.
type Client[TTx any] struct{}

// NewClient creates a new Client with the given database driver and configuration.
func NewClient[TTx any](driver riverdriver.Driver[TTx], config *Config) (*Client[TTx], error) {
	panic("stub")
}

// Start starts the client's job fetching and working loops.
func (c *Client[TTx]) Start(ctx context.Context) error { panic("stub") }

// Stop performs a graceful shutdown of the Client.
func (c *Client[TTx]) Stop(ctx context.Context) error { panic("stub") }

// Insert inserts a new job with the provided args.
func (c *Client[TTx]) Insert(ctx context.Context, args JobArgs, opts *InsertOpts) (*rivertype.JobInsertResult, error) {
	panic("stub")
}

// InsertTx inserts a new job with the provided args on the given transaction.
func (c *Client[TTx]) InsertTx(ctx context.Context, tx TTx, args JobArgs, opts *InsertOpts) (*rivertype.JobInsertResult, error) {
	panic("stub")
}

// InsertMany inserts many jobs at once.
func (c *Client[TTx]) InsertMany(ctx context.Context, params []InsertManyParams) ([]*rivertype.JobInsertResult, error) {
	panic("stub")
}

// JobCancel cancels the job with the given ID.
func (c *Client[TTx]) JobCancel(ctx context.Context, jobID int64) (*rivertype.JobRow, error) {
	panic("stub")
}

// JobGet fetches a single job by its ID.
func (c *Client[TTx]) JobGet(ctx context.Context, id int64) (*rivertype.JobRow, error) {
	panic("stub")
}

// JobCancelError is the error type returned by JobCancel.
type JobCancelError = rivertype.JobCancelError

// JobCancel wraps err and can be returned from a Worker's Work method to cancel the job at the end of execution.
func JobCancel(err error) error { return rivertype.JobCancel(err) }

// JobSnoozeError is the error type returned by JobSnooze.
type JobSnoozeError = rivertype.JobSnoozeError

// JobSnooze can be returned from a Worker's Work method to cause the job to be tried again after the specified duration.
// Snoozing does not increment the job's Attempt count.
func JobSnooze(duration time.Duration) error { panic("stub") }
