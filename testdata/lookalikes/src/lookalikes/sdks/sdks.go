// Package sdks holds calls to SDKs that retry by themselves, done right: one
// layer (the SDK's, or the caller's with the SDK's retries turned off by a
// setting written where real code writes it), keys set once, jittered
// library backoffs, and polls that stop on a failure.
package sdks

import (
	"context"
	"errors"
	"time"

	avast "github.com/avast/retry-go/v4"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/google/uuid"
	stripe "github.com/stripe/stripe-go/v85"
	"k8s.io/apimachinery/pkg/util/wait"
	k8sretry "k8s.io/client-go/util/retry"
)

// LaunchNoSDKRetries turns the SDK's retries off on the loaded config,
// after loading it, and retries in its own layer with the launch's client
// token set once.
//
// lookalike nestedretry passes/nestedretry/testdata/src/awscase/awscase.go: an AWS client that retries by itself inside a retry
func LaunchNoSDKRetries(ctx context.Context, in *ec2.RunInstancesInput) error {
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return err
	}
	cfg.RetryMaxAttempts = 1
	client := ec2.NewFromConfig(cfg)
	in.ClientToken = aws.String(uuid.NewString())
	return avast.Do(func() error {
		_, err := client.RunInstances(ctx, in)
		return err
	}, avast.Attempts(3), avast.Context(ctx))
}

// noSDKRetries is the client option every call of the package passes.
var noSDKRetries = func(o *ec2.Options) { o.Retryer = aws.NopRetryer{} }

// Terminate retries in its own layer; the client's option is a variable.
//
// lookalike nestedretry passes/nestedretry/testdata/src/awscase/awscase.go: an AWS call with its default retryer inside a retry
func Terminate(ctx context.Context, cfg aws.Config, in *ec2.TerminateInstancesInput) error {
	client := ec2.NewFromConfig(cfg, noSDKRetries)
	return avast.Do(func() error {
		_, err := client.TerminateInstances(ctx, in)
		return err
	}, avast.Attempts(3), avast.Context(ctx))
}

// LaunchOnce lets the SDK be the one layer: its retryer is jittered and
// capped, and nothing retries around it.
//
// lookalike nestedretry,nojitter passes/nestedretry/testdata/src/awscase/awscase.go: a hand-written retry around an AWS call
func LaunchOnce(ctx context.Context, cfg aws.Config, in *ec2.RunInstancesInput) (*ec2.RunInstancesOutput, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return ec2.NewFromConfig(cfg).RunInstances(ctx, in)
}

// stripeNoRetries returns a stripe client whose backend makes one attempt.
func stripeNoRetries(key string) *stripe.Client {
	cfg := &stripe.BackendConfig{}
	cfg.MaxNetworkRetries = stripe.Int64(0)
	return stripe.NewClient(key, stripe.WithBackends(stripe.NewBackendsWithConfig(cfg)))
}

// CreateIntent retries in its own layer with stripe's retries off (set on
// the config after building it, in a helper), keyed once.
//
// lookalike nestedretry,unkeyedpost passes/nestedretry/testdata/src/stripecase/stripecase.go: stripe's own retries inside a retry
func CreateIntent(ctx context.Context, key, orderID string) (*stripe.PaymentIntent, error) {
	sc := stripeNoRetries(key)
	params := &stripe.PaymentIntentCreateParams{Amount: stripe.Int64(100)}
	params.SetIdempotencyKey("order-" + orderID)
	return avast.DoWithData(func() (*stripe.PaymentIntent, error) {
		return sc.V1PaymentIntents.Create(ctx, params)
	}, avast.Attempts(3), avast.Context(ctx))
}

// UpdateOnConflict retries a read-modify-write with client-go's
// DefaultRetry, which is jittered and capped.
//
// lookalike nojitter k8s-consistency-nojitter: a constant-interval retry of a failed read
func UpdateOnConflict(get func() (string, error), update func(string) error) error {
	return k8sretry.RetryOnConflict(k8sretry.DefaultRetry, func() error {
		v, err := get()
		if err != nil {
			return err
		}
		return update(v)
	})
}

// Backoff retries with a jittered, capped wait.Backoff.
//
// lookalike nojitter,unboundedretry k8s-consistency-nojitter: a wait.Backoff with no jitter
func Backoff(ctx context.Context, list func(context.Context) error) error {
	b := wait.Backoff{Duration: 100 * time.Millisecond, Factor: 2, Jitter: 0.2, Steps: 6, Cap: 5 * time.Second}
	return wait.ExponentialBackoffWithContext(ctx, b, func(ctx context.Context) (bool, error) {
		if err := list(ctx); err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				return false, nil
			}
			return false, err
		}
		return true, nil
	})
}

// WaitSynced polls a cache for a state, with a timeout: a failed read
// ends the poll, it is not retried.
//
// lookalike nojitter,nestedretry k8s-consistency-nested: a poll whose condition retries failed LISTs at a constant interval
func WaitSynced(ctx context.Context, synced func(context.Context) (bool, error)) error {
	return wait.PollUntilContextTimeout(ctx, time.Second, time.Minute, true, func(ctx context.Context) (bool, error) {
		return synced(ctx)
	})
}

// Resync runs a periodic resync with jitter until ctx ends: a periodic
// task, no retry.
//
// lookalike nojitter,unboundedretry metadata-subscribe-nojitter: a watch loop re-run at a constant interval
func Resync(ctx context.Context, resync func(context.Context)) {
	wait.JitterUntilWithContext(ctx, resync, 30*time.Second, 0.1, true)
}
