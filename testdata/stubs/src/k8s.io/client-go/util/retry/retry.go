// Package retry is a test stub of k8s.io/client-go@v0.37.2: signatures only.
package retry

import (
	"k8s.io/apimachinery/pkg/util/wait"
	"time"
)

// ---- util.go

// DefaultRetry is the recommended retry for a conflict where multiple clients are making changes to the same resource.
var DefaultRetry = wait.Backoff{
	Steps:    5,
	Duration: 10 * time.Millisecond,
	Factor:   1.0,
	Jitter:   0.1,
}

// DefaultBackoff is the recommended backoff for a conflict where a client may be attempting to make an unrelated modification to a resource under active manage...
var DefaultBackoff = wait.Backoff{
	Steps:    4,
	Duration: 10 * time.Millisecond,
	Factor:   5.0,
	Jitter:   0.1,
}

// OnError allows the caller to retry fn in case the error returned by fn is retriable according to the provided function.
func OnError(backoff wait.Backoff, retriable func(error) bool, fn func() error) error { panic("stub") }

// RetryOnConflict is used to make an update to a resource when you have to worry about conflicts caused by other code making unrelated updates to the resource ...
func RetryOnConflict(backoff wait.Backoff, fn func() error) error { panic("stub") }
