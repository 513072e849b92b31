package idempotency

import (
	"context"
	"database/sql"
)

// Inbox makes a message consumer idempotent.
type Inbox struct{}

// NewMemoryInbox returns an Inbox in memory.
func NewMemoryInbox() *Inbox { panic("stub") }

// Consume runs handle at most once per message id.
func (in *Inbox) Consume(ctx context.Context, messageID string, handle func(ctx context.Context) error) (ran bool, err error) {
	panic("stub")
}

// Tx returns the transaction of the running handler.
func Tx(ctx context.Context) *sql.Tx { panic("stub") }

// StepKey returns the idempotency key to send downstream from inside a Step.
func StepKey(ctx context.Context) string { panic("stub") }

// Step runs fn as the named step of the current attempt, at most once per key.
func Step(ctx context.Context, name string, fn func(ctx context.Context) error) error { panic("stub") }

// Lease names the key of the attempt running a request under the Middleware.
type Lease struct {
	Tenant, Key string
	Fence       int64
}

// LeaseOf returns the lease of the attempt running ctx's request, if any.
func LeaseOf(ctx context.Context) (Lease, bool) { panic("stub") }
