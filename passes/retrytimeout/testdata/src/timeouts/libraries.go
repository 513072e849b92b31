package timeouts

import (
	"context"
	"net/http"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	backoff "github.com/cenkalti/backoff/v4"
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	"github.com/idemlint/idemlint/runtime/retry"
	sretry "github.com/sethvargo/go-retry"
)

// Positives in retry library operations.

func retryGo(url string) error {
	return retrygo.Do(func() error {
		return check(http.Get(url)) // want `http\.Get in a retry can hang: no client Timeout, no context deadline`
	}, retrygo.Attempts(3))
}

func retryGoContextNotPropagated(url string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequest("GET", url, nil) // the retry's deadline does not reach the request
	return retrygo.Do(func() error {
		return check(http.DefaultClient.Do(req)) // want `\(\*http\.Client\)\.Do in a retry can hang: no client Timeout, no context deadline`
	}, retrygo.Context(ctx))
}

func cenkalti(url string) error {
	client := &http.Client{}
	op := func() error {
		return check(client.Get(url)) // want `\(\*http\.Client\)\.Get in a retry can hang: no client Timeout, no context deadline`
	}
	return backoff.Retry(op, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3))
}

func fetch(url string) error {
	return check(http.Head(url)) // not followed: the check reads only the retry's own body
}

func namedOperation(url string) error {
	return backoff.Retry(func() error { return fetch(url) }, backoff.NewExponentialBackOff())
}

func namedOperationValue() error {
	return backoff.Retry(fetchDefault, backoff.NewExponentialBackOff())
}

func fetchDefault() error {
	return check(http.Get("https://example.com")) // want `http\.Get in a retry can hang: no client Timeout, no context deadline`
}

func failsafeGo(url string) error {
	p := retrypolicy.NewBuilder[any]().WithMaxRetries(3).Build()
	return failsafe.With[any](p).Run(func() error {
		return check(http.Get(url)) // want `http\.Get in a retry can hang: no client Timeout, no context deadline`
	})
}

func runtimeRetryGet(ctx context.Context, url string) error {
	// AttemptTimeout gives op a context with a deadline, but http.Get ignores it.
	return retry.Do(ctx, retry.Policy{AttemptTimeout: time.Second}, func(ctx context.Context) error {
		return check(http.Get(url)) // want `http\.Get in a retry can hang: no client Timeout, no context deadline`
	})
}

// Look-alikes in retry library operations: not reported.

func runtimeRetryAttemptTimeout(ctx context.Context, url string) error {
	return retry.Do(ctx, retry.Policy{AttemptTimeout: time.Second}, func(ctx context.Context) error {
		req, _ := http.NewRequestWithContext(ctx, "GET", url, nil) // the per-attempt context
		return check(http.DefaultClient.Do(req))
	})
}

func sethvargo(ctx context.Context, url string) error {
	return sretry.Do(ctx, sretry.WithMaxRetries(3, sretry.NewExponential(time.Second)), func(ctx context.Context) error {
		req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
		return check(http.DefaultClient.Do(req))
	})
}

func retryTransport(url string) error {
	client := &http.Client{Transport: retry.NewTransport(nil, retry.Policy{AttemptTimeout: 2 * time.Second})}
	return retrygo.Do(func() error {
		return check(client.Get(url))
	}, retrygo.Attempts(2))
}

func perAttemptInLibrary(url string) error {
	return retrygo.Do(func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
		return check(http.DefaultClient.Do(req))
	}, retrygo.Attempts(3))
}
