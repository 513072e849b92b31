package shapes

import "time"

// A test installs the hook the package never sets: a test's configuration,
// not the package's default, so the waits stay constant in the test
// variant of the package too (what go vet analyses).
func configureForTest(t *txn) {
	t.conf.BackoffFunc = func(retries, max int) time.Duration { return 0 }
}
