// Package budget is a test stub of github.com/failsafe-go/failsafe-go@v0.9.8: signatures only.
package budget

import (
	"errors"
	"github.com/failsafe-go/failsafe-go"
)

// ---- budget.go

// ErrExceeded is returned when an execution attempt exceeds the budget.
var ErrExceeded = errors.New("budget exceeded")

// Budget restricts concurrent executions as a way of preventing system overload.
type Budget interface {
	Rate() float64
}

// Builder builds Budget instances.
type Builder interface {
	WithMaxRate(maxRate float64) Builder

	WithMinConcurrency(minConcurrency uint) Builder

	OnBudgetExceeded(listener func(ExceededEvent)) Builder

	Build() Budget
}

// ExecutionType indicates the type of execution used by the budget.
type ExecutionType string

const (
	RetryExecution ExecutionType = "retry"

	HedgeExecution ExecutionType = "hedge"
)

// ExceededEvent indicates a budget limit has been exceeded.
type ExceededEvent struct {
	ExecutionType ExecutionType

	failsafe.ExecutionInfo

	Budget
}

// New returns a new budget with a default maxRate of .2 and minConcurrency of 3.
func New() Budget { panic("stub") }

// NewBuilder returns a TypeBuilder for execution result type R which builds Budgets with a default maxRate of .2 and minConcurrency of 3.
func NewBuilder() Builder { panic("stub") }
