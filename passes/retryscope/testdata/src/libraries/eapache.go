package libraries

import (
	"context"
	"time"

	"github.com/eapache/go-resiliency/retrier"
)

func eapache(ctx context.Context) {
	retrier.New(retrier.ConstantBackoff(3, time.Second), nil).Run(op)                                                    // want `library-call cap=4 deadline=none waits=constant body`
	retrier.New(retrier.ExponentialBackoff(5, time.Second), nil).RunCtx(ctx, func(context.Context) error { return nil }) // want `library-call cap=6 deadline=caller's-context waits=deterministic-growth body`
	retrier.New(retrier.ConstantBackoff(3, time.Second), nil).WithInfiniteRetry().Run(op)                                // want `library-call cap=none deadline=none waits=constant body`
	retrier.New([]time.Duration{time.Second, 2 * time.Second}, nil).Run(op)                                              // want `library-call cap=3 deadline=none waits=deterministic-growth body`
	r := retrier.New(retrier.LimitedExponentialBackoff(4, time.Second, time.Minute), retrier.DefaultClassifier{})
	r.SetJitter(0.25)
	r.RunFn(context.Background(), func(context.Context, int) error { return nil }) // want `library-call cap=5 deadline=none waits=jittered body`
	retrier.New(nil, nil).Run(op)                                                  // no retries: no scope
	retrier.New(retrier.ConstantBackoff(0, time.Second), nil).Run(op)              // no retries: no scope
}

// eapacheFrom runs a retrier made elsewhere: its backoff is not known.
func eapacheFrom(r *retrier.Retrier) error {
	return r.Run(op) // want `library-call cap=unknown deadline=none waits=unknown body`
}
