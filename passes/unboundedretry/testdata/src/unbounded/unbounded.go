package unbounded

import (
	"context"
	"errors"
	"math/rand"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	backoff4 "github.com/cenkalti/backoff/v4"
	backoff5 "github.com/cenkalti/backoff/v5"
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	sretry "github.com/sethvargo/go-retry"
)

func op() error                       { return nil }
func opCtx(ctx context.Context) error { return nil }
func opData() (int, error)            { return 0, nil }
func jitter() time.Duration           { return time.Duration(rand.Int63n(int64(time.Second))) }

func forever() error {
	for { // want `retry loop has no attempt cap and no deadline; cap it and set a deadline, or use retry\.Do`
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(jitter())
	}
}

func whileErr() {
	err := op()
	for err != nil { // want `retry loop has no attempt cap and no deadline`
		time.Sleep(jitter())
		err = op()
	}
}

func neverIncremented() error {
	attempts := 0
	for { // want `retry loop has no attempt cap and no deadline`
		err := op()
		if err == nil {
			return nil
		}
		if attempts > 3 {
			return err
		}
		time.Sleep(jitter())
	}
}

func callerOnly(ctx context.Context) error {
	for { // caller's context only: reported under -strict-context
		err := opCtx(ctx)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jitter()):
		}
	}
}

func libraries(ctx context.Context) {
	retrygo.Do(op, retrygo.Attempts(0))                                          // want `retry\.Do has no attempt cap and no deadline; pass retry\.Attempts\(n > 0\) and a retry\.Context with a deadline`
	retrygo.Do(op, retrygo.UntilSucceeded())                                     // want `retry\.Do has no attempt cap and no deadline`
	backoff4.Retry(op, &backoff4.ExponentialBackOff{})                           // want `backoff\.Retry has no attempt cap and no deadline; wrap the backoff in backoff\.WithMaxRetries, keep MaxElapsedTime`
	backoff5.Retry(context.Background(), opData, backoff5.WithMaxElapsedTime(0)) // want `backoff\.Retry has no attempt cap and no deadline`
	p := retrypolicy.NewBuilder[any]().WithMaxRetries(-1).Build()
	failsafe.With[any](p).Run(op)                                                 // want `\(failsafe\.Executor\)\.Run has no attempt cap and no deadline`
	sretry.Constant(ctx, time.Second, func(context.Context) error { return nil }) // caller's context
}

// Negatives: bounded in some way.

func capped() error {
	var err error
	for i := 0; i < 5; i++ {
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(jitter())
	}
	return err
}

func counted() error {
	attempts := 0
	for {
		err := op()
		if err == nil {
			return nil
		}
		attempts++
		if attempts == 4 {
			return err
		}
		time.Sleep(jitter())
	}
}

func deadline(parent context.Context) error {
	ctx, cancel := context.WithTimeout(parent, 10*time.Second)
	defer cancel()
	for {
		err := opCtx(ctx)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jitter()):
		}
	}
}

func clock() error {
	deadline := time.Now().Add(time.Minute)
	for {
		err := op()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return err
		}
		time.Sleep(jitter())
	}
}

func unknownStop(done func() bool) error {
	for {
		err := op()
		if err == nil || done() {
			return err
		}
		time.Sleep(jitter())
	}
}

func libraryDefaults(ctx context.Context) {
	retrygo.Do(op)                                                 // 10 attempts
	backoff4.Retry(op, backoff4.NewExponentialBackOff())           // 15 minutes
	backoff5.Retry(ctx, opData)                                    // 15 minutes
	failsafe.With[any](retrypolicy.NewWithDefaults[any]()).Run(op) // 3 attempts
}

func poller() {
	for {
		if err := op(); err != nil {
			time.Sleep(time.Second)
			continue
		}
		time.Sleep(time.Minute)
	}
}

var errGaveUp = errors.New("gave up")
