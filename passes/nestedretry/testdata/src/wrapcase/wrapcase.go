// Package wrapcase: gcrane's backoffErrors(bo, f) hands f to retry.Retry,
// which hands a closure calling it to wait.ExponentialBackoff: a call of
// backoffErrors is a retry whose operation is the closure passed. A push
// through remote.Write there retries at two layers; a read that does not
// retry, a function that runs its func once, and a loop over items are
// one layer.
package wrapcase

import (
	"time"

	"wrapcase/google"
	"wrapcase/remote"
	"wrapcase/retry"
)

func gcrBackoff() retry.Backoff {
	return retry.Backoff{Duration: 6 * time.Second, Factor: 10, Steps: 3}
}

func backoffErrors(bo retry.Backoff, f func() error) error {
	p := func(err error) bool { return err != nil }
	return retry.Retry(f, p, bo)
}

type copier struct{ dst string }

func (c *copier) copyImages(ref string) error {
	return remote.Write(c.dst + "/" + ref)
}

func (c *copier) copyAll(refs []string) error {
	for _, ref := range refs {
		if err := backoffErrors(gcrBackoff(), func() error {
			return c.copyImages(ref) // want `\(\*wrapcase\.copier\)\.copyImages reaches retry loop (in wait\.ExponentialBackoff )?inside backoffErrors; retry in one layer only`
		}); err != nil {
			return err
		}
	}
	return nil
}

func direct(ref string) error {
	return retry.Retry(func() error {
		return remote.Write(ref) // want `remote\.Write reaches retry loop in wait\.ExponentialBackoff inside retry\.Retry; retry in one layer only`
	}, retry.IsNotNil, gcrBackoff())
}

// readOnly: the operation reads once; one layer.
func readOnly(ref string) error {
	return backoffErrors(gcrBackoff(), func() error {
		return remote.Get(ref)
	})
}

// once: retry.Once runs its func a single time; no outer layer.
func once(ref string) error {
	return retry.Once(func() error {
		return remote.Write(ref)
	})
}

// sequential: two retries one after the other.
func sequential(ref string) error {
	if err := remote.Write(ref); err != nil {
		return err
	}
	return backoffErrors(gcrBackoff(), func() error { return remote.Get(ref) })
}

// relist re-lists under backoffErrors: each List already retries in its
// client's transport (transport.NewRetry), two layers.
func relist(url string) error {
	return backoffErrors(gcrBackoff(), func() error {
		return google.List(url) // want `google\.List reaches \(\*http\.Client\)\.Do, which retries by itself inside backoffErrors; retry in one layer only`
	})
}

// relistLogged: the logging transport sends once; one layer.
func relistLogged(url string) error {
	return backoffErrors(gcrBackoff(), func() error {
		return google.ListLogged(url)
	})
}

// relistMaybe: transport.Wrap may or may not retry; not known, not reported.
func relistMaybe(url string) error {
	return backoffErrors(gcrBackoff(), func() error {
		return google.ListMaybe(url, false)
	})
}
