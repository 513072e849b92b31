package unbounded

import (
	retrygo "github.com/avast/retry-go/v4"
)

// optionsInSlice builds the options in a slice: Attempts(0) still means
// forever.
func optionsInSlice() error {
	opts := []retrygo.Option{retrygo.Attempts(0), retrygo.LastErrorOnly(true)}
	return retrygo.Do(op, opts...) // want `retry\.Do has no attempt cap and no deadline`
}

// optionsInSliceCapped is the look-alike: the slice caps the attempts.
func optionsInSliceCapped() error {
	opts := []retrygo.Option{retrygo.Attempts(3)}
	return retrygo.Do(op, opts...)
}

// optionsGrown is appended to after it is made: the model cannot list
// them, so it stays silent.
func optionsGrown(extra retrygo.Option) error {
	opts := []retrygo.Option{retrygo.Attempts(0)}
	opts = append(opts, extra)
	return retrygo.Do(op, opts...)
}
