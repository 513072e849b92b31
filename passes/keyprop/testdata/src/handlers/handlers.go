// Package handlers holds HTTP handlers with an incoming idempotency key and
// their downstream calls.
package handlers

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/paymentintent"
)

// The header read into a variable; the POST to the provider has no key.
func Order(w http.ResponseWriter, r *http.Request) {
	key := r.Header.Get("Idempotency-Key")
	_ = key
	http.Post("https://ship.example.com/shipments", "application/json", nil) // want `POST through http\.Post sends no idempotency key; send idempotency\.Derive\(key, step\)`
}

// A fresh key on the stripe call, and none on the second one.
func Charge(w http.ResponseWriter, r *http.Request) {
	key := r.Header.Get("Idempotency-Key")
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(100)}
	params.SetIdempotencyKey(uuid.NewString())
	paymentintent.New(params) // want `paymentintent.New sends a fresh idempotency key; send idempotency.Derive\(key, step\)`
	bare := &stripe.PaymentIntentParams{Amount: stripe.Int64(100)}
	paymentintent.New(bare) // want `paymentintent.New sends no idempotency key`
	// Derived from the incoming key: fine.
	derived := &stripe.PaymentIntentParams{Amount: stripe.Int64(100)}
	derived.SetIdempotencyKey(idempotency.Derive(key, "charge"))
	paymentintent.New(derived)
	// The key itself, in the literal: fine.
	same := &stripe.PaymentIntentParams{Params: stripe.Params{IdempotencyKey: stripe.String(key)}, Amount: stripe.Int64(100)}
	paymentintent.New(same)
}

// Under the runtime Middleware: the lease's key.
func Refund(w http.ResponseWriter, r *http.Request) {
	lease, _ := idempotency.LeaseOf(r.Context())
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodPost, "https://pay.example.com/refunds", nil)
	req.Header.Set("Idempotency-Key", uuid.NewString())
	http.DefaultClient.Do(req) // want `POST through \(\*http\.Client\)\.Do sends a fresh idempotency key; send idempotency\.Derive\(lease\.Key, step\)`
	ok, _ := http.NewRequestWithContext(r.Context(), http.MethodPatch, "https://pay.example.com/refunds/1", nil)
	ok.Header.Set("Idempotency-Key", idempotency.Derive(lease.Key, "refund"))
	http.DefaultClient.Do(ok)
	patch, _ := http.NewRequestWithContext(r.Context(), "PATCH", "https://pay.example.com/refunds/2", nil)
	http.DefaultClient.Do(patch) // want `PATCH through \(\*http\.Client\)\.Do sends no idempotency key; send idempotency\.Derive\(lease\.Key, step\)`
}

// GET, PUT and DELETE are idempotent.
func Lookups(w http.ResponseWriter, r *http.Request) {
	key := r.Header.Get("Idempotency-Key")
	_ = key
	get, _ := http.NewRequest(http.MethodGet, "https://pay.example.com/charges", nil)
	http.DefaultClient.Do(get)
	put, _ := http.NewRequest(http.MethodPut, "https://pay.example.com/settings", strings.NewReader("{}"))
	http.DefaultClient.Do(put)
	del, _ := http.NewRequest(http.MethodDelete, "https://pay.example.com/charges/1", nil)
	http.DefaultClient.Do(del)
	http.Get("https://pay.example.com/charges")
}

// The key carried through a helper: the helper sets the header.
func Ship(w http.ResponseWriter, r *http.Request) {
	key := r.Header.Get("Idempotency-Key")
	ship(r.Context(), idempotency.Derive(key, "ship"))
}

func ship(ctx context.Context, key string) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://ship.example.com/shipments", nil)
	req.Header.Set("Idempotency-Key", key)
	http.DefaultClient.Do(req)
}

// No incoming key: not this check's handler.
func Plain(w http.ResponseWriter, r *http.Request) {
	http.Post("https://ship.example.com/shipments", "application/json", nil)
}

// A key of unknown origin (a parameter): not reported.
func forward(r *http.Request, token string) {
	_ = r.Header.Get("Idempotency-Key")
	req, _ := http.NewRequest(http.MethodPost, "https://ship.example.com/shipments", nil)
	req.Header.Set("Idempotency-Key", token)
	http.DefaultClient.Do(req)
}

// A response's header is not an incoming key.
func client(ctx context.Context) {
	resp, _ := http.Get("https://pay.example.com/charges")
	_ = resp.Header.Get("Idempotency-Key")
	http.Post("https://ship.example.com/shipments", "application/json", nil)
}

// A step of the Middleware: its StepKey is derived already.
func Steps(w http.ResponseWriter, r *http.Request) {
	idempotency.Step(r.Context(), "ship", func(ctx context.Context) error {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://ship.example.com/shipments", bytes.NewReader(nil))
		req.Header.Set("Idempotency-Key", idempotency.StepKey(ctx))
		_, err := http.DefaultClient.Do(req)
		return err
	})
}

// Inside a retry loop, unkeyedpost reports the unkeyed POST.
func Retried(w http.ResponseWriter, r *http.Request) {
	key := r.Header.Get("Idempotency-Key")
	_ = key
	for i := 0; i < 3; i++ {
		if _, err := http.Post("https://ship.example.com/shipments", "application/json", nil); err == nil {
			return
		}
		time.Sleep(time.Second)
	}
}

// A test server's handler reads the key; the test's own request is not a
// downstream call of it.
func serverTest(ctx context.Context) {
	srv := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.Header.Get("Idempotency-Key")
	})
	_ = srv
	http.Post("https://ship.example.com/shipments", "application/json", nil)
}

// A request the function builds is outgoing: its header is not an
// incoming key.
func outgoing(ctx context.Context) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "https://pay.example.com/charges", nil)
	if req.Header.Get("Idempotency-Key") != "" {
		return
	}
	http.Post("https://ship.example.com/shipments", "application/json", nil)
}
