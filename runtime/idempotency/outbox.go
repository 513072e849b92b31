package idempotency

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/idemlint/idemlint/runtime/retry"

	"github.com/idemlint/idemlint/runtime/internal/defaults"
)

// DefaultOutboxTable is the table of NewPostgresOutbox when WithTable is not given.
const DefaultOutboxTable = "idempotency_outbox"

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

// ContextWithTx returns ctx carrying tx, where Tx, Outbox.Add and the Middleware's handlers find it. Use it
// to add outbox entries in a transaction of your own, outside Middleware and Inbox.Consume.
func ContextWithTx(ctx context.Context, tx *sql.Tx) context.Context {
	return context.WithValue(ctx, txKey{}, tx)
}

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
// With PostgreSQL (NewPostgresOutbox) entries are rows of a table, written in the transaction that Tx
// returns. With NewMemoryOutbox, for tests and the single-process default, an entry added under
// Middleware is recorded when the attempt's response is stored (OnCommit), and entries die with the
// process.
//
// The relay (RelayOnce, Run) sends pending entries through a function of yours and marks them delivered.
// A relay that dies between the send and the mark sends the entry again later: the receiving side must
// drop duplicates, by OutboxEntry.ID (or by the message's Key). Several relays may run at once: each
// reserves the entries it sends for RelayOptions.Lease.
type Outbox struct {
	// PostgreSQL
	db                                                  *sql.DB
	table                                               string
	qAdd, qClaim, qDone, qRetry, qFail, qLookup, qPrune string

	// memory
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

// NewMemoryOutbox returns an Outbox in memory.
func NewMemoryOutbox() *Outbox {
	return &Outbox{byKey: make(map[outboxKey]*memOutboxEntry)}
}

// OutboxDDL returns the statements NewPostgresOutbox runs to create its table and index when missing.
func OutboxDDL(table string) []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS ` + table + ` (
	id           bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	kind         text        NOT NULL CHECK (kind <> ''),
	entity_id    text        NOT NULL,
	idem_key     text        NOT NULL,
	payload      bytea       NOT NULL,
	state        text        NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
	attempts     int         NOT NULL DEFAULT 0,
	available_at timestamptz NOT NULL DEFAULT now(),
	last_error   text,
	created_at   timestamptz NOT NULL DEFAULT now(),
	delivered_at timestamptz,
	UNIQUE (kind, entity_id, idem_key)
)`,
		createIndex(table, "_pending_idx", "(available_at, id) WHERE state = 'pending'"),
	}
}

// NewPostgresOutbox returns an Outbox in a PostgreSQL table, creating it if missing (see OutboxDDL). The
// option WithTable (default DefaultOutboxTable) applies.
func NewPostgresOutbox(ctx context.Context, db *sql.DB, opts ...PostgresOption) (*Outbox, error) {
	cfg, err := setUpTable(ctx, db, postgresConfig{table: DefaultOutboxTable}, opts, OutboxDDL)
	if err != nil {
		return nil, fmt.Errorf("idempotency: outbox: %w", err)
	}
	t := cfg.table
	const cols = `id, kind, entity_id, idem_key, payload, state, attempts, coalesce(last_error, ''), created_at, delivered_at`
	const us = `::bigint * interval '1 microsecond'`
	return &Outbox{
		db: db, table: t,
		qAdd: `INSERT INTO ` + t + ` (kind, entity_id, idem_key, payload) VALUES ($1, $2, $3, $4)
ON CONFLICT (kind, entity_id, idem_key) DO NOTHING`,
		// Reserve a batch: skip rows another relay holds locked, and hide the batch for the lease.
		qClaim: `UPDATE ` + t + ` SET available_at = now() + $2` + us + `, attempts = attempts + 1
WHERE id IN (SELECT id FROM ` + t + ` WHERE state = 'pending' AND available_at <= now()
	ORDER BY available_at, id LIMIT $1 FOR UPDATE SKIP LOCKED)
RETURNING ` + cols,
		qDone:   `UPDATE ` + t + ` SET state = 'delivered', delivered_at = now(), last_error = NULL WHERE id = $1 AND state = 'pending'`,
		qRetry:  `UPDATE ` + t + ` SET available_at = now() + $2` + us + `, last_error = $3 WHERE id = $1 AND state = 'pending'`,
		qFail:   `UPDATE ` + t + ` SET state = 'failed', last_error = $2 WHERE id = $1 AND state = 'pending'`,
		qLookup: `SELECT ` + cols + ` FROM ` + t + ` WHERE kind = $1 AND entity_id = $2 AND idem_key = $3`,
		qPrune:  `DELETE FROM ` + t + ` WHERE state = 'delivered' AND delivered_at < now() - $1` + us,
	}, nil
}

// Table returns the outbox's table name ("" for a memory outbox).
func (o *Outbox) Table() string { return o.table }

// Add records m, to be relayed once the surrounding unit of work commits. An entry with the same Kind,
// EntityID and Key already recorded (or added in the same transaction) makes it a no-op.
//
// With PostgreSQL the entry is written in the transaction Tx(ctx): the Middleware's (with PostgresStore),
// Inbox.Consume's, or one attached with ContextWithTx. It returns an error wrapping ErrNoTx when ctx
// carries none. The entry commits or rolls back with that transaction.
//
// With a memory outbox the entry is recorded through OnCommit: under Middleware, when the attempt's
// response is stored (never when the attempt fails); elsewhere at once.
func (o *Outbox) Add(ctx context.Context, m OutboxMessage) error {
	if m.Kind == "" {
		return errors.New("idempotency: outbox: empty Kind")
	}
	if o.db == nil {
		m.Payload = slices.Clone(m.Payload)
		OnCommit(ctx, func() { o.addMemory(m) })
		return nil
	}
	tx := Tx(ctx)
	if tx == nil {
		return ErrNoTx
	}
	payload := m.Payload
	if payload == nil {
		payload = []byte{}
	}
	if _, err := tx.ExecContext(ctx, o.qAdd, m.Kind, m.EntityID, m.Key, payload); err != nil {
		return fmt.Errorf("idempotency: outbox: add %s: %w", m.Kind, err)
	}
	return nil
}

func (o *Outbox) addMemory(m OutboxMessage) {
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

// Lookup returns the entry for (kind, entityID, key), or an error wrapping ErrNotFound.
func (o *Outbox) Lookup(ctx context.Context, kind, entityID, key string) (*OutboxEntry, error) {
	if o.db == nil {
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
	e, err := scanEntry(o.db.QueryRowContext(ctx, o.qLookup, kind, entityID, key))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("idempotency: outbox: %w", ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("idempotency: outbox: lookup: %w", err)
	}
	return e, nil
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

type rowScanner interface{ Scan(dest ...any) error }

func scanEntry(r rowScanner) (*OutboxEntry, error) {
	var e OutboxEntry
	var state string
	var delivered sql.NullTime
	if err := r.Scan(&e.ID, &e.Kind, &e.EntityID, &e.Key, &e.Payload, &state, &e.Attempts, &e.LastError,
		&e.CreatedAt, &delivered); err != nil {
		return nil, err
	}
	e.State = OutboxState(state)
	if delivered.Valid {
		e.DeliveredAt = delivered.Time
	}
	return &e, nil
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
	batch, err := o.claim(ctx, opts)
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
			if err := o.markDone(ctx, e.ID); err != nil {
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
		if err := o.markFailed(ctx, e, permanent, err, opts.backoff(e.Attempts)); err != nil {
			return delivered, err
		}
	}
	return delivered, nil
}

// Run relays until ctx is done, then returns ctx's error. It makes passes back to back while they find
// entries, and waits opts.Interval after a pass that found none or failed (reported to OnError).
func (o *Outbox) Run(ctx context.Context, send func(ctx context.Context, e OutboxEntry) error, opts RelayOptions) error {
	opts = opts.defaults()
	return poll(ctx, 0, func() time.Duration {
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

// poll runs pass after the delay first, then again after each delay pass returns, until ctx is done; then it
// returns ctx's error. The background loops (Outbox.Run, PostgresStore.RunReaper) are made of it.
func poll(ctx context.Context, first time.Duration, pass func() (next time.Duration)) error {
	t := time.NewTimer(first)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		t.Reset(pass())
	}
}

func (o *Outbox) claim(ctx context.Context, opts RelayOptions) ([]*OutboxEntry, error) {
	if o.db == nil {
		o.mu.Lock()
		defer o.mu.Unlock()
		now := time.Now()
		var batch []*OutboxEntry
		for _, e := range o.mem {
			if len(batch) == opts.Batch {
				break
			}
			if e.State == OutboxPending && !e.availableAt.After(now) {
				e.availableAt = now.Add(opts.Lease)
				e.Attempts++
				c := e.OutboxEntry
				c.Payload = slices.Clone(c.Payload)
				batch = append(batch, &c)
			}
		}
		return batch, nil
	}
	rows, err := o.db.QueryContext(ctx, o.qClaim, opts.Batch, micros(opts.Lease))
	if err != nil {
		return nil, fmt.Errorf("idempotency: outbox: reserve: %w", err)
	}
	defer rows.Close()
	var batch []*OutboxEntry
	for rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			return nil, fmt.Errorf("idempotency: outbox: reserve: %w", err)
		}
		batch = append(batch, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("idempotency: outbox: reserve: %w", err)
	}
	slices.SortFunc(batch, func(a, b *OutboxEntry) int { return cmp.Compare(a.ID, b.ID) })
	return batch, nil
}

func (o *Outbox) markDone(ctx context.Context, id int64) error {
	if o.db == nil {
		o.mu.Lock()
		defer o.mu.Unlock()
		if e := o.find(id); e != nil && e.State == OutboxPending {
			e.State, e.DeliveredAt, e.LastError = OutboxDelivered, time.Now(), ""
		}
		return nil
	}
	if _, err := o.db.ExecContext(ctx, o.qDone, id); err != nil {
		return fmt.Errorf("idempotency: outbox: mark %d delivered: %w", id, err)
	}
	return nil
}

func (o *Outbox) markFailed(ctx context.Context, e *OutboxEntry, permanent bool, cause error, wait time.Duration) error {
	msg := cause.Error()
	if o.db == nil {
		o.mu.Lock()
		defer o.mu.Unlock()
		if m := o.find(e.ID); m != nil && m.State == OutboxPending {
			m.LastError = msg
			if permanent {
				m.State = OutboxFailed
			} else {
				m.availableAt = time.Now().Add(wait)
			}
		}
		return nil
	}
	var err error
	if permanent {
		_, err = o.db.ExecContext(ctx, o.qFail, e.ID, msg)
	} else {
		_, err = o.db.ExecContext(ctx, o.qRetry, e.ID, micros(wait), msg)
	}
	if err != nil {
		return fmt.Errorf("idempotency: outbox: mark %d failed: %w", e.ID, err)
	}
	return nil
}

// find returns the memory entry with id; o.mu is held.
func (o *Outbox) find(id int64) *memOutboxEntry {
	i, ok := slices.BinarySearchFunc(o.mem, id, func(e *memOutboxEntry, id int64) int { return cmp.Compare(e.ID, id) })
	if !ok {
		return nil
	}
	return o.mem[i]
}

// Prune removes the entries delivered more than olderThan ago and returns how many it removed. Their
// (Kind, EntityID, Key) is then free again: adding the same message later records a new entry, so choose
// olderThan well above the time within which an operation may be retried (the idempotency keys' TTL).
// Pending and failed entries are kept.
func (o *Outbox) Prune(ctx context.Context, olderThan time.Duration) (int, error) {
	if o.db == nil {
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
	res, err := o.db.ExecContext(ctx, o.qPrune, micros(olderThan))
	if err != nil {
		return 0, fmt.Errorf("idempotency: outbox: prune: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("idempotency: outbox: prune: %w", err)
	}
	return int(n), nil
}
