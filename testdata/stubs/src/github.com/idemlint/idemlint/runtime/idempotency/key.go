// Package idempotency is a test stub of idemlint's own runtime/idempotency
// (github.com/idemlint/idemlint/runtime/idempotency): signatures only.
package idempotency

// NewKey returns a fresh key.
func NewKey() string { panic("stub") }

// Derive returns the key of one step of the operation identified by key.
func Derive(key, step string) string { panic("stub") }
