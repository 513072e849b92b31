// Package job retries via.Run and imports pay and plain.
package job

import (
	"time"

	"example.com/crosspkg/pay"
	"example.com/crosspkg/plain"
	"example.com/crosspkg/via"
)

// Go retries via.Run.
func Go() error {
	_ = plain.Count(nil)
	var err error
	for i := 0; i < 3; i++ {
		if err = via.Run(); err == nil {
			return pay.Pay(nil)
		}
		time.Sleep(time.Second)
	}
	return err
}
