//go:build !plan9

package retry

import (
	"errors"
	"syscall"
)

// transientErrno reports whether err holds a system error of a connection that failed in a way a later
// attempt may not.
func transientErrno(err error) bool {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return false
	}
	switch errno {
	case syscall.ECONNREFUSED, syscall.ECONNRESET, syscall.ECONNABORTED, syscall.EPIPE,
		syscall.ETIMEDOUT, syscall.EHOSTUNREACH, syscall.ENETUNREACH, syscall.ENETDOWN:
		return true
	}
	return false
}
