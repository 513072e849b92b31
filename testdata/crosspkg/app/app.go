// Package app retries a call of lib's retrying method without importing
// lib: its client comes from wrap.
package app

import (
	"time"

	"example.com/crosspkg/pure"
	"example.com/crosspkg/wrap"
)

// Pay retries a retrying method.
func Pay() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = wrap.New("a").Post(); err == nil {
			return nil
		}
		time.Sleep(time.Duration(pure.Add(i, 1)) * time.Second)
	}
	return err
}
