package libraries

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	retrygo5 "github.com/avast/retry-go/v5"
	backoff4 "github.com/cenkalti/backoff/v4"
	backoff5 "github.com/cenkalti/backoff/v5"
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	sretry "github.com/sethvargo/go-retry"
	"k8s.io/apimachinery/pkg/util/wait"
	kretry "k8s.io/client-go/util/retry"
)

const endpoint = "https://api.example.com/payments"

func retryGo(c *http.Client) error {
	return retrygo.Do(func() error {
		req, err := http.NewRequest(http.MethodPost, endpoint, nil)
		if err != nil {
			return err
		}
		resp, err := c.Do(req) // want `POST \(\*http\.Client\)\.Do in retry\.Do has no idempotency key`
		if err != nil {
			return err
		}
		if resp.StatusCode >= 500 {
			return fmt.Errorf("status %d", resp.StatusCode)
		}
		return nil
	}, retrygo.Attempts(3))
}

func retryGo5() error {
	return retrygo5.New(retrygo5.Attempts(3)).Do(func() error {
		_, err := http.Post(endpoint, "application/json", nil) // want `POST http\.Post in \(\*retry\.Retrier\)\.Do has no idempotency key`
		return err
	})
}

func backoffV4() error {
	return backoff4.Retry(func() error {
		_, err := http.Post(endpoint, "", nil) // want `POST http\.Post in backoff\.Retry has no idempotency key`
		return err
	}, backoff4.WithMaxRetries(backoff4.NewExponentialBackOff(), 3))
}

func backoffV5(ctx context.Context) error {
	_, err := backoff5.Retry(ctx, func() (*http.Response, error) {
		return http.Post(endpoint, "", nil) // want `POST http\.Post in backoff\.Retry has no idempotency key`
	}, backoff5.WithMaxTries(3))
	return err
}

func sethvargo(ctx context.Context) error {
	b := sretry.WithMaxRetries(3, sretry.NewExponential(time.Second))
	return sretry.Do(ctx, b, func(ctx context.Context) error {
		if _, err := http.Post(endpoint, "", nil); err != nil { // want `POST http\.Post in retry\.Do has no idempotency key`
			return sretry.RetryableError(err)
		}
		return nil
	})
}

func failsafeGo() error {
	return failsafe.With[any](retrypolicy.NewWithDefaults[any]()).Run(func() error {
		_, err := http.Post(endpoint, "", nil) // want `POST http\.Post in \(failsafe\.Executor\)\.Run has no idempotency key`
		return err
	})
}

func k8sWait() error {
	return wait.ExponentialBackoff(wait.Backoff{Duration: time.Second, Factor: 2, Steps: 4}, func() (bool, error) {
		resp, err := http.Post(endpoint, "", nil) // want `POST http\.Post in wait\.ExponentialBackoff has no idempotency key`
		if err != nil {
			return false, nil
		}
		return resp.StatusCode < 500, nil
	})
}

func clientGoOnError() error {
	return kretry.OnError(kretry.DefaultBackoff, func(error) bool { return true }, func() error {
		_, err := http.Post(endpoint, "", nil) // want `POST http\.Post in retry\.OnError has no idempotency key`
		return err
	})
}

// A named operation declared in this package.
func createPayment() error {
	_, err := http.Post(endpoint, "", nil) // want `POST http\.Post in retry\.Do has no idempotency key`
	return err
}

func named() error { return retrygo.Do(createPayment, retrygo.Attempts(3)) }

// Negatives: the operation never repeats after the send.

func unrecoverable() error {
	return retrygo.Do(func() error {
		if err := dial(); err != nil {
			return err // retried: nothing was sent
		}
		if _, err := http.Post(endpoint, "", nil); err != nil {
			return retrygo.Unrecoverable(err)
		}
		return nil
	})
}

func permanent() error {
	return backoff4.Retry(func() error {
		_, err := http.Post(endpoint, "", nil)
		if err != nil {
			return backoff4.Permanent(err)
		}
		return nil
	}, backoff4.NewExponentialBackOff())
}

func dial() error { return nil }

func sethvargoNotRetryable(ctx context.Context) error {
	return sretry.Do(ctx, sretry.NewConstant(time.Second), func(ctx context.Context) error {
		if err := dial(); err != nil {
			return sretry.RetryableError(err)
		}
		_, err := http.Post(endpoint, "", nil)
		return err // not wrapped: sethvargo/go-retry does not retry it
	})
}

func k8sStops() error {
	return wait.ExponentialBackoff(wait.Backoff{Duration: time.Second, Steps: 4}, func() (bool, error) {
		if err := dial(); err != nil {
			return false, nil
		}
		if _, err := http.Post(endpoint, "", nil); err != nil {
			return false, err
		}
		return true, nil
	})
}

func k8sStopsWithNewError() error {
	return wait.ExponentialBackoff(wait.Backoff{Duration: time.Second, Steps: 4}, func() (bool, error) {
		resp, err := http.Post(endpoint, "", nil)
		if err != nil || resp.StatusCode >= 500 {
			return false, errors.New("create failed")
		}
		return true, nil
	})
}

func onConflict() error {
	return kretry.RetryOnConflict(kretry.DefaultRetry, func() error {
		_, err := http.Post(endpoint, "", nil)
		return err
	})
}
