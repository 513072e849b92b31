package grpcuse

import (
	"context"
	"time"

	"grpcdep"
)

func pay(ctx context.Context, c *grpcdep.Client) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = c.Pay(ctx); err == nil { // want `\(\*grpcdep\.Client\)\.Pay reaches a retry \(3 attempts\) inside a retry \(3 attempts\); pass retry\.Disable\(\) on this call`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
