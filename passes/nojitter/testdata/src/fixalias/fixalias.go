package fixalias

import (
	"time"

	retry "github.com/avast/retry-go/v4"
)

func op() error { return nil }

func both() error {
	_ = retry.Do(op)
	t := time.NewTimer(0)
	for i := 0; i < 5; i++ {
		if err := op(); err == nil {
			return nil
		}
		t.Reset(time.Second) // want `constant wait between retry attempts has no jitter`
		<-t.C
	}
	return nil
}
