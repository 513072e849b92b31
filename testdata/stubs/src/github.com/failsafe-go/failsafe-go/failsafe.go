// Package failsafe is a test stub of github.com/failsafe-go/failsafe-go@v0.9.8: signatures only.
package failsafe

import (
	"context"
	"errors"
	"time"
)

// ---- events.go

// ExecutionEvent indicates an execution was attempted.
type ExecutionEvent[R any] struct {
	ExecutionAttempt[R]
}

// ExecutionScheduledEvent indicates an execution was scheduled.
type ExecutionScheduledEvent[R any] struct {
	ExecutionAttempt[R]

	Delay time.Duration
}

// ExecutionDoneEvent indicates an execution is done.
type ExecutionDoneEvent[R any] struct {
	ExecutionInfo

	Result R

	Error error
}

// ---- execution.go

// ExecutionInfo contains execution info.
type ExecutionInfo interface {
	Context() context.Context

	Attempts() int

	Executions() int

	Retries() int

	Hedges() int

	StartTime() time.Time

	ElapsedTime() time.Duration
}

// ExecutionAttempt contains information for an execution attempt.
type ExecutionAttempt[R any] interface {
	ExecutionInfo

	LastResult() R

	LastError() error

	IsFirstAttempt() bool

	IsRetry() bool

	IsHedge() bool

	AttemptStartTime() time.Time

	ElapsedAttemptTime() time.Duration
}

// Execution contains information about an execution.
type Execution[R any] interface {
	ExecutionAttempt[R]

	IsCanceled() bool

	Canceled() <-chan struct{}
}

// ---- executor.go

// Executor handles failures according to configured policies.
type Executor[R any] interface {
	Compose(innerPolicy Policy[R]) Executor[R]

	ComposeAny(innerPolicy ResultAgnosticPolicy[any]) Executor[R]

	Context() context.Context

	WithContext(ctx context.Context) Executor[R]

	OnDone(listener func(ExecutionDoneEvent[R])) Executor[R]

	OnSuccess(listener func(ExecutionDoneEvent[R])) Executor[R]

	OnFailure(listener func(ExecutionDoneEvent[R])) Executor[R]

	Run(fn func() error) error

	RunWithExecution(fn func(exec Execution[R]) error) error

	Get(fn func() (R, error)) (R, error)

	GetWithExecution(fn func(exec Execution[R]) (R, error)) (R, error)

	RunAsync(fn func() error) ExecutionResult[R]

	RunAsyncWithExecution(fn func(exec Execution[R]) error) ExecutionResult[R]

	GetAsync(fn func() (R, error)) ExecutionResult[R]

	GetAsyncWithExecution(fn func(exec Execution[R]) (R, error)) ExecutionResult[R]
}

// With creates and returns a new Executor for result type R that will handle failures according to the given policies.
func With[R any](policies ...Policy[R]) Executor[R] { panic("stub") }

// WithAny creates and returns a new Executor that can be used to compose other policies with the result type R, for the final composed execution.
func WithAny[R any](policy ResultAgnosticPolicy[any]) Executor[R] { panic("stub") }

// ---- policy.go

// Policy handles execution failures.
type Policy[R any] interface {
	ToExecutor(typeToken R) any
}

// ResultAgnosticPolicy is a marker interface for policies that do not modify or return alternate results.
type ResultAgnosticPolicy[R any] interface {
	Policy[R]

	ResultAgnostic()
}

// FailurePolicyBuilder builds a Policy that allows configurable conditions to determine whether an execution is a failure.
type FailurePolicyBuilder[S any, R any] interface {
	HandleErrors(errs ...error) S

	HandleErrorTypes(errs ...any) S

	HandleResult(result R) S

	HandleIf(predicate func(R, error) bool) S

	OnSuccess(listener func(ExecutionEvent[R])) S

	OnFailure(listener func(ExecutionEvent[R])) S
}

// DelayFunc returns a duration to delay for given the ExecutionAttempt.
type DelayFunc[R any] func(exec ExecutionAttempt[R]) time.Duration

// DelayablePolicyBuilder builds policies that can be delayed between executions.
type DelayablePolicyBuilder[S any, R any] interface {
	WithDelay(delay time.Duration) S

	WithDelayFunc(delayFunc DelayFunc[R]) S
}

// ---- result.go

// ErrExecutionCanceled indicates that an execution was canceled by ExecutionResult.Cancel.
var ErrExecutionCanceled = errors.New("execution canceled")

// ExecutionResult provides the result of an asynchronous execution.
type ExecutionResult[R any] interface {
	Done() <-chan any

	IsDone() bool

	Get() (R, error)

	Result() R

	Error() error

	Cancel()
}
