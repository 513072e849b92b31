//go:build plan9

package retry

// transientErrno: Plan 9 reports network errors as strings, which are not matched.
func transientErrno(error) bool { return false }
