package libraries

import (
	"context"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	"github.com/hashicorp/go-retryablehttp"
	"k8s.io/apimachinery/pkg/util/wait"

	idem "github.com/idemlint/idemlint/runtime/retry"
)

// A layer that makes one attempt is no scope (issue 47): none of these
// reports one.
func oneAttempt(ctx context.Context) {
	retrygo.Do(op, retrygo.Attempts(1))
	opts := []retrygo.Option{retrygo.Delay(time.Second)}
	opts = append(opts, retrygo.Attempts(1))
	retrygo.Do(op, opts...)
	wait.ExponentialBackoff(wait.Backoff{Duration: time.Second, Steps: 1}, func() (bool, error) { return true, nil })
	_ = idem.Do(ctx, idem.Policy{MaxAttempts: 1}, func(context.Context) error { return nil })
	c := retryablehttp.NewClient()
	c.RetryMax = 0
	_ = c
}

// single holds a client stored in a field and turned off after.
type single struct {
	rc *retryablehttp.Client
}

func newSingle() *single {
	s := &single{rc: retryablehttp.NewClient()}
	s.rc.RetryMax = 0
	return s
}

// stored, set to 3 after it is stored: 4 attempts.
type stored struct {
	rc *retryablehttp.Client
}

func newStored() *stored {
	s := &stored{rc: retryablehttp.NewClient()} // want `retrying-client cap=4 deadline=none waits=deterministic-growth nobody`
	s.rc.RetryMax = 3
	return s
}
