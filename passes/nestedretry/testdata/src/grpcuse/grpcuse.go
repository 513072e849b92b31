package grpcuse

import (
	"context"
	"time"

	"grpcdep"
)

func pay(ctx context.Context, c *grpcdep.Client) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = c.Pay(ctx); err == nil { // want `call to \(\*grpcdep.Client\).Pay reaches \(grpcpb.PaymentsClient\).CreatePayment, which retries by itself \(3 attempts\)`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
