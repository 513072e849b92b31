package libraries

import (
	"time"

	"github.com/eapache/go-resiliency/retrier"
)

func eapache() {
	retrier.New(retrier.ExponentialBackoff(3, time.Second), nil).Run(op) // want `deterministic backoff without jitter \(retrier\.ExponentialBackoff\); call SetJitter\(0\.25\) on the Retrier`
	r := retrier.New(retrier.ConstantBackoff(3, time.Second), nil)
	r.SetJitter(0.2)
	r.Run(op)
}
