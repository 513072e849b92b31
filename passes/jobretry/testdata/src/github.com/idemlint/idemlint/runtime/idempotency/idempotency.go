// Package idempotency is a test stub of idemlint's runtime/idempotency: signatures only.
package idempotency

// NewKey returns a fresh random key.
func NewKey() string { panic("stub") }

// Derive returns a key for one step of the operation key names.
func Derive(key, step string) string { panic("stub") }
