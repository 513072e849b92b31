package libraries

import (
	"context"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	backoff4 "github.com/cenkalti/backoff/v4"
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	"github.com/hashicorp/go-retryablehttp"
	sretry "github.com/sethvargo/go-retry"
	"k8s.io/apimachinery/pkg/util/wait"
)

func op() error { return nil }

func bad(ctx context.Context) {
	retrygo.Do(op, retrygo.DelayType(retrygo.FixedDelay))   // want `constant wait without jitter \(retry\.FixedDelay\); use the default DelayType or retry\.FullJitterBackoffDelay`
	retrygo.Do(op, retrygo.DelayType(retrygo.BackOffDelay)) // want `deterministic backoff without jitter \(retry.BackOffDelay\)`
	b := backoff4.NewExponentialBackOff()
	b.RandomizationFactor = 0 // want `deterministic backoff without jitter \(RandomizationFactor = 0\)`
	backoff4.Retry(op, b)
	backoff4.Retry(op, backoff4.NewConstantBackOff(time.Second))                                                                 // want `constant wait without jitter \(backoff.NewConstantBackOff\)`
	sretry.Do(ctx, sretry.WithMaxRetries(3, sretry.NewExponential(time.Second)), func(context.Context) error { return nil })     // want `deterministic backoff without jitter \(retry\.NewExponential\); wrap it in retry\.WithJitterPercent or retry\.WithFullJitter`
	wait.ExponentialBackoff(wait.Backoff{Duration: time.Second, Factor: 2, Steps: 4}, func() (bool, error) { return true, nil }) // want `deterministic backoff without jitter \(wait.Backoff without Jitter\)`
	c := retryablehttp.NewClient()                                                                                               // want `deterministic backoff without jitter \(retryablehttp.DefaultBackoff\).*retryablehttp.LinearJitterBackoff`
	_ = c
	failsafe.With[any](retrypolicy.NewWithDefaults[any]()).Run(op)                      // want `\(failsafe\.Executor\)\.Run retries with no wait \(failsafe-go's default\)`
	p := retrypolicy.NewBuilder[any]().WithMaxRetries(3).WithDelay(time.Second).Build() // want `constant wait without jitter \(retrypolicy WithDelay\)`
	failsafe.With[any](p).Run(op)
}

func good(ctx context.Context) {
	retrygo.Do(op)
	retrygo.Do(op, retrygo.DelayType(retrygo.CombineDelay(retrygo.BackOffDelay, retrygo.RandomDelay)))
	backoff4.Retry(op, backoff4.NewExponentialBackOff())
	sretry.Do(ctx, sretry.WithJitterPercent(10, sretry.NewExponential(time.Second)), func(context.Context) error { return nil })
	wait.ExponentialBackoff(wait.Backoff{Duration: time.Second, Factor: 2, Jitter: 0.2, Steps: 4}, func() (bool, error) { return true, nil })
	c := retryablehttp.NewClient()
	c.Backoff = retryablehttp.LinearJitterBackoff
	p := retrypolicy.NewBuilder[any]().WithMaxRetries(3).WithBackoff(time.Second, time.Minute).WithJitterFactor(0.5).Build()
	failsafe.With[any](p).Run(op)
	wait.PollUntilContextTimeout(ctx, time.Second, time.Minute, true, func(context.Context) (bool, error) { return true, nil })
}

// A client of the package, made at package level, keeps the default backoff.
var pkgClient = retryablehttp.NewClient() // want `deterministic backoff without jitter \(retryablehttp.DefaultBackoff\)`

// One whose backoff init sets is fine.
var tunedClient = retryablehttp.NewClient()

func init() { tunedClient.Backoff = retryablehttp.LinearJitterBackoff }

func listAll(ctx context.Context) error { return nil }

// A poll that retries a failed LIST every second, in lockstep.
func pollList(ctx context.Context) {
	_ = wait.PollUntilContextCancel(ctx, time.Second, true, func(ctx context.Context) (bool, error) { // want `constant wait without jitter \(the poll interval\); retry with wait.ExponentialBackoffWithContext and a jittered Backoff`
		if err := listAll(ctx); err != nil {
			return false, nil
		}
		return true, nil
	})
}
