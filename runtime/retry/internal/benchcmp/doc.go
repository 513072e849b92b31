// Package benchcmp compares runtime/retry with github.com/avast/retry-go/v4 and github.com/cenkalti/backoff/v5.
// It is a module of its own so that the main module stays free of those dependencies. Run
//
//	go test -run '^$' -bench . -benchmem -count 5
//
// in this directory.
package benchcmp
