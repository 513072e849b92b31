// Package temporal is a test stub of go.temporal.io/sdk@v1.51.0 (temporal): signatures only (subset).
package temporal

import "go.temporal.io/sdk/internal"

// RetryPolicy defines the retry policy.
type RetryPolicy = internal.RetryPolicy

type (
	// ApplicationError returned from activity implementations with message and optional details.
	ApplicationError = internal.ApplicationError
)

// ApplicationErrorOptions represents a combination of error attributes and additional requests.
type ApplicationErrorOptions = internal.ApplicationErrorOptions

// NewApplicationErrorWithOptions creates new instance of retryable *ApplicationError with message, type, and options.
func NewApplicationErrorWithOptions(msg, errType string, options ApplicationErrorOptions) error {
	panic("stub")
}

// NewApplicationError creates new instance of retryable *ApplicationError with message, type, and optional details.
func NewApplicationError(message, errType string, details ...any) error { panic("stub") }

// NewApplicationErrorWithCause creates new instance of retryable *ApplicationError with message, type, cause, and optional details.
func NewApplicationErrorWithCause(message, errType string, cause error, details ...any) error {
	panic("stub")
}

// NewNonRetryableApplicationError creates new instance of non-retryable *ApplicationError with message, type, and optional cause and details.
func NewNonRetryableApplicationError(message, errType string, cause error, details ...any) error {
	panic("stub")
}

// IsApplicationError return if err is a ApplicationError
func IsApplicationError(err error) bool { panic("stub") }
