// Package pay retries calls of lib's retrying function and method.
package pay

import (
	"time"

	"example.com/crosspkg/lib"
)

// Pay retries lib.Sync and c.Post.
func Pay(c *lib.Client) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = lib.Sync(); err == nil {
			return nil
		}
		if err = c.Post(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
