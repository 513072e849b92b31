package config

import (
	"fmt"
	"net/http"
	"sender"

	"github.com/google/uuid"
)

// mintID and Gen.Next are declared elsewhere in a real program; here they
// have no body the check could read.
func mintID() string

type Gen struct{}

func (g *Gen) Next() string

type Order struct{ DedupToken string }

func place(o Order) error { return nil }

func configured(req *http.Request, g *Gen) error {
	for attempt := 0; attempt < 3; attempt++ {
		req.Header.Set("Idempotency-Key", mintID()) // want `mintID mints a new key for the Idempotency-Key header on every attempt`
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	for attempt := 0; attempt < 3; attempt++ {
		req.Header.Set("X-Dedup-Key", g.Next()) // want `\(\*Gen\)\.Next mints a new key for the X-Dedup-Key header on every attempt`
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	for attempt := 0; attempt < 3; attempt++ {
		if err := place(Order{DedupToken: uuid.NewString()}); err == nil { // want `uuid\.NewString mints a new key for field DedupToken on every attempt`
			return nil
		}
	}
	return fmt.Errorf("gave up")
}
