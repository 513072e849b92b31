// Package errors is a test stub of k8s.io/apimachinery@v0.37.2 (pkg/api/errors):
// signatures only (the Is* predicates and SuggestsClientDelay).
package errors

// IsNotFound reports whether err is the matching API status error.
func IsNotFound(err error) bool { return false }

// IsAlreadyExists reports whether err is the matching API status error.
func IsAlreadyExists(err error) bool { return false }

// IsConflict reports whether err is the matching API status error.
func IsConflict(err error) bool { return false }

// IsInvalid reports whether err is the matching API status error.
func IsInvalid(err error) bool { return false }

// IsGone reports whether err is the matching API status error.
func IsGone(err error) bool { return false }

// IsResourceExpired reports whether err is the matching API status error.
func IsResourceExpired(err error) bool { return false }

// IsNotAcceptable reports whether err is the matching API status error.
func IsNotAcceptable(err error) bool { return false }

// IsUnsupportedMediaType reports whether err is the matching API status error.
func IsUnsupportedMediaType(err error) bool { return false }

// IsMethodNotSupported reports whether err is the matching API status error.
func IsMethodNotSupported(err error) bool { return false }

// IsServiceUnavailable reports whether err is the matching API status error.
func IsServiceUnavailable(err error) bool { return false }

// IsBadRequest reports whether err is the matching API status error.
func IsBadRequest(err error) bool { return false }

// IsUnauthorized reports whether err is the matching API status error.
func IsUnauthorized(err error) bool { return false }

// IsForbidden reports whether err is the matching API status error.
func IsForbidden(err error) bool { return false }

// IsTimeout reports whether err is the matching API status error.
func IsTimeout(err error) bool { return false }

// IsServerTimeout reports whether err is the matching API status error.
func IsServerTimeout(err error) bool { return false }

// IsInternalError reports whether err is the matching API status error.
func IsInternalError(err error) bool { return false }

// IsTooManyRequests reports whether err is the matching API status error.
func IsTooManyRequests(err error) bool { return false }

// IsRequestEntityTooLargeError reports whether err is the matching API status error.
func IsRequestEntityTooLargeError(err error) bool { return false }

// IsUnexpectedServerError reports whether err is the matching API status error.
func IsUnexpectedServerError(err error) bool { return false }

// IsUnexpectedObjectError reports whether err is the matching API status error.
func IsUnexpectedObjectError(err error) bool { return false }

// IsStoreReadError reports whether err is the matching API status error.
func IsStoreReadError(err error) bool { return false }

// SuggestsClientDelay returns true if this error suggests a client delay as well as the suggested seconds to wait, or false if the error does not imply a wait.
func SuggestsClientDelay(err error) (int, bool) { return 0, false }
