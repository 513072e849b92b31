// Package internal is a test stub of go.temporal.io/sdk@v1.51.0 (internal): signatures only.
//
// The public packages (activity, client, temporal, worker, workflow) declare
// their types as aliases of these, as the real SDK does, so type identities
// match the real module. Struct fields are subsets of the real ones.
package internal

import (
	"context"
	"errors"
	"time"
)

type (
	// ActivityType identifies an activity type.
	ActivityType struct {
		Name string
	}

	// WorkflowType identifies a workflow type.
	WorkflowType struct {
		Name string
	}

	// WorkflowExecution details.
	WorkflowExecution struct {
		ID    string
		RunID string
	}

	// ActivityInfo contains information about a currently executing activity (field subset).
	ActivityInfo struct {
		TaskToken              []byte
		WorkflowType           *WorkflowType
		WorkflowNamespace      string
		WorkflowExecution      WorkflowExecution
		ActivityID             string
		ActivityRunID          string
		ActivityType           ActivityType
		TaskQueue              string
		Namespace              string
		HeartbeatTimeout       time.Duration
		ScheduleToCloseTimeout time.Duration
		StartToCloseTimeout    time.Duration
		ScheduledTime          time.Time
		StartedTime            time.Time
		Deadline               time.Time
		Attempt                int32 // Attempt starts from 1, and increased by 1 for every retry if retry policy is specified.
		IsLocalActivity        bool
		RetryPolicy            *RetryPolicy
	}

	// RegisterActivityOptions consists of options for registering an activity.
	RegisterActivityOptions struct {
		Name                          string
		DisableAlreadyRegisteredCheck bool
		SkipInvalidStructFunctions    bool
	}

	// DynamicRegisterActivityOptions consists of options for registering a dynamic activity.
	DynamicRegisterActivityOptions struct{}

	// RegisterWorkflowOptions consists of options for registering a workflow (field subset).
	RegisterWorkflowOptions struct {
		Name                          string
		DisableAlreadyRegisteredCheck bool
	}

	// DynamicRegisterWorkflowOptions consists of options for registering a dynamic workflow (fields omitted).
	DynamicRegisterWorkflowOptions struct{}

	// RetryPolicy defines the retry policy. Server defaults for activities: InitialInterval 1s,
	// BackoffCoefficient 2.0, MaximumInterval 100x InitialInterval, MaximumAttempts 0 = unlimited.
	RetryPolicy struct {
		InitialInterval        time.Duration
		BackoffCoefficient     float64
		MaximumInterval        time.Duration
		MaximumAttempts        int32 // 0 means unlimited
		NonRetryableErrorTypes []string
	}

	// ActivityOptions stores all activity-specific parameters (field subset).
	ActivityOptions struct {
		TaskQueue              string
		ScheduleToCloseTimeout time.Duration
		ScheduleToStartTimeout time.Duration
		StartToCloseTimeout    time.Duration
		HeartbeatTimeout       time.Duration
		WaitForCancellation    bool
		ActivityID             string
		RetryPolicy            *RetryPolicy // nil means the server default policy (unlimited attempts)
		DisableEagerExecution  bool
		Summary                string
	}

	// WorkerOptions is used to configure a worker instance (field subset).
	WorkerOptions struct {
		MaxConcurrentActivityExecutionSize     int
		MaxConcurrentWorkflowTaskExecutionSize int
		Identity                               string
		WorkerStopTimeout                      time.Duration
		LocalActivityWorkerOnly                bool
		DisableWorkflowWorker                  bool
	}

	// ClientOptions are optional parameters for Client creation (field subset).
	ClientOptions struct {
		HostPort  string
		Namespace string
		Identity  string
	}

	// StartWorkflowOptions configuration parameters for starting a workflow execution (field subset).
	StartWorkflowOptions struct {
		ID                       string
		TaskQueue                string
		WorkflowExecutionTimeout time.Duration
		WorkflowRunTimeout       time.Duration
		WorkflowTaskTimeout      time.Duration
		RetryPolicy              *RetryPolicy
	}

	// WorkflowRun represents a started non child workflow.
	WorkflowRun interface {
		GetID() string
		GetRunID() string
		GetFirstExecutionRunID() string
		Get(ctx context.Context, valuePtr any) error
	}

	// ApplicationErrorOptions represents a combination of error attributes and additional requests (field subset).
	ApplicationErrorOptions struct {
		NonRetryable   bool
		Cause          error
		Details        []any
		NextRetryDelay time.Duration
	}

	// ApplicationError returned from activity implementations with message and optional details.
	ApplicationError struct{}
)

func (e *ApplicationError) Error() string                 { panic("stub") }
func (e *ApplicationError) Message() string               { panic("stub") }
func (e *ApplicationError) Type() string                  { panic("stub") }
func (e *ApplicationError) HasDetails() bool              { panic("stub") }
func (e *ApplicationError) Details(d ...any) error        { panic("stub") }
func (e *ApplicationError) NonRetryable() bool            { panic("stub") }
func (e *ApplicationError) Unwrap() error                 { panic("stub") }
func (e *ApplicationError) NextRetryDelay() time.Duration { panic("stub") }

// ErrActivityResultPending is returned from activity's implementation to indicate the activity is not completed when activity method returns.
var ErrActivityResultPending = errors.New("not error: do not autocomplete, using Client.CompleteActivity() to complete")
