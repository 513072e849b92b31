package libraries

import (
	"context"
	"net/http"
	"sender"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	retrygo5 "github.com/avast/retry-go/v5"
	backoff4 "github.com/cenkalti/backoff/v4"
	backoff5 "github.com/cenkalti/backoff/v5"
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	"github.com/google/uuid"
	sretry "github.com/sethvargo/go-retry"
	"k8s.io/apimachinery/pkg/util/wait"
	kretry "k8s.io/client-go/util/retry"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

func retryGo(req *http.Request) error {
	err := retrygo.Do(func() error {
		req.Header.Set("Idempotency-Key", uuid.NewString()) // want `uuid\.NewString mints a new key for the Idempotency-Key header on every attempt of retry\.Do`
		return sender.Send(req)
	}, retrygo.Attempts(3))
	if err != nil {
		return err
	}
	key := uuid.NewString()
	return retrygo.Do(func() error {
		req.Header.Set("Idempotency-Key", key)
		return sender.Send(req)
	}, retrygo.Attempts(3))
}

func retryGo5(req *http.Request) error {
	return retrygo5.New(retrygo5.Attempts(3)).Do(func() error {
		req.Header.Set("Idempotency-Key", idempotency.NewKey()) // want `idempotency\.NewKey mints a new key for the Idempotency-Key header on every attempt`
		return sender.Send(req)
	})
}

func backoffV4(req *http.Request) error {
	return backoff4.Retry(func() error {
		k := uuid.New() // want `uuid\.New mints a new key for the Idempotency-Key header on every attempt of backoff\.Retry`
		req.Header.Set("Idempotency-Key", k.String())
		return sender.Send(req)
	}, backoff4.WithMaxRetries(backoff4.NewExponentialBackOff(), 3))
}

func backoffV5(ctx context.Context, req *http.Request) error {
	_, err := backoff5.Retry(ctx, func() (int, error) {
		req.Header.Set("Idempotency-Key", uuid.NewString()) // want `uuid\.NewString mints a new key for the Idempotency-Key header on every attempt`
		return 0, sender.Send(req)
	}, backoff5.WithMaxTries(3))
	return err
}

func sethvargo(ctx context.Context, req *http.Request) error {
	b := sretry.WithMaxRetries(3, sretry.NewExponential(time.Second))
	return sretry.Do(ctx, b, func(ctx context.Context) error {
		req.Header.Set("Idempotency-Key", uuid.NewString()) // want `uuid\.NewString mints a new key for the Idempotency-Key header on every attempt of retry\.Do`
		if err := sender.Send(req); err != nil {
			return sretry.RetryableError(err)
		}
		return nil
	})
}

func failsafeGo(req *http.Request) error {
	return failsafe.With[any](retrypolicy.NewWithDefaults[any]()).Run(func() error {
		req.Header.Set("Idempotency-Key", uuid.NewString()) // want `uuid\.NewString mints a new key for the Idempotency-Key header on every attempt`
		return sender.Send(req)
	})
}

func k8s(req *http.Request) error {
	err := wait.ExponentialBackoff(wait.Backoff{Duration: time.Second, Factor: 2, Steps: 4}, func() (bool, error) {
		req.Header.Set("Idempotency-Key", uuid.NewString()) // want `uuid\.NewString mints a new key for the Idempotency-Key header on every attempt`
		return sender.Send(req) == nil, nil
	})
	if err != nil {
		return err
	}
	return kretry.OnError(kretry.DefaultBackoff, func(error) bool { return true }, func() error {
		req.Header.Set("Idempotency-Key", uuid.NewString()) // want `uuid\.NewString mints a new key for the Idempotency-Key header on every attempt`
		return sender.Send(req)
	})
}

// A named operation declared in this package: its body is the retried code.
type payer struct{ req *http.Request }

func (p *payer) pay() error {
	p.req.Header.Set("Idempotency-Key", uuid.NewString()) // want `uuid\.NewString mints a new key for the Idempotency-Key header on every attempt of retry\.Do`
	return sender.Send(p.req)
}

func named(p *payer) error {
	return retrygo.Do(p.pay, retrygo.Attempts(3))
}

// The library is only called once per item of a batch, with its key: fine.
func batch(reqs []*http.Request) error {
	for _, req := range reqs {
		key := uuid.NewString()
		if err := retrygo.Do(func() error {
			req.Header.Set("Idempotency-Key", key)
			return sender.Send(req)
		}); err != nil {
			return err
		}
	}
	return nil
}
