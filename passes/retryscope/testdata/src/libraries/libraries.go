package libraries

import (
	"context"
	"net/http"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	retrygo5 "github.com/avast/retry-go/v5"
	backoff4 "github.com/cenkalti/backoff/v4"
	backoff5 "github.com/cenkalti/backoff/v5"
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	"github.com/hashicorp/go-retryablehttp"
	jbackoff "github.com/jpillora/backoff"
	sretry "github.com/sethvargo/go-retry"
	"k8s.io/apimachinery/pkg/util/wait"
	kretry "k8s.io/client-go/util/retry"

	idem "github.com/idemlint/idemlint/runtime/retry"
)

func op() error { return nil }

func opData() (int, error) { return 0, nil }

func (s *svc) call() error { return nil }

type svc struct{}

func avast(ctx context.Context, s *svc) {
	retrygo.Do(op)                                                                                     // want `library-call cap=10 deadline=none waits=jittered body`
	retrygo.Do(op, retrygo.Attempts(0))                                                                // want `library-call cap=none deadline=none waits=jittered body`
	retrygo.Do(func() error { return nil }, retrygo.UntilSucceeded())                                  // want `library-call cap=none deadline=none waits=jittered body`
	retrygo.Do(s.call, retrygo.Attempts(3), retrygo.Context(ctx))                                      // want `library-call cap=3 deadline=caller's-context waits=jittered body`
	retrygo.Do(op, retrygo.DelayType(retrygo.FixedDelay))                                              // want `library-call cap=10 deadline=none waits=constant body`
	retrygo.Do(op, retrygo.DelayType(retrygo.BackOffDelay))                                            // want `library-call cap=10 deadline=none waits=deterministic-growth body`
	retrygo.Do(op, retrygo.DelayType(retrygo.CombineDelay(retrygo.BackOffDelay, retrygo.RandomDelay))) // want `library-call cap=10 deadline=none waits=jittered body`
	retrygo.DoWithData(opData, retrygo.Attempts(2))                                                    // want `library-call cap=2 deadline=none waits=jittered body`
	opts := []retrygo.Option{retrygo.Attempts(0)}
	retrygo.Do(op, opts...)                   // want `library-call cap=none deadline=none waits=jittered body`
	retrygo5.New(retrygo5.Attempts(0)).Do(op) // want `library-call cap=none deadline=none waits=jittered body`
	r := retrygo5.New(retrygo5.Attempts(4))
	r.Do(op) // want `library-call cap=4 deadline=none waits=jittered body`
}

func cenkalti(ctx context.Context) {
	backoff4.Retry(op, backoff4.NewExponentialBackOff())                                     // want `library-call cap=none deadline=library-max-elapsed-time waits=jittered body`
	backoff4.Retry(op, &backoff4.ExponentialBackOff{InitialInterval: time.Second})           // want `library-call cap=none deadline=none waits=deterministic-growth body`
	backoff4.Retry(op, backoff4.WithMaxRetries(backoff4.NewConstantBackOff(time.Second), 3)) // want `library-call cap=4 deadline=none waits=constant body`
	b := backoff4.NewExponentialBackOff()
	b.RandomizationFactor = 0
	b.MaxElapsedTime = 0
	backoff4.Retry(op, backoff4.WithContext(b, ctx))                                   // want `library-call cap=none deadline=caller's-context waits=deterministic-growth body`
	backoff4.Retry(op, backoff4.NewExponentialBackOff(backoff4.WithMaxElapsedTime(0))) // want `library-call cap=none deadline=none waits=jittered body`

	backoff5.Retry(ctx, opData)                                                                 // want `library-call cap=none deadline=library-max-elapsed-time waits=jittered body`
	backoff5.Retry(ctx, opData, backoff5.WithMaxTries(5), backoff5.WithMaxElapsedTime(0))       // want `library-call cap=5 deadline=caller's-context waits=jittered body`
	backoff5.Retry(context.Background(), opData, backoff5.WithMaxElapsedTime(0))                // want `library-call cap=none deadline=none waits=jittered body`
	backoff5.Retry(ctx, opData, backoff5.WithBackOff(backoff5.NewConstantBackOff(time.Second))) // want `library-call cap=none deadline=library-max-elapsed-time waits=constant body`
}

func sethvargoRetry(ctx context.Context) {
	do := func(ctx context.Context) error { return nil }
	sretry.Do(ctx, sretry.NewFibonacci(time.Second), do) // want `library-call cap=none deadline=caller's-context waits=deterministic-growth body`
	b := sretry.NewExponential(100 * time.Millisecond)
	b = sretry.WithMaxRetries(3, b)
	b = sretry.WithJitterPercent(10, b)
	sretry.Do(ctx, b, do)                                                                    // want `library-call cap=4 deadline=caller's-context waits=jittered body`
	sretry.Do(ctx, sretry.WithMaxDuration(time.Minute, sretry.NewConstant(time.Second)), do) // want `library-call cap=none deadline=library-max-elapsed-time waits=constant body`
	sretry.Constant(ctx, time.Second, do)                                                    // want `library-call cap=none deadline=caller's-context waits=constant body`
}

func k8s(ctx context.Context) {
	cond := func() (bool, error) { return true, nil }
	wait.ExponentialBackoff(wait.Backoff{Duration: time.Second, Factor: 2, Steps: 5}, cond)                                                              // want `library-call cap=5 deadline=none waits=deterministic-growth body`
	wait.ExponentialBackoff(wait.Backoff{Duration: time.Second, Factor: 2, Jitter: 0.1, Steps: 5}, cond)                                                 // want `library-call cap=5 deadline=none waits=jittered body`
	wait.ExponentialBackoff(wait.Backoff{Duration: time.Second}, cond)                                                                                   // Steps 0: never called, no scope
	wait.ExponentialBackoffWithContext(ctx, wait.Backoff{Duration: time.Second, Steps: 3}, func(ctx context.Context) (bool, error) { return true, nil }) // want `library-call cap=3 deadline=caller's-context waits=constant body`
	kretry.RetryOnConflict(kretry.DefaultRetry, op)                                                                                                      // want `library-call cap=5 deadline=none waits=jittered body`
	kretry.OnError(kretry.DefaultBackoff, func(error) bool { return true }, op)                                                                          // want `library-call cap=4 deadline=none waits=jittered body`
	wait.PollUntilContextTimeout(ctx, time.Second, time.Minute, true, func(ctx context.Context) (bool, error) { return true, nil })
	wait.Until(func() {}, time.Second, ctx.Done())
}

func failsafeGo() {
	failsafe.With[any](retrypolicy.NewWithDefaults[any]()).Run(op) // want `library-call cap=3 deadline=none waits=none body`
	p := retrypolicy.NewBuilder[any]().WithMaxRetries(-1).WithBackoff(time.Second, time.Minute).Build()
	failsafe.With[any](p).Run(op) // want `library-call cap=none deadline=none waits=deterministic-growth body`
	q := retrypolicy.NewBuilder[any]().WithMaxAttempts(4).WithBackoff(time.Second, time.Minute).WithJitterFactor(0.2).WithMaxDuration(time.Minute).Build()
	failsafe.With[any](q).Run(op) // want `library-call cap=4 deadline=library-max-elapsed-time waits=jittered body`
}

func retryableHTTP() {
	c := retryablehttp.NewClient() // want `retrying-client cap=5 deadline=none waits=deterministic-growth nobody`
	c.Get("http://example.com")
	d := retryablehttp.NewClient() // want `retrying-client cap=3 deadline=none waits=jittered nobody`
	d.RetryMax = 2
	d.Backoff = retryablehttp.LinearJitterBackoff
	_ = &retryablehttp.Client{RetryMax: 2} // want `retrying-client cap=3 deadline=none waits=unknown nobody`
	_ = &retryablehttp.Client{}
	retryablehttp.Post("http://example.com", "application/json", nil) // want `retrying-client cap=5 deadline=none waits=deterministic-growth nobody`
	_ = http.MethodPost
}

func delayCalculators() error {
	b := &jbackoff.Backoff{Min: 100 * time.Millisecond, Max: 10 * time.Second}
	for { // want `loop cap=none deadline=none waits=deterministic-growth body`
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(b.Duration())
	}
}

func delayCalculatorsJitter() error {
	b := &jbackoff.Backoff{Min: 100 * time.Millisecond, Max: 10 * time.Second, Jitter: true}
	for { // want `loop cap=5 deadline=none waits=jittered body`
		err := op()
		if err == nil {
			return nil
		}
		if b.Attempt() >= 5 {
			return err
		}
		time.Sleep(b.Duration())
	}
}

func nextBackOff() error {
	b := backoff4.NewExponentialBackOff()
	for { // want `loop cap=none deadline=library-max-elapsed-time waits=jittered body`
		err := op()
		if err == nil {
			return nil
		}
		d := b.NextBackOff()
		if d == backoff4.Stop {
			return err
		}
		time.Sleep(d)
	}
}

func idemlintRetry(ctx context.Context, n int) {
	idem.Do(ctx, idem.Policy{}, func(context.Context) error { return nil })                              // want `library-call cap=4 deadline=library-max-elapsed-time waits=jittered body`
	idem.Do(ctx, idem.Policy{MaxAttempts: 6}, func(context.Context) error { return nil })                // want `library-call cap=6 deadline=library-max-elapsed-time waits=jittered body`
	idem.DoValue(ctx, idem.Policy{MaxAttempts: n}, func(context.Context) (int, error) { return 0, nil }) // want `library-call cap=bounded deadline=library-max-elapsed-time waits=jittered body`
}

// A client made at package level is a scope too.
var pkgClient = retryablehttp.NewClient() // want `retrying-client cap=5 deadline=none waits=deterministic-growth nobody`

func listItems(ctx context.Context) ([]string, error) { return nil, nil }

// A poll whose condition swallows a failed call retries it at the
// interval, with no cap; the caller's context bounds it.
func pollRetry(ctx context.Context) {
	var items []string
	_ = wait.PollUntilContextCancel(ctx, time.Second, true, func(ctx context.Context) (bool, error) { // want `library-call cap=none deadline=caller.s-context waits=constant body`
		var err error
		items, err = listItems(ctx)
		if err != nil {
			return false, nil
		}
		return true, nil
	})
	_ = items
}

// Look-alike: a short wait with a timeout, for something to be ready.
func pollRetryTimeout(ctx context.Context) {
	_ = wait.PollUntilContextTimeout(ctx, time.Second, time.Minute, false, func(ctx context.Context) (bool, error) {
		if _, err := listItems(ctx); err != nil {
			return false, nil
		}
		return true, nil
	})
}

// Look-alikes: a poll for a state, and one whose failures end the poll.
func pollState(ctx context.Context) {
	_ = wait.PollUntilContextCancel(ctx, time.Second, true, func(ctx context.Context) (bool, error) {
		items, err := listItems(ctx)
		if err != nil {
			return false, err
		}
		return len(items) > 0, nil
	})
}

func addWatch(path string) error { return nil }

// Look-alike: the swallowed failure is a local call that takes no context.
func pollLocal(ctx context.Context) {
	_ = wait.PollUntilContextCancel(ctx, time.Second, true, func(ctx context.Context) (bool, error) {
		if err := addWatch("/etc/certs"); err != nil {
			return false, nil
		}
		return true, nil
	})
}
