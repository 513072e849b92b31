package crossuse

import (
	"time"

	retry "github.com/avast/retry-go/v4"

	"crossdep"
)

func pay() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = crossdep.Charge(); err == nil { // want `crossdep\.Charge reaches retry\.Do \(5 attempts\) inside a retry, up to 3×5 = 15 calls`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func sync() error {
	return retry.Do(func() error {
		return crossdep.Sync() // want `crossdep\.Sync reaches retry loop \(4 attempts\) inside a retry, up to 10×4 = 40 calls`
	})
}

func method(c *crossdep.Client) error {
	return retry.Do(func() error {
		return c.Post() // want `\(\*crossdep\.Client\)\.Post reaches retry\.Do \(5 attempts\) inside a retry, up to 2×5 = 10 calls`
	}, retry.Attempts(2))
}

// The operation itself is another package's retrying function.
func namedOp() error {
	return retry.Do(crossdep.Charge, retry.Attempts(2)) // want `crossdep\.Charge reaches retry\.Do \(5 attempts\) inside a retry \(2 attempts\), up to 2×5 = 10 calls`
}

// ---- negatives

func items(names []string) error {
	return retry.Do(func() error { return crossdep.List(names) })
}

func sequential() error {
	if err := crossdep.Charge(); err != nil {
		return err
	}
	return retry.Do(func() error { return nil })
}
