package libraries

import (
	"context"

	retrygo3 "github.com/avast/retry-go"
)

func avastV3(ctx context.Context) {
	retrygo3.Do(op)                                                                                         // want `library-call cap=10 deadline=none waits=jittered body`
	retrygo3.Do(op, retrygo3.Attempts(3), retrygo3.Context(ctx))                                            // want `library-call cap=3 deadline=caller's-context waits=jittered body`
	retrygo3.Do(op, retrygo3.DelayType(retrygo3.FixedDelay))                                                // want `library-call cap=10 deadline=none waits=constant body`
	retrygo3.Do(op, retrygo3.DelayType(retrygo3.CombineDelay(retrygo3.BackOffDelay, retrygo3.RandomDelay))) // want `library-call cap=10 deadline=none waits=jittered body`
	retrygo3.Do(op, retrygo3.Attempts(0))                                                                   // v3 makes no attempt: no scope
	opts := []retrygo3.Option{retrygo3.Attempts(2)}
	retrygo3.Do(op, opts...) // want `library-call cap=2 deadline=none waits=jittered body`
}
