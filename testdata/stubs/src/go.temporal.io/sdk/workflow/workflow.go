// Package workflow is a test stub of go.temporal.io/sdk@v1.51.0 (workflow): signatures only.
// Only the option types needed by worker and activity configuration are declared
// (no Context, Future or ExecuteActivity).
package workflow

import "go.temporal.io/sdk/internal"

type (
	// RegisterOptions consists of options for registering a workflow.
	RegisterOptions = internal.RegisterWorkflowOptions

	// DynamicRegisterOptions consists of options for registering a dynamic workflow.
	DynamicRegisterOptions = internal.DynamicRegisterWorkflowOptions
)

// ActivityOptions stores all activity-specific invocation parameters that will be stored inside of a context.
type ActivityOptions = internal.ActivityOptions
