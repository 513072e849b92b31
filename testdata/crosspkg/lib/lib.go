// Package lib retries in an exported function and an exported method:
// facts that reach the packages that call them, directly (pay, relay) or
// through a package that hands out lib's client (app, through wrap).
package lib

import (
	"errors"
	"time"
)

func send() error { return errors.New("x") }

// Sync retries two calls down.
func Sync() error { return syncOnce() }

// syncOnce makes up to four attempts, waiting a second before each retry.
func syncOnce() (err error) {
	for attempt := range 4 {
		if attempt > 0 {
			time.Sleep(time.Second)
		}
		if err = send(); err == nil {
			return nil
		}
	}
	return err
}

// Client has a retrying method.
type Client struct{ Name string }

// Post retries through Sync.
func (c *Client) Post() error { return Sync() }
