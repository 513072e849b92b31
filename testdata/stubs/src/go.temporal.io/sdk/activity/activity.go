// Package activity is a test stub of go.temporal.io/sdk@v1.51.0 (activity): signatures only (subset).
// Activities are retried by Temporal; the default retry policy has unlimited attempts.
package activity

import (
	"context"

	"go.temporal.io/sdk/internal"
)

type (
	// Type identifies an activity type.
	Type = internal.ActivityType

	// Info contains information about a currently executing activity.
	Info = internal.ActivityInfo

	// RegisterOptions consists of options for registering an activity.
	RegisterOptions = internal.RegisterActivityOptions

	// DynamicRegisterOptions consists of options for registering a dynamic activity.
	DynamicRegisterOptions = internal.DynamicRegisterActivityOptions
)

// ErrResultPending is returned from activity's implementation to indicate the activity is not completed when the activity method returns.
var ErrResultPending = internal.ErrActivityResultPending

// GetInfo returns information about the currently executing activity.
func GetInfo(ctx context.Context) Info { panic("stub") }

// RecordHeartbeat sends a heartbeat for the currently executing activity.
func RecordHeartbeat(ctx context.Context, details ...any) {}

// HasHeartbeatDetails checks if there are heartbeat details from last attempt.
func HasHeartbeatDetails(ctx context.Context) bool { panic("stub") }

// GetHeartbeatDetails extracts heartbeat details from the last failed attempt.
func GetHeartbeatDetails(ctx context.Context, d ...any) error { panic("stub") }

// GetWorkerStopChannel returns a read-only channel.
func GetWorkerStopChannel(ctx context.Context) <-chan struct{} { panic("stub") }

// IsActivity checks if the context is an activity context from a normal or local activity.
func IsActivity(ctx context.Context) bool { panic("stub") }
