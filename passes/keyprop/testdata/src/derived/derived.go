// Package derived holds handlers that derive their downstream keys from
// the incoming one by hand, the way services do without the runtime:
// concatenation, fmt.Sprintf, strings.Join, a hash, a closure or a method
// of the key, a struct carrying it. A derived key is neither missing nor
// fresh: none is reported. A fresh key and a constant one are.
package derived

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"

	"github.com/google/uuid"
	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/paymentintent"
)

// Concatenation and Sprintf.
func Charge(w http.ResponseWriter, r *http.Request) {
	key := r.Header.Get("Idempotency-Key")
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodPost, "https://pay.example.com/charges", nil)
	req.Header.Set("Idempotency-Key", key+":charge")
	http.DefaultClient.Do(req)
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(10)}
	params.SetIdempotencyKey(fmt.Sprintf("%s-refund", key))
	paymentintent.New(params)
}

// strings.Join of the key and the step, and the runtime's Derive.
func Ship(w http.ResponseWriter, r *http.Request) {
	key := r.Header.Get("Idempotency-Key")
	shipKey := strings.Join([]string{key, "ship"}, ":")
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodPost, "https://ship.example.com/shipments", nil)
	req.Header.Set("Idempotency-Key", shipKey)
	http.DefaultClient.Do(req)
	notify, _ := http.NewRequestWithContext(r.Context(), http.MethodPost, "https://mail.example.com/send", nil)
	notify.Header.Set("Idempotency-Key", idempotency.Derive(key, "notify"))
	http.DefaultClient.Do(notify)
}

// A hash of the key and the step, a closure that derives, and the key
// carried in a struct.
func Transfer(w http.ResponseWriter, r *http.Request) {
	key := r.Header.Get("Idempotency-Key")
	sum := sha256.Sum256([]byte(key + "/debit"))
	debit, _ := http.NewRequestWithContext(r.Context(), http.MethodPost, "https://bank.example.com/debits", nil)
	debit.Header.Set("Idempotency-Key", hex.EncodeToString(sum[:]))
	http.DefaultClient.Do(debit)
	step := func(name string) string { return key + ":" + name }
	credit, _ := http.NewRequestWithContext(r.Context(), http.MethodPost, "https://bank.example.com/credits", nil)
	credit.Header.Set("Idempotency-Key", step("credit"))
	http.DefaultClient.Do(credit)
	op := operation{key: key, amount: 10}
	pay := &stripe.PaymentIntentParams{Amount: stripe.Int64(op.amount)}
	pay.SetIdempotencyKey(op.key + ":pay")
	paymentintent.New(pay)
}

type operation struct {
	key    string
	amount int64
}

// A key type with a method that derives the step's key, and a derived key
// passed to a helper that sets it.
type opKey string

func (k opKey) step(name string) string { return string(k) + ":" + name }

func Order(w http.ResponseWriter, r *http.Request) {
	k := opKey(r.Header.Get("Idempotency-Key"))
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodPost, "https://ship.example.com/orders", nil)
	req.Header.Set("Idempotency-Key", k.step("order"))
	http.DefaultClient.Do(req)
	post(r.Context(), k.step("invoice"))
}

func post(ctx context.Context, key string) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://billing.example.com/invoices", nil)
	req.Header.Set("Idempotency-Key", key)
	http.DefaultClient.Do(req)
}

// Under the runtime's middleware: the lease's key, derived by hand, as a
// JetStream message id.
func Publish(js jetstream.JetStream) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		lease, _ := idempotency.LeaseOf(r.Context())
		js.Publish(r.Context(), "orders", nil, jetstream.WithMsgID(fmt.Sprintf("%s/order", lease.Key)))
	}
}

// Reported: a fresh key and a constant one are not derived from the
// incoming key, and a fresh part makes a key derived from it new on every
// run.
func Unrelated(w http.ResponseWriter, r *http.Request) {
	key := r.Header.Get("Idempotency-Key")
	fresh, _ := http.NewRequestWithContext(r.Context(), http.MethodPost, "https://pay.example.com/charges", nil)
	fresh.Header.Set("Idempotency-Key", uuid.NewString()+":charge")
	http.DefaultClient.Do(fresh) // want `POST through \(\*http\.Client\)\.Do sends a fresh idempotency key; send idempotency\.Derive\(key, step\)`
	salted, _ := http.NewRequestWithContext(r.Context(), http.MethodPost, "https://pay.example.com/charges", nil)
	salted.Header.Set("Idempotency-Key", key+":"+uuid.NewString())
	http.DefaultClient.Do(salted) // want `POST through \(\*http\.Client\)\.Do sends a fresh idempotency key; send idempotency\.Derive\(key, step\)`
	fixed, _ := http.NewRequestWithContext(r.Context(), http.MethodPost, "https://pay.example.com/charges", nil)
	fixed.Header.Set("Idempotency-Key", "charge")
	http.DefaultClient.Do(fixed) // want `POST through \(\*http\.Client\)\.Do sends a constant idempotency key; send idempotency\.Derive\(key, step\)`
	const refundKey = "refund-" + "v1"
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(10)}
	params.SetIdempotencyKey(refundKey)
	paymentintent.New(params) // want `paymentintent\.New sends a constant idempotency key; send idempotency\.Derive\(key, step\)`
	js := jetstream.JetStream(nil)
	js.Publish(r.Context(), "orders", nil, jetstream.WithMsgID("order")) // want "`js.Publish` publishes with a constant Nats-Msg-Id"
}
