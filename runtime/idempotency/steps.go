package idempotency

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
)

type attemptKey struct{}
type stepKey struct{}

// attempt is the state of one owned attempt, reachable from the handler's
// context.
type attempt struct {
	store       Store
	lease       Lease
	work        Work
	tenant, key string

	mu       sync.Mutex
	steps    map[string]json.RawMessage
	onCommit []func()
}

func attemptFrom(ctx context.Context) *attempt {
	at, _ := ctx.Value(attemptKey{}).(*attempt)
	return at
}

// hooker is implemented by units of work that run OnCommit functions
// atomically with the completion (MemoryStore's).
type hooker interface{ addOnCommit(func()) }

// prepareCommit hands the OnCommit functions to the unit of work when it
// can run them atomically with the completion.
func (at *attempt) prepareCommit() {
	at.mu.Lock()
	defer at.mu.Unlock()
	if h, ok := at.work.(hooker); ok {
		for _, f := range at.onCommit {
			h.addOnCommit(f)
		}
		at.onCommit = nil
	}
}

// committed runs the OnCommit functions left after a successful completion.
func (at *attempt) committed() {
	at.mu.Lock()
	fs := at.onCommit
	at.onCommit = nil
	at.mu.Unlock()
	for _, f := range fs {
		f()
	}
}

// OnCommit registers f to run once the attempt's response is stored. With
// MemoryStore it runs atomically with the completion, under its fence
// check, so in-memory business state changes exactly when the key
// completes; with the PostgreSQL store (whose business writes go through Tx) it
// runs right after the commit. It never runs when the attempt fails or its
// lease was lost. Outside Middleware, f runs at once. With MemoryStore, f
// runs under the store's shard lock: keep it short and do not call the
// store from it.
func OnCommit(ctx context.Context, f func()) {
	at := attemptFrom(ctx)
	if at == nil {
		f()
		return
	}
	at.mu.Lock()
	defer at.mu.Unlock()
	at.onCommit = append(at.onCommit, f)
}

// LeaseOf returns the lease of the attempt running ctx's request, if any.
func LeaseOf(ctx context.Context) (Lease, bool) {
	at := attemptFrom(ctx)
	if at == nil {
		return Lease{}, false
	}
	return at.lease, true
}

// Step runs fn as the named step of the current attempt, at most once per
// key: when an earlier attempt of the same request (one that crashed, or
// answered 5xx after the step) recorded the step, Step returns nil without
// running fn, so a retry resumes after its last recovery point instead of
// repeating it. Otherwise it runs fn and, when fn succeeds, records the step
// durably outside the handler's transaction.
//
// Use steps for work that cannot be rolled back, such as calls to other
// services, and send StepKey(ctx) as the downstream idempotency key inside
// fn, so that a retry of a step that ran but was not recorded is
// deduplicated downstream. Outside Middleware, fn just runs.
func Step(ctx context.Context, name string, fn func(ctx context.Context) error) error {
	_, err := StepValue(ctx, name, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, fn(ctx)
	})
	return err
}

// StepValue is Step for a step with a result (a downstream id, say): the
// result is recorded as JSON with the step and returned again, without
// running fn, when a retry resumes past the step.
func StepValue[T any](ctx context.Context, name string, fn func(ctx context.Context) (T, error)) (T, error) {
	var zero T
	at := attemptFrom(ctx)
	if at == nil {
		return fn(ctx)
	}
	at.mu.Lock()
	raw, done := at.steps[name]
	at.mu.Unlock()
	if done {
		var v T
		if err := json.Unmarshal(raw, &v); err != nil {
			return zero, fmt.Errorf("idempotency: step %q: decode recorded result: %w", name, err)
		}
		return v, nil
	}
	v, err := fn(context.WithValue(ctx, stepKey{}, name))
	if err != nil {
		return zero, err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return zero, fmt.Errorf("idempotency: step %q: encode result: %w", name, err)
	}
	if err := at.store.SaveStep(context.WithoutCancel(ctx), at.lease, name, b); err != nil {
		return zero, fmt.Errorf("idempotency: step %q: %w", name, err)
	}
	at.mu.Lock()
	if at.steps == nil {
		at.steps = make(map[string]json.RawMessage)
	}
	at.steps[name] = b
	at.mu.Unlock()
	return v, nil
}

// StepKey returns the idempotency key to send downstream from inside a
// Step's function: Derive of the request's tenant-qualified key and the step
// name, so it is the same on every retry of the step and differs between
// steps, keys and tenants. It returns "" outside a step.
func StepKey(ctx context.Context) string {
	at := attemptFrom(ctx)
	name, ok := ctx.Value(stepKey{}).(string)
	if at == nil || !ok {
		return ""
	}
	return Derive(strconv.Itoa(len(at.tenant))+":"+at.tenant+at.key, name)
}
