package idempotency

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// ErrInvalidMessageID is returned by Inbox.Consume for an empty message id or one longer than MaxKeyLen.
var ErrInvalidMessageID = errors.New("idempotency: invalid message id")

// Inbox makes a message consumer idempotent: brokers deliver at least once, so a consumer sees some
// messages twice, and Consume runs the handler at most once per message id (successfully: a handler that
// fails leaves the id free, so the redelivery runs it again).
//
// Where the ids are kept is the Inbox's backend. NewMemoryInbox keeps them in one process, for tests and
// single-process programs: it has no transaction (Tx returns nil in the handler) and forgets everything
// when the process ends. The PostgreSQL backend (NewPostgresInbox in
// github.com/idemlint/idemlint/runtime/pgstore) opens a transaction per message, inserts the message id
// into the inbox table and runs the handler with that transaction in its context (Tx returns it, as for
// handlers under Middleware): the id and the handler's writes commit together or not at all. NewInbox
// wraps any other InboxBackend.
type Inbox struct {
	b InboxBackend
}

// InboxBackend keeps an Inbox's consumed message ids. Inbox validates the message id before it calls
// Consume and Seen.
type InboxBackend interface {
	// Consume runs handle unless messageID was consumed before (ran false); see Inbox.Consume.
	Consume(ctx context.Context, messageID string, handle func(ctx context.Context) error) (ran bool, err error)
	// Seen reports whether messageID was consumed.
	Seen(ctx context.Context, messageID string) (bool, error)
	// Prune forgets the ids consumed more than olderThan ago and returns how many.
	Prune(ctx context.Context, olderThan time.Duration) (int, error)
	// Table returns the backend's table name, "" when it has none.
	Table() string
}

// NewInbox returns an Inbox over b.
func NewInbox(b InboxBackend) *Inbox { return &Inbox{b: b} }

// NewMemoryInbox returns an Inbox in memory. It keeps every consumed id until Prune removes it.
func NewMemoryInbox() *Inbox {
	return &Inbox{b: &memInbox{seen: make(map[string]*inboxEntry)}}
}

// Table returns the inbox's table name ("" for a memory inbox).
func (in *Inbox) Table() string { return in.b.Table() }

// Consume runs handle at most once per message id; ran is false for a redelivery, whose handler is not
// run (acknowledge the message). When handle fails (or panics), nothing is recorded, its transaction is
// rolled back, and Consume returns ran == true with handle's error: leave the message to be redelivered.
//
// With PostgreSQL, handle finds its transaction with Tx(ctx), the same way the Middleware's handlers do:
// do its writes there, and do not commit or roll it back. An OutboxMessage added in handle (Outbox.Add)
// commits with the message id. A commit error is returned with ran == true; the handler's writes are then
// lost with the id, and the redelivery runs it again.
//
// A concurrent Consume of the same id waits for the running one and then returns ran == false, or runs
// handle when the first one failed. The message id is 1 to 255 bytes.
func (in *Inbox) Consume(ctx context.Context, messageID string, handle func(ctx context.Context) error) (ran bool, err error) {
	if messageID == "" || len(messageID) > MaxKeyLen {
		return false, fmt.Errorf("%w: %d bytes", ErrInvalidMessageID, len(messageID))
	}
	return in.b.Consume(ctx, messageID, handle)
}

// Seen reports whether messageID has been consumed (its handler succeeded and was recorded).
func (in *Inbox) Seen(ctx context.Context, messageID string) (bool, error) {
	return in.b.Seen(ctx, messageID)
}

// Prune forgets the ids consumed more than olderThan ago and returns how many it removed. Choose
// olderThan well above the longest time the broker may take to redeliver a message: a redelivery after
// its id was pruned runs the handler again.
func (in *Inbox) Prune(ctx context.Context, olderThan time.Duration) (int, error) {
	return in.b.Prune(ctx, olderThan)
}

// memInbox is NewMemoryInbox's backend.
type memInbox struct {
	mu   sync.Mutex
	seen map[string]*inboxEntry
}

// inboxEntry is a message id in the memory inbox: running until done is closed, then consumed (ok) or
// forgotten.
type inboxEntry struct {
	done chan struct{}
	ok   bool
	at   time.Time
}

func (in *memInbox) Table() string { return "" }

func (in *memInbox) Consume(ctx context.Context, id string, handle func(ctx context.Context) error) (bool, error) {
	for {
		in.mu.Lock()
		e := in.seen[id]
		if e == nil {
			e = &inboxEntry{done: make(chan struct{})}
			in.seen[id] = e
			in.mu.Unlock()
			return true, in.run(ctx, id, e, handle)
		}
		in.mu.Unlock()
		select {
		case <-e.done:
			if e.ok {
				return false, nil
			}
			// The first delivery failed and forgot the id: try to take it.
		case <-ctx.Done():
			return false, fmt.Errorf("idempotency: inbox: waiting for a concurrent delivery of %q: %w", id, context.Cause(ctx))
		}
	}
}

func (in *memInbox) run(ctx context.Context, id string, e *inboxEntry, handle func(ctx context.Context) error) (err error) {
	ok := false
	defer func() { // also on a panic, which goes on up
		in.mu.Lock()
		if ok {
			e.ok, e.at = true, time.Now()
		} else {
			delete(in.seen, id)
		}
		in.mu.Unlock()
		close(e.done)
	}()
	err = handle(ctx)
	ok = err == nil
	return err
}

func (in *memInbox) Seen(_ context.Context, messageID string) (bool, error) {
	in.mu.Lock()
	e := in.seen[messageID]
	in.mu.Unlock()
	if e == nil {
		return false, nil
	}
	select {
	case <-e.done:
		return e.ok, nil
	default:
		return false, nil
	}
}

func (in *memInbox) Prune(_ context.Context, olderThan time.Duration) (int, error) {
	cut := time.Now().Add(-olderThan)
	in.mu.Lock()
	defer in.mu.Unlock()
	n := 0
	for id, e := range in.seen {
		if e.ok && e.at.Before(cut) {
			delete(in.seen, id)
			n++
		}
	}
	return n, nil
}
