// Package rivertype is a test stub of github.com/riverqueue/river/rivertype@v0.51.2: signatures only.
package rivertype

import (
	"context"
	"errors"
	"time"
)

// ---- execution_error.go

var ErrJobCancelledRemotely error // = JobCancel(errors.New("job cancelled remotely"))

// JobCancel wraps err and can be returned from a Worker's Work method to cancel the job at the end of execution.
func JobCancel(err error) error { panic("stub") }

// JobCancelError is the error type returned by JobCancel.
type JobCancelError struct {
}

func (e *JobCancelError) Error() string { panic("stub") }

func (e *JobCancelError) Is(target error) bool { panic("stub") }

func (e *JobCancelError) Unwrap() error { panic("stub") }

// JobSnoozeError is the error type returned by JobSnooze.
type JobSnoozeError struct {
	Duration time.Duration
}

func (e *JobSnoozeError) Error() string { panic("stub") }

func (e *JobSnoozeError) Is(target error) bool { panic("stub") }

// UnknownJobKindError is returned when a Client fetches and attempts to work a job that has not been registered on the Client's Workers bundle (using AddWorker).
type UnknownJobKindError struct {
	Kind string
}

// Error returns the error string.
func (e *UnknownJobKindError) Error() string { panic("stub") }

// Is implements the interface used by errors.Is to determine if errors are equivalent.
func (e *UnknownJobKindError) Is(target error) bool { panic("stub") }

// ---- river_type.go

// MetadataKeyOutput is the metadata key used to store recorded job output.
const MetadataKeyOutput = "output"

// ErrNotFound is returned when a query by ID does not match any existing rows.
var ErrNotFound = errors.New("not found")

// ErrJobRunning is returned when a job is attempted to be deleted while it's running.
var ErrJobRunning = errors.New("running jobs cannot be deleted")

// JobArgs is an interface that should be implemented by the arguments to a job.
type JobArgs interface {
	Kind() string
}

// JobInsertResult is the result of a job insert, containing the inserted job along with some other useful metadata.
type JobInsertResult struct {
	Job *JobRow

	UniqueSkippedAsDuplicate bool
}

// JobRow contains the properties of a job that are persisted to the database.
type JobRow struct {
	ID int64

	Attempt int

	AttemptedAt *time.Time

	AttemptedBy []string

	CreatedAt time.Time

	EncodedArgs []byte

	Errors []AttemptError

	FinalizedAt *time.Time

	Kind string

	MaxAttempts int

	Metadata []byte

	Priority int

	Queue string

	ScheduledAt time.Time

	State JobState

	Tags []string

	UniqueKey []byte

	UniqueStates []JobState
}

// Output returns the previously recorded output for the job, if any.
func (j *JobRow) Output() []byte { panic("stub") }

// JobState is the state of a job (its constants are left out: no test uses
// them).
type JobState string

// JobStates returns all possible job states.
func JobStates() []JobState { panic("stub") }

// MetricName identifies a metric emitted through HookMetricEmit.
type MetricName string

const (
	MetricNameJobGetAvailableDuration MetricName = "job_get_available_duration"

	MetricNameJobGetAvailableCount MetricName = "job_get_available_count"
)

// Metric is a strongly typed metric payload emitted through HookMetricEmit.
type Metric interface {
	Name() MetricName

	isMetric()
}

// AttemptError is an error from a single job attempt that failed due to an error or a panic.
type AttemptError struct {
	At time.Time `json:"at"`

	Attempt int `json:"attempt"`

	Error string `json:"error"`

	Trace string `json:"trace"`
}

type JobInsertParams struct {
	ID           *int64
	Args         JobArgs
	CreatedAt    *time.Time
	EncodedArgs  []byte
	Kind         string
	MaxAttempts  int
	Metadata     []byte
	Priority     int
	Queue        string
	ScheduledAt  *time.Time
	State        JobState
	Tags         []string
	UniqueKey    []byte
	UniqueStates byte
}

// Hook is an arbitrary interface for a plugin "hook" which will execute some arbitrary code at a predefined step in the job lifecycle.
type Hook interface {
	IsHook() bool
}

// HookInsertBegin is an interface to a hook that runs before job insertion.
type HookInsertBegin interface {
	Hook

	InsertBegin(ctx context.Context, params *JobInsertParams) error
}

// HookMetricEmit is an interface to a hook that receives metrics emitted by River.
type HookMetricEmit interface {
	Hook

	MetricEmit(ctx context.Context, params *HookMetricEmitParams)
}

// HookMetricEmitParams are parameters for HookMetricEmit.
type HookMetricEmitParams struct {
	Metric Metric
}

// JobGetAvailableDurationMetric is emitted after a successful JobGetAvailable call with the call's duration.
type JobGetAvailableDurationMetric struct {
	Duration time.Duration

	Queue string
}

func (m *JobGetAvailableDurationMetric) Name() MetricName { panic("stub") }

// JobGetAvailableCountMetric is emitted after a successful JobGetAvailable call with the number of jobs locked.
type JobGetAvailableCountMetric struct {
	Count int

	Queue string
}

func (m *JobGetAvailableCountMetric) Name() MetricName { panic("stub") }

// HookPeriodicJobsStart is an interface to a hook that runs when the periodic job enqueuer starts on a newly elected leader.
type HookPeriodicJobsStart interface {
	Hook

	Start(ctx context.Context, params *HookPeriodicJobsStartParams) error
}

// HookPeriodicJobsStartParams are parameters for HookPeriodicJobsStart.
type HookPeriodicJobsStartParams struct {
	DurableJobs []*DurablePeriodicJob
}

// HookWorkBegin is an interface to a hook that runs after a job has been locked for work and before it's worked.
type HookWorkBegin interface {
	Hook

	WorkBegin(ctx context.Context, job *JobRow) error
}

// HookWorkEnd is an interface to a hook that runs after a job has been worked.
type HookWorkEnd interface {
	Hook

	WorkEnd(ctx context.Context, job *JobRow, err error) error
}

// Middleware is an arbitrary interface for a struct which will execute some arbitrary code at a predefined step in the job lifecycle.
type Middleware interface {
	IsMiddleware() bool
}

// Plugin is a generic extension installed globally.
type Plugin interface {
	IsPlugin() bool
}

// JobInsertMiddleware provides an interface for middleware that integrations can use to encapsulate common logic around job insertion.
type JobInsertMiddleware interface {
	Middleware

	InsertMany(ctx context.Context, manyParams []*JobInsertParams, doInner func(context.Context) ([]*JobInsertResult, error)) ([]*JobInsertResult, error)
}

// WorkerMiddleware provides an interface for middleware that integrations can use to encapsulate common logic when a job is worked.
type WorkerMiddleware interface {
	Middleware

	Work(ctx context.Context, job *JobRow, doInner func(context.Context) error) error
}

// DurablePeriodicJob represents a durable periodic job.
type DurablePeriodicJob struct {
	ID string

	CreatedAt time.Time

	NextRunAt time.Time

	UpdatedAt time.Time
}

// PeriodicJobHandle is a reference to a dynamically added periodic job (returned by the use of `Client.PeriodicJobs().Add()`) which can be used to subsequently...
type PeriodicJobHandle int

// Queue is a configuration for a queue that is currently (or recently was) in use by a client.
type Queue struct {
	CreatedAt time.Time

	Metadata []byte

	Name string

	PausedAt *time.Time

	UpdatedAt time.Time
}

// UniqueOptsByStateDefault is the set of job states that are used to determine uniqueness unless unique job states have been overridden with UniqueOpts.ByState.
func UniqueOptsByStateDefault() []JobState { panic("stub") }

// WorkerMetadata is metadata about workers registered with a client.
type WorkerMetadata struct {
	JobArgHooks []Hook

	Kind string
}

// ---- time_generator.go

// TimeGenerator generates current time values for in-process timing math and optional stubbed wall-clock timestamps in tests.
type TimeGenerator interface {
	Now() time.Time

	NowOrNil() *time.Time
}
