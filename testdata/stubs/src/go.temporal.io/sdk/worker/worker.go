// Package worker is a test stub of go.temporal.io/sdk@v1.51.0 (worker): signatures only (subset; no Nexus registry).
package worker

import (
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/internal"
	"go.temporal.io/sdk/workflow"
)

type (
	// Worker hosts workflow and activity implementations.
	Worker interface {
		Registry

		// Start the worker in a non-blocking fashion.
		Start() error

		// Run the worker in a blocking fashion.
		Run(interruptCh <-chan any) error

		// Stop the worker.
		Stop()
	}

	// Registry exposes registration functions to consumers.
	Registry interface {
		WorkflowRegistry
		ActivityRegistry
	}

	// WorkflowRegistry exposes workflow registration functions to consumers.
	WorkflowRegistry interface {
		RegisterWorkflow(w any)
		RegisterWorkflowWithOptions(w any, options workflow.RegisterOptions)
		RegisterDynamicWorkflow(w any, options workflow.DynamicRegisterOptions)
	}

	// ActivityRegistry exposes activity registration functions to consumers.
	ActivityRegistry interface {
		RegisterActivity(a any)
		RegisterActivityWithOptions(a any, options activity.RegisterOptions)
		RegisterDynamicActivity(a any, options activity.DynamicRegisterOptions)
	}

	// Options is used to configure a worker instance.
	Options = internal.WorkerOptions
)

// New creates an instance of worker for managing workflow and activity executions.
func New(client client.Client, taskQueue string, options Options) Worker { panic("stub") }

// InterruptCh returns channel which will get data when system receives interrupt signal.
func InterruptCh() <-chan any { panic("stub") }
