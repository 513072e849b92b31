package libraries

import (
	"time"

	retrygo "github.com/avast/retry-go/v4"
	backoff5 "github.com/cenkalti/backoff/v5"
)

func optionsInSlice() {
	opts := []retrygo.Option{retrygo.Attempts(0), retrygo.Delay(time.Second), retrygo.DelayType(retrygo.FixedDelay)}
	retrygo.Do(op, opts...) // want `library-call cap=none deadline=none waits=constant body`
}

// options appended to a slice are listed (issue 47)
func optionsInSliceBounded() {
	opts := []retrygo.Option{retrygo.Attempts(3)}
	retrygo.Do(op, append(opts, retrygo.Delay(time.Second))...) // want `library-call cap=3 deadline=none waits=jittered body`
}

var attemptsOpt = func(n uint) retrygo.Option { return retrygo.Attempts(n) }

func optionThroughFuncValue() {
	retrygo.Do(op, attemptsOpt(0)) // want `library-call cap=unknown deadline=unknown waits=unknown body`
}

func v5OptionsInSlice() {
	opts := []backoff5.RetryOption{backoff5.WithMaxTries(3)}
	backoff5.Retry(nil, func() (int, error) { return 0, op() }, opts...) // want `library-call cap=3 deadline=library-max-elapsed-time waits=jittered body`
}
