// Package idempotency is a signature stub of idemlint's runtime package.
package idempotency

// NewKey returns a fresh key.
func NewKey() string { panic("stub") }

// Derive returns the key of one step of the operation key.
func Derive(key, step string) string { panic("stub") }
