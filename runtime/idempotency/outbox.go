package idempotency

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/idemlint/idemlint/runtime/retry"

	"github.com/idemlint/idemlint/runtime/internal/defaults"
	"github.com/idemlint/idemlint/runtime/internal/poll"
)

// Defaults of a zero RelayOptions.
const (
	DefaultRelayBatch    = 100
	DefaultRelayLease    = 30 * time.Second
	DefaultRelayInterval = time.Second
	DefaultRelayBackoff  = 5 * time.Second
	maxRelayBackoff      = time.Hour
)

// ErrNoTx is returned by a PostgreSQL Outbox's Add when its context carries no transaction: an outbox
// entry must commit with the business writes it belongs to.
var ErrNoTx = errors.New("idempotency: outbox: no transaction in the context (see Tx and ContextWithTx)")

// OutboxMessage is a side effect to perform once its transaction commits: an email, a notification, a
// message to publish. Kind, EntityID and Key identify it: an outbox holds one entry per triple, and adding
// the same triple again does nothing.
type OutboxMessage struct {
	// Kind says what the side effect is ("email.receipt"); it is required.
	Kind string
	// EntityID is the entity it is about ("order 1234").
	EntityID string
	// Key is the idempotency key of the operation that causes it (the request's Idempotency-Key), so
	// that a retried request does not send the email twice while a new operation on the same entity does.
	Key string
	// Payload is what the sender needs, opaque to the outbox.
	Payload []byte
}

// OutboxState is the delivery state of an outbox entry.
type OutboxState string

// The states of an outbox entry.
const (
	// OutboxPending: not delivered yet; the relay will try (again).
	OutboxPending OutboxState = "pending"
	// OutboxDelivered: the sender succeeded once; the relay will not send it again.
	OutboxDelivered OutboxState = "delivered"
	// OutboxFailed: the sender returned a permanent error (retry.Permanent, or one the relay's Policy does
	// not retry); the relay has given up on it.
	OutboxFailed OutboxState = "failed"
)

// OutboxEntry is a recorded OutboxMessage and its delivery state.
type OutboxEntry struct {
	OutboxMessage
	// ID identifies the entry in its outbox. Send it along (as an idempotency key, say) so that the
	// receiving side can drop a second delivery: delivery is at least once.
	ID int64
	// State is the delivery state.
	State OutboxState
	// Attempts counts the relay passes that tried to send it.
	Attempts int
	// LastError is the error of the last failed pass, if any.
	LastError string
	// CreatedAt is when it was added; DeliveredAt when it was delivered (zero until then).
	CreatedAt, DeliveredAt time.Time
}

// Outbox records side effects in the transaction of the business writes that cause them, and relays them
// afterwards, at least once, with retries (the transactional outbox pattern). A side effect of a
// transaction that rolls back is never recorded, hence never sent; one of a committed transaction is
// delivered even if the process dies right after the commit.
//
// Where the entries are kept is the Outbox's backend. With PostgreSQL (NewPostgresOutbox in
// github.com/idemlint/idemlint/runtime/pgstore) entries are rows of a table, written in the transaction
// that Tx returns. With NewMemoryOutbox, for tests and the single-process default, an entry added under
// Middleware is recorded when the attempt's response is stored (OnCommit), and entries die with the
// process. NewOutbox wraps any other OutboxBackend.
//
// The relay (RelayOnce, Run) sends pending entries through a function of yours and marks them delivered.
// A relay that dies between the send and the mark sends the entry again later: the receiving side must
// drop duplicates, by OutboxEntry.ID (or by the message's Key). Several relays may run at once: each
// reserves the entries it sends for RelayOptions.Lease.
type Outbox struct {
	b OutboxBackend
}

// OutboxBackend keeps an Outbox's entries. Outbox checks the message before it calls Add, and runs the
// relay (retries, backoff, leases) over Claim, MarkDelivered and MarkFailed.
type OutboxBackend interface {
	// Add records m in the unit of work of ctx (see Outbox.Add); an entry with the same Kind, EntityID
	// and Key makes it a no-op.
	Add(ctx context.Context, m OutboxMessage) error
	// Lookup returns the entry for (kind, entityID, key), or an error wrapping ErrNotFound.
	Lookup(ctx context.Context, kind, entityID, key string) (*OutboxEntry, error)
	// Claim reserves up to batch pending entries that are due, for lease: it counts an attempt on each
	// and hides them from other relays until lease ends. It returns them in ID order.
	Claim(ctx context.Context, batch int, lease time.Duration) ([]*OutboxEntry, error)
	// MarkDelivered marks the pending entry id delivered.
	MarkDelivered(ctx context.Context, id int64) error
	// MarkFailed records cause on the pending entry id, and marks it failed when permanent, else makes
	// it due again after wait.
	MarkFailed(ctx context.Context, id int64, permanent bool, cause string, wait time.Duration) error
	// Prune removes the entries delivered more than olderThan ago and returns how many.
	Prune(ctx context.Context, olderThan time.Duration) (int, error)
	// Table returns the backend's table name, "" when it has none.
	Table() string
}

// NewOutbox returns an Outbox over b.
func NewOutbox(b OutboxBackend) *Outbox { return &Outbox{b: b} }

// NewMemoryOutbox returns an Outbox in memory.
func NewMemoryOutbox() *Outbox {
	return &Outbox{b: &memOutbox{byKey: make(map[outboxKey]*memOutboxEntry)}}
}

// Table returns the outbox's table name ("" for a memory outbox).
func (o *Outbox) Table() string { return o.b.Table() }

// Add records m, to be relayed once the surrounding unit of work commits. An entry with the same Kind,
// EntityID and Key already recorded (or added in the same transaction) makes it a no-op.
//
// With PostgreSQL the entry is written in the transaction Tx(ctx): the Middleware's (with the PostgreSQL
// store), Inbox.Consume's, or one attached with ContextWithTx. It returns an error wrapping ErrNoTx when
// ctx carries none. The entry commits or rolls back with that transaction.
//
// With a memory outbox the entry is recorded through OnCommit: under Middleware, when the attempt's
// response is stored (never when the attempt fails); elsewhere at once.
func (o *Outbox) Add(ctx context.Context, m OutboxMessage) error {
	if m.Kind == "" {
		return errors.New("idempotency: outbox: empty Kind")
	}
	return o.b.Add(ctx, m)
}

// Lookup returns the entry for (kind, entityID, key), or an error wrapping ErrNotFound.
func (o *Outbox) Lookup(ctx context.Context, kind, entityID, key string) (*OutboxEntry, error) {
	return o.b.Lookup(ctx, kind, entityID, key)
}

// Delivered reports whether the entry for (kind, entityID, key) was delivered. An entry never added (or
// rolled back) is not.
func (o *Outbox) Delivered(ctx context.Context, kind, entityID, key string) (bool, error) {
	e, err := o.Lookup(ctx, kind, entityID, key)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return e.State == OutboxDelivered, nil
}

// Prune removes the entries delivered more than olderThan ago and returns how many it removed. Their
// (Kind, EntityID, Key) is then free again: adding the same message later records a new entry, so choose
// olderThan well above the time within which an operation may be retried (the idempotency keys' TTL).
// Pending and failed entries are kept.
func (o *Outbox) Prune(ctx context.Context, olderThan time.Duration) (int, error) {
	return o.b.Prune(ctx, olderThan)
}

// RelayOptions configures RelayOnce and Run. The zero value gives the defaults.
type RelayOptions struct {
	// Policy retries one delivery within a pass (runtime/retry.Do): the sender's transient errors are
	// retried with backoff, its permanent ones (retry.Permanent, or not retried by Policy.Retryable) mark
	// the entry failed. The zero Policy is retry's default (4 attempts, 15s). Put a Breaker in it to stop
	// a pass quickly while the destination is down: entries it rejects stay pending.
	Policy retry.Policy
	// Batch is how many entries a pass reserves at most. Zero or negative means DefaultRelayBatch (100).
	Batch int
	// Lease is how long a pass reserves its entries: another relay will not send them before it ends, and
	// this pass skips those it could not start sending before it ends. Zero or negative means
	// DefaultRelayLease (30s). Keep it above one delivery's worst case (the Policy's deadline).
	Lease time.Duration
	// Backoff is how long an entry whose delivery failed waits before the next pass tries it, doubled
	// after each failed pass (up to an hour) and jittered. Zero or negative means DefaultRelayBackoff (5s).
	Backoff time.Duration
	// Interval is how often Run looks for pending entries when the last pass found none. Zero or negative
	// means DefaultRelayInterval (1s).
	Interval time.Duration
	// OnError, when set, is called with each failed delivery and each failed pass (entry nil).
	OnError func(e *OutboxEntry, err error)
}

func (r *RelayOptions) defaults() RelayOptions {
	c := *r
	c.Batch = defaults.Positive(c.Batch, DefaultRelayBatch)
	c.Lease = defaults.Positive(c.Lease, DefaultRelayLease)
	c.Backoff = defaults.Positive(c.Backoff, DefaultRelayBackoff)
	c.Interval = defaults.Positive(c.Interval, DefaultRelayInterval)
	return c
}

// backoff is the wait before the pass after the attempts-th failed one: Backoff·2^(attempts-1), at most
// an hour, drawn from [d/2, d).
func (r *RelayOptions) backoff(attempts int) time.Duration {
	d := r.Backoff
	for i := 1; i < attempts && d < maxRelayBackoff; i++ {
		d *= 2
	}
	d = min(d, maxRelayBackoff)
	return d/2 + rand.N(d/2+1)
}

// RelayOnce makes one relay pass: it reserves up to Batch pending entries, sends each with send (under
// opts.Policy's retries) and marks it delivered when send returns nil. It returns how many entries it
// delivered. A failed delivery is not an error of the pass: the entry is retried on a later pass (or
// marked failed for a permanent error) and reported to OnError. send gets the entry with its ID, which
// the receiving side should use to drop duplicates.
func (o *Outbox) RelayOnce(ctx context.Context, send func(ctx context.Context, e OutboxEntry) error, opts RelayOptions) (int, error) {
	opts = opts.defaults()
	start := time.Now()
	batch, err := o.b.Claim(ctx, opts.Batch, opts.Lease)
	if err != nil {
		return 0, err
	}
	delivered := 0
	for _, e := range batch {
		if ctx.Err() != nil {
			return delivered, ctx.Err()
		}
		if time.Since(start) > opts.Lease {
			break // the lease ended: another relay may own the rest
		}
		err := retry.Do(ctx, opts.Policy, func(ctx context.Context) error { return send(ctx, *e) })
		if err == nil {
			if err := o.b.MarkDelivered(ctx, e.ID); err != nil {
				return delivered, err
			}
			delivered++
			continue
		}
		if ctx.Err() != nil {
			return delivered, ctx.Err()
		}
		if opts.OnError != nil {
			opts.OnError(e, err)
		}
		var re *retry.Error
		permanent := errors.As(err, &re) && re.Reason == retry.ReasonPermanent
		if err := o.b.MarkFailed(ctx, e.ID, permanent, err.Error(), opts.backoff(e.Attempts)); err != nil {
			return delivered, err
		}
	}
	return delivered, nil
}

// Run relays until ctx is done, then returns ctx's error. It makes passes back to back while they find
// entries, and waits opts.Interval after a pass that found none or failed (reported to OnError).
func (o *Outbox) Run(ctx context.Context, send func(ctx context.Context, e OutboxEntry) error, opts RelayOptions) error {
	opts = opts.defaults()
	return poll.Run(ctx, 0, func() time.Duration {
		n, err := o.RelayOnce(ctx, send, opts)
		if err != nil && ctx.Err() == nil && opts.OnError != nil {
			opts.OnError(nil, err)
		}
		if n > 0 && err == nil {
			return 0
		}
		return opts.Interval
	})
}

// memOutbox is NewMemoryOutbox's backend.
type memOutbox struct {
	mu     sync.Mutex
	nextID int64
	mem    []*memOutboxEntry // in ID order
	byKey  map[outboxKey]*memOutboxEntry
}

// outboxKey is the dedup key of a memory entry: Kind, EntityID, Key.
type outboxKey [3]string

type memOutboxEntry struct {
	OutboxEntry
	availableAt time.Time
}

func (o *memOutbox) Table() string { return "" }

func (o *memOutbox) Add(ctx context.Context, m OutboxMessage) error {
	m.Payload = slices.Clone(m.Payload)
	OnCommit(ctx, func() { o.add(m) })
	return nil
}

func (o *memOutbox) add(m OutboxMessage) {
	o.mu.Lock()
	defer o.mu.Unlock()
	k := outboxKey{m.Kind, m.EntityID, m.Key}
	if o.byKey[k] != nil {
		return
	}
	o.nextID++
	now := time.Now()
	e := &memOutboxEntry{OutboxEntry: OutboxEntry{OutboxMessage: m, ID: o.nextID, State: OutboxPending, CreatedAt: now},
		availableAt: now}
	o.mem = append(o.mem, e)
	o.byKey[k] = e
}

func (o *memOutbox) Lookup(_ context.Context, kind, entityID, key string) (*OutboxEntry, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	e := o.byKey[outboxKey{kind, entityID, key}]
	if e == nil {
		return nil, fmt.Errorf("idempotency: outbox: %w", ErrNotFound)
	}
	c := e.OutboxEntry
	c.Payload = slices.Clone(c.Payload)
	return &c, nil
}

func (o *memOutbox) Claim(_ context.Context, batchSize int, lease time.Duration) ([]*OutboxEntry, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	now := time.Now()
	var batch []*OutboxEntry
	for _, e := range o.mem {
		if len(batch) == batchSize {
			break
		}
		if e.State == OutboxPending && !e.availableAt.After(now) {
			e.availableAt = now.Add(lease)
			e.Attempts++
			c := e.OutboxEntry
			c.Payload = slices.Clone(c.Payload)
			batch = append(batch, &c)
		}
	}
	return batch, nil
}

func (o *memOutbox) MarkDelivered(_ context.Context, id int64) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if e := o.find(id); e != nil && e.State == OutboxPending {
		e.State, e.DeliveredAt, e.LastError = OutboxDelivered, time.Now(), ""
	}
	return nil
}

func (o *memOutbox) MarkFailed(_ context.Context, id int64, permanent bool, cause string, wait time.Duration) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if m := o.find(id); m != nil && m.State == OutboxPending {
		m.LastError = cause
		if permanent {
			m.State = OutboxFailed
		} else {
			m.availableAt = time.Now().Add(wait)
		}
	}
	return nil
}

// find returns the memory entry with id; o.mu is held.
func (o *memOutbox) find(id int64) *memOutboxEntry {
	i, ok := slices.BinarySearchFunc(o.mem, id, func(e *memOutboxEntry, id int64) int { return cmp.Compare(e.ID, id) })
	if !ok {
		return nil
	}
	return o.mem[i]
}

func (o *memOutbox) Prune(_ context.Context, olderThan time.Duration) (int, error) {
	cut := time.Now().Add(-olderThan)
	o.mu.Lock()
	defer o.mu.Unlock()
	kept := o.mem[:0]
	n := 0
	for _, e := range o.mem {
		if e.State == OutboxDelivered && e.DeliveredAt.Before(cut) {
			delete(o.byKey, outboxKey{e.Kind, e.EntityID, e.Key})
			n++
			continue
		}
		kept = append(kept, e)
	}
	clear(o.mem[len(kept):])
	o.mem = kept
	return n, nil
}
