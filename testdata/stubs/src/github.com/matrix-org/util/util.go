// Package util is a stub of github.com/matrix-org/util
// (v0.0.0-20221111132719-399730281e66), with the real signatures.
package util

// RandomString generates a pseudo-random string of length n.
func RandomString(n int) string { return "" }
