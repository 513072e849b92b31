// Package funcvalues: an attempt made through a func value runs the
// functions that value can hold. A parameter of an unexported function
// takes what its callers pass (vault's LifetimeWatcher.doRenewWithOptions,
// passed RenewTokenAsSelf or Sys().Renew, each a retryablehttp request); a
// local takes what is assigned to it. When the callers cannot all be seen
// (an exported function, a function used as a value) or no value retries,
// there is no inner layer.
package funcvalues

import (
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

type client struct {
	rc *retryablehttp.Client
}

// renew sends through the retrying client: a retry of its own.
func (c *client) renew(token string) error {
	_, err := c.rc.Get("https://vault/renew/" + token)
	return err
}

// local does not retry.
func (c *client) local(token string) error { return nil }

type renewFunc func(string) error

func (c *client) doRenew(renew renewFunc) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = renew("t"); err == nil { // want `\(\*funcvalues\.client\)\.renew reaches a retry \(5 attempts\) inside a retry, up to 3×5 = 15 calls`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func (c *client) start(self bool) error {
	if self {
		return c.doRenew(c.renew)
	}
	return c.doRenew(c.local)
}

func (c *client) assigned() error {
	renew := c.local
	if c.rc != nil {
		renew = c.renew
	}
	var err error
	for i := 0; i < 3; i++ {
		if err = renew("t"); err == nil { // want `\(\*funcvalues\.client\)\.renew reaches`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Look-alikes.

// onlyLocal's callers pass a function that does not retry.
func (c *client) onlyLocal(renew renewFunc) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = renew("t"); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func (c *client) startLocal() error { return c.onlyLocal(c.local) }

// Exported takes what callers in other packages pass: not seen.
func (c *client) Exported(renew renewFunc) error { // want Exported:`retries\(retry loop, 3 attempts`
	var err error
	for i := 0; i < 3; i++ {
		if err = renew("t"); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func (c *client) startExported() error { return c.Exported(c.renew) }

// escaped is also used as a value: its renew may come from elsewhere.
func escaped(renew renewFunc) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = renew("t"); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

var hook = escaped

func (c *client) startEscaped() error { return escaped(c.local) }
