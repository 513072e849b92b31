// Package keys holds POSTs done right in the shapes of the recall corpus's
// unkeyedpost bugs and the keyinloop and keyprop test positives: the key is
// minted once per logical operation, above the retry, or derived from the
// incoming key, and reused on every attempt.
package keys

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/hashicorp/go-retryablehttp"
	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/retry"
	"github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/paymentintent"
)

var client = &http.Client{Timeout: 10 * time.Second}

var errStatus = errors.New("status")

// send POSTs body once with the given key and classifies the answer.
func send(ctx context.Context, url, key string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return retry.ResponseError(resp)
}

// CreateOrder mints the key once above the loop and sends it on every
// attempt.
//
// lookalike keyinloop,unkeyedpost passes/keyinloop/testdata/src/loops/loops.go: a uuid minted inside the retry loop
func CreateOrder(ctx context.Context, url string, body []byte) error {
	key := uuid.NewString()
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = send(ctx, url, key, body); err == nil || retry.Classify(err) != retry.ClassTransient {
			return err
		}
		time.Sleep(retry.Jitter(200 * time.Millisecond << attempt))
	}
	return err
}

// CreateOrderDo mints the key outside retry.Do's operation.
//
// lookalike keyinloop passes/keyinloop/testdata/src/libraries: a key minted inside a retry library's closure
func CreateOrderDo(ctx context.Context, url string, body []byte) error {
	key := idempotency.NewKey()
	return retry.Do(ctx, retry.Policy{MaxAttempts: 4, BaseDelay: 100 * time.Millisecond, Deadline: 10 * time.Second}, func(ctx context.Context) error {
		return send(ctx, url, key, body)
	})
}

// Operation is one logical operation, keyed when it is built.
type Operation struct {
	URL  string
	Body []byte
	Key  string
}

// NewOperation mints the operation's key once.
func NewOperation(url string, body []byte) *Operation {
	return &Operation{URL: url, Body: body, Key: uuid.NewString()}
}

// Run retries the operation with the key it was built with.
//
// lookalike keyinloop,unkeyedpost passes/keyinloop/testdata/src/builders: a key minted by a request builder called in the loop
func (op *Operation) Run(ctx context.Context) error {
	return retry.Do(ctx, retry.Policy{MaxAttempts: 3, Deadline: 5 * time.Second}, func(ctx context.Context) error {
		return send(ctx, op.URL, op.Key, op.Body)
	})
}

// Charge derives the provider's key from the incoming one.
//
// lookalike keyprop passes/keyprop/testdata/src/handlers/handlers.go: a downstream POST with a fresh key or none
func Charge(w http.ResponseWriter, r *http.Request) {
	key := r.Header.Get("Idempotency-Key")
	if key == "" {
		http.Error(w, "missing Idempotency-Key", http.StatusBadRequest)
		return
	}
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(100)}
	params.SetIdempotencyKey(key + ":charge")
	if _, err := paymentintent.New(params); err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	w.WriteHeader(http.StatusCreated)
}

// Ship derives the shipping service's key with fmt.Sprintf.
//
// lookalike keyprop passes/keyprop/testdata/src/handlers/handlers.go: a downstream POST without the incoming key
func Ship(w http.ResponseWriter, r *http.Request) {
	key := r.Header.Get("Idempotency-Key")
	req, err := http.NewRequestWithContext(r.Context(), http.MethodPost, "https://ship.example.com/shipments", r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req.Header.Set("Idempotency-Key", fmt.Sprintf("%s-shipment", key))
	resp, err := client.Do(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	resp.Body.Close()
	w.WriteHeader(resp.StatusCode)
}

// Refund derives the key under the runtime's middleware lease.
//
// lookalike keyprop passes/keyprop/testdata/src/handlers/handlers.go: a fresh uuid sent downstream under a lease
func Refund(w http.ResponseWriter, r *http.Request) {
	lease, _ := idempotency.LeaseOf(r.Context())
	if err := send(r.Context(), "https://pay.example.com/refunds", idempotency.Derive(lease.Key, "refund"), nil); err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// PaymentIntent creates a stripe payment intent, keyed once, on stripe's
// own retrying backend: the key covers the SDK's retries.
//
// lookalike unkeyedpost stripe-nil-params-unkeyed: a stripe POST whose key is only set under a condition
func PaymentIntent(amount int64, orderID string) (*stripe.PaymentIntent, error) {
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(amount)}
	params.SetIdempotencyKey("order-" + orderID)
	return paymentintent.New(params)
}

// Submit POSTs through retryablehttp with the key set on the request once.
//
// lookalike unkeyedpost retryablehttp-do-unkeyed: retryablehttp's Do re-sends a POST without a key
func Submit(ctx context.Context, url string, body []byte) error {
	c := retryablehttp.NewClient()
	c.Backoff = retryablehttp.LinearJitterBackoff
	c.HTTPClient.Timeout = 10 * time.Second
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, url, body)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", uuid.NewString())
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Put replaces a whole document: PUT is idempotent, no key needed.
//
// lookalike unkeyedpost gitlab-do-unkeyed: a retried write without a key
func Put(ctx context.Context, url string, doc []byte) error {
	return retry.Do(ctx, retry.Policy{MaxAttempts: 3, Deadline: 5 * time.Second}, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, url, bytes.NewReader(doc))
		if err != nil {
			return err
		}
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		return retry.ResponseError(resp)
	})
}

// PostOnce POSTs once, with no retry anywhere: a failure goes back to the
// caller, who did not send it twice.
//
// lookalike unkeyedpost posthog-send-unkeyed: a POST retried without a key
func PostOnce(ctx context.Context, url string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%w %d", errStatus, resp.StatusCode)
	}
	return nil
}

// Events sends a batch whose payload id is minted once per batch, above the
// retry, as LaunchDarkly's event sender does.
//
// lookalike keyinloop,unkeyedpost,nojitter launchdarkly-retry-delay: a batch re-sent after a constant delay
func Events(ctx context.Context, url string, batch []byte) error {
	payloadID := uuid.NewString()
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		if err = send(ctx, url, payloadID, batch); err == nil || retry.Classify(err) != retry.ClassTransient {
			return err
		}
		wait := time.Second/2 + rand.N(time.Second/2)
		if se, ok := errors.AsType[*retry.StatusError](err); ok && se.RetryAfter > 0 {
			wait = se.RetryAfter
		}
		time.Sleep(wait)
	}
	return err
}
