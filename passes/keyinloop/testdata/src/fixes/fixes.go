package fixes

import (
	"fmt"
	"net/http"
	"sender"

	retrygo "github.com/avast/retry-go/v4"
	"github.com/google/uuid"
)

func loop(req *http.Request) error {
	for attempt := 0; attempt < 3; attempt++ {
		key := uuid.NewString() // want `mints a new key`
		req.Header.Set("Idempotency-Key", key)
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

func labelled(req *http.Request, prefix string) error {
retry:
	for attempt := 0; attempt < 3; attempt++ {
		var key = prefix + uuid.NewString() // want `mints a new key`
		req.Header.Set("Idempotency-Key", key)
		if err := sender.Send(req); err != nil {
			continue retry
		}
		return nil
	}
	return fmt.Errorf("gave up")
}

func library(req *http.Request) error {
	if err := retrygo.Do(func() error {
		k := uuid.NewString() // want `mints a new key`
		req.Header.Set("Idempotency-Key", k)
		return sender.Send(req)
	}, retrygo.Attempts(3)); err != nil {
		return err
	}
	return nil
}

// No fix: the key depends on the attempt number.
func usesAttempt(req *http.Request) error {
	for attempt := 0; attempt < 3; attempt++ {
		key := fmt.Sprint(attempt, uuid.NewString()) // want `mints a new key`
		req.Header.Set("Idempotency-Key", key)
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// No fix: the name is taken above the loop.
func nameTaken(req *http.Request, key string) error {
	for attempt := 0; attempt < 3; attempt++ {
		key := uuid.NewString() // want `mints a new key`
		req.Header.Set("Idempotency-Key", key)
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// No fix: the minting is inline in the sink.
func inline(req *http.Request) error {
	for attempt := 0; attempt < 3; attempt++ {
		req.Header.Set("Idempotency-Key", uuid.NewString()) // want `mints a new key`
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// No fix: the tuple also declares err, which exists above.
func tuple(req *http.Request) (err error) {
	for attempt := 0; attempt < 3; attempt++ {
		id, err := uuid.NewRandom() // want `mints a new key`
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", id.String())
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}
