// Package remote pushes through retry.Retry (remote.Write's uploadOne
// shape) and reads without retrying.
package remote

import (
	"errors"
	"time"

	"wrapcase/retry"
)

func put(ref string) error {
	if ref == "" {
		return errors.New("empty ref")
	}
	return nil
}

// Write retries the upload 3 steps itself.
func Write(ref string) error {
	tryUpload := func() error { return put(ref) }
	return retry.Retry(tryUpload, retry.IsNotNil, retry.Backoff{Duration: time.Second, Factor: 3, Steps: 3})
}

// Get makes one request.
func Get(ref string) error { return put(ref) }
