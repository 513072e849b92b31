// Package internal is a test stub of golang.org/x/oauth2@v0.27.0's internal package: signatures only.
package internal

// ContextKey is just an empty struct. It exists so HTTPClient can be an immutable public variable with a unique type.
type ContextKey struct{}
