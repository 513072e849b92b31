// Package builders mints keys in request builders that a retry calls on
// every attempt.
package builders

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

type Client struct {
	hc   *http.Client
	base string
}

// do sends req and closes the response's body.
func (c *Client) do(req *http.Request) error {
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// pause waits a random duration below a second between attempts.
func pause() { time.Sleep(time.Duration(rand.Int63n(int64(time.Second)))) }

// newChargeRequest builds the request and mints its key: called inside a
// retry, every attempt gets a new key.
func (c *Client) newChargeRequest(ctx context.Context, body []byte) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/charges", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Idempotency-Key", uuid.NewString())
	return req, nil
}

func (c *Client) Charge(ctx context.Context, body []byte) error {
	var err error
	for i := 0; i < 3; i++ {
		var req *http.Request
		req, err = c.newChargeRequest(ctx, body) // want `\(\*Client\)\.newChargeRequest mints a new key on every attempt; mint it above the retry and pass it in`
		if err != nil {
			return err
		}
		if err = c.do(req); err == nil {
			return nil
		}
		pause()
	}
	return err
}

// newRefundRequest takes the key it sets: the retry passes the same one on
// every attempt.
func (c *Client) newRefundRequest(ctx context.Context, key string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/refunds", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Idempotency-Key", key)
	return req, nil
}

func (c *Client) Refund(ctx context.Context) error {
	key := uuid.NewString()
	var err error
	for i := 0; i < 3; i++ {
		var req *http.Request
		if req, err = c.newRefundRequest(ctx, key); err != nil {
			return err
		}
		if err = c.do(req); err == nil {
			return nil
		}
		pause()
	}
	return err
}

// ensureKey mints a key only when the request has none: a retry of the
// same request keeps the first.
func ensureKey(req *http.Request) {
	if req.Header.Get("Idempotency-Key") == "" {
		req.Header.Set("Idempotency-Key", uuid.NewString())
	}
}

func (c *Client) Payout(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/payouts", nil)
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		ensureKey(req)
		if err = c.do(req); err == nil {
			return nil
		}
		pause()
	}
	return err
}

// A builder called outside any retry: one key per call, as it should be.
func (c *Client) ChargeOnce(ctx context.Context, body []byte) error {
	req, err := c.newChargeRequest(ctx, body)
	if err != nil {
		return err
	}
	return c.do(req)
}

// Pay builds its key from the attempt number: every attempt sends another
// key.
func (c *Client) Pay(ctx context.Context, orderID string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/pay", nil)
		req.Header.Set("Idempotency-Key", fmt.Sprintf("%s-%d", orderID, attempt)) // want `key built from the attempt number attempt is new on every attempt; mint it once above the retry`
		if err = c.do(req); err == nil {
			return nil
		}
		pause()
	}
	return err
}

// PayTagged counts its attempts in another header: the key stays the
// order's.
func (c *Client) PayTagged(ctx context.Context, orderID string) error {
	var err error
	for attempt := range 3 {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/pay", nil)
		req.Header.Set("Idempotency-Key", orderID)
		req.Header.Set("X-Retry-Attempt", fmt.Sprint(attempt))
		if err = c.do(req); err == nil {
			return nil
		}
		pause()
	}
	return err
}

// Enqueue mints the task id asynq dedupes on for every enqueue attempt: a
// timed-out enqueue that was applied is enqueued again as another task.
func Enqueue(ctx context.Context, c *asynq.Client, payload []byte) error {
	var err error
	for i := 0; i < 3; i++ {
		t := asynq.NewTask("email:send", payload)
		if _, err = c.EnqueueContext(ctx, t, asynq.TaskID(uuid.NewString())); err == nil { // want `uuid\.NewString mints a new key for asynq\.TaskID on every attempt`
			return nil
		}
		pause()
	}
	return err
}

// EnqueueOnce mints the task id once: every attempt enqueues the same task.
func EnqueueOnce(ctx context.Context, c *asynq.Client, payload []byte) error {
	id := uuid.NewString()
	var err error
	for i := 0; i < 3; i++ {
		if _, err = c.EnqueueContext(ctx, asynq.NewTask("email:send", payload), asynq.TaskID(id)); err == nil {
			return nil
		}
		pause()
	}
	return err
}

type createInput struct {
	ClientToken *string
	Amount      int
}

func create(ctx context.Context, in *createInput) error { return nil }

func ref[T any](v T) *T { return &v }

// Create sets the token through a generic pointer helper, minted on every
// attempt.
func Create(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = create(ctx, &createInput{ClientToken: ref(uuid.NewString()), Amount: 5}); err == nil { // want `uuid\.NewString mints a new key for field ClientToken on every attempt`
			return nil
		}
		pause()
	}
	return err
}
