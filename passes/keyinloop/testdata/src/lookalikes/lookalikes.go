package lookalikes

import (
	"fmt"
	"net/http"
	"sender"
	"time"

	"github.com/google/uuid"
)

// The key is minted once, before the loop.
func mintedBefore(req *http.Request) error {
	key := uuid.NewString()
	for attempt := 0; attempt < 3; attempt++ {
		req.Header.Set("Idempotency-Key", key)
		if err := sender.Send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return fmt.Errorf("gave up")
}

// The key is minted in the loop only while it is still empty.
func lazy(req *http.Request) error {
	var key string
	for attempt := 0; attempt < 3; attempt++ {
		if key == "" {
			key = uuid.NewString()
		}
		req.Header.Set("Idempotency-Key", key)
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// The header is set only when it is missing.
func lazyHeader(req *http.Request) error {
	for attempt := 0; attempt < 3; attempt++ {
		if req.Header.Get("Idempotency-Key") == "" {
			req.Header.Set("Idempotency-Key", uuid.NewString())
		}
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// The key is minted on the first attempt only.
func firstAttempt(req *http.Request) error {
	var key string
	for attempt := 0; attempt < 3; attempt++ {
		if attempt == 0 {
			key = uuid.NewString()
		}
		req.Header.Set("Idempotency-Key", key)
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// Request and trace ids are fresh per attempt on purpose.
func requestIDs(req *http.Request) error {
	for attempt := 0; attempt < 3; attempt++ {
		req.Header.Set("X-Request-Id", uuid.NewString())
		req.Header.Set("traceparent", fmt.Sprintf("00-%s-01", uuid.NewString()))
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// A fresh key per item of a batch that does not retry.
func batch(reqs []*http.Request) error {
	for _, req := range reqs {
		req.Header.Set("Idempotency-Key", uuid.NewString())
		if err := sender.Send(req); err != nil {
			return err
		}
	}
	return nil
}

// A fresh key per item, retried with the same key.
func batchWithRetry(reqs []*http.Request) error {
	for _, req := range reqs {
		key := uuid.NewString()
		var err error
		for attempt := 0; attempt < 3; attempt++ {
			req.Header.Set("Idempotency-Key", key)
			if err = sender.Send(req); err == nil {
				break
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// Deterministic ids are stable across attempts.
func deterministic(req *http.Request, orderID string) error {
	for attempt := 0; attempt < 3; attempt++ {
		req.Header.Set("Idempotency-Key", uuid.NewSHA1(uuid.NameSpaceURL, []byte(orderID)).String())
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// A fresh value in the loop that never becomes a key.
func freshButNotKey(req *http.Request) error {
	for attempt := 0; attempt < 3; attempt++ {
		start := time.Now()
		id := uuid.NewString()
		req.Header.Set("X-Attempt-Id", id)
		if err := sender.Send(req); err == nil {
			fmt.Println(time.Since(start))
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// A parameter named like a key elsewhere, with a stable value.
func charge(amount int, idempotencyKey string) error { return nil }

func stableParam(key string) error {
	for attempt := 0; attempt < 3; attempt++ {
		if err := charge(100, key); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// A loop that is not a retry: it polls until done.
func notRetry(req *http.Request) {
	for i := 0; i < 3; i++ {
		req.Header.Set("Idempotency-Key", uuid.NewString())
		_ = sender.Send(req)
	}
}

// Generated code is skipped (see generated.go).

// A daily key built from the clock is stable across attempts on purpose.
func dailyKey(req *http.Request, orderID string) error {
	for attempt := 0; attempt < 3; attempt++ {
		req.Header.Set("Idempotency-Key", orderID+"-"+time.Now().Format("2006-01-02"))
		req.Header.Set("Idempotency-Key", orderID+"-"+time.Now().Truncate(time.Hour).Format(time.RFC3339))
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// A helper that keeps the key it is given is not a generator.
func keyOr(existing string) string {
	if existing != "" {
		return existing
	}
	return uuid.NewString()
}

func keptByHelper(req *http.Request) error {
	var key string
	for attempt := 0; attempt < 3; attempt++ {
		key = keyOr(key)
		req.Header.Set("Idempotency-Key", key)
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}
