// Package retry is a test stub of idemlint's own runtime/retry: signatures only.
package retry

import "time"

func Jitter(d time.Duration) time.Duration { return d }
