// Package crossdep retries in its exported functions; crossuse calls them
// inside its own retries.
package crossdep

import (
	"time"

	retry "github.com/avast/retry-go/v4"
)

func send() error { return nil }

// Charge retries by itself.
func Charge() error { // want Charge:`retries\(retry\.Do, 5 attempts, in crossdep.Charge\)`
	return retry.Do(send, retry.Attempts(5))
}

// Sync retries two calls down.
func Sync() error { return syncAll() } // want Sync:`retries\(retry loop, 4 attempts, in crossdep.syncOnce\)`

func syncAll() error { return syncOnce() }

func syncOnce() error {
	var err error
	for i := 0; i < 4; i++ {
		if err = send(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Client has a retrying method.
type Client struct{}

// Post retries by itself.
func (c *Client) Post() error { return Charge() } // want Post:`retries\(retry\.Do, 5 attempts, in crossdep.Charge\)`

// List loops over items without retrying.
func List(items []string) error {
	for _, it := range items {
		if err := send(); err != nil {
			return err
		}
		_ = it
	}
	return nil
}
