// Package client is a test stub of go.temporal.io/sdk@v1.51.0 (client): signatures only (subset).
package client

import (
	"context"

	"go.temporal.io/sdk/internal"
)

type (
	// Options are optional parameters for Client creation.
	Options = internal.ClientOptions

	// StartWorkflowOptions configuration parameters for starting a workflow execution.
	// Its ID is the workflow's idempotency key (a duplicate start is rejected by the server).
	StartWorkflowOptions = internal.StartWorkflowOptions

	// WorkflowRun represents a started non child workflow.
	WorkflowRun = internal.WorkflowRun

	// Client is the client for starting and getting information about a workflow executions as well as completing activities asynchronously (method subset).
	Client interface {
		// ExecuteWorkflow starts a workflow execution and returns a WorkflowRun instance or error
		ExecuteWorkflow(ctx context.Context, options StartWorkflowOptions, workflow any, args ...any) (WorkflowRun, error)

		// CompleteActivity reports activity completed.
		CompleteActivity(ctx context.Context, taskToken []byte, result any, err error) error

		// Close client and clean up underlying resources.
		Close()
	}
)

// Dial creates an instance of a workflow client.
func Dial(options Options) (Client, error) { panic("stub") }

// DialContext creates an instance of a workflow client.
func DialContext(ctx context.Context, options Options) (Client, error) { panic("stub") }

// NewLazyClient creates an instance of a workflow client. Unlike Dial, this will not eagerly connect to the server.
func NewLazyClient(options Options) (Client, error) { panic("stub") }
