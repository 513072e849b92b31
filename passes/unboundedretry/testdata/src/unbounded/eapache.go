package unbounded

import (
	"context"
	"time"

	"github.com/eapache/go-resiliency/retrier"
)

func eapache() {
	retrier.New(retrier.ConstantBackoff(3, time.Second), nil).WithInfiniteRetry().Run(op) // want `\(\*retrier\.Retrier\)\.Run has no attempt cap and no deadline; drop WithInfiniteRetry, or give RunCtx a deadline`
	retrier.New(retrier.ConstantBackoff(3, time.Second), nil).Run(op)
	retrier.New(retrier.ConstantBackoff(3, time.Second), nil).WithInfiniteRetry().RunCtx(context.Background(), func(context.Context) error { return nil }) // want `has no attempt cap and no deadline`
}
