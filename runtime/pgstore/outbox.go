package pgstore

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

// DefaultOutboxTable is the table of NewPostgresOutbox when WithTable is not given.
const DefaultOutboxTable = "idempotency_outbox"

// pgOutbox is an idempotency.OutboxBackend in a PostgreSQL table.
type pgOutbox struct {
	db                                                  *sql.DB
	table                                               string
	qAdd, qClaim, qDone, qRetry, qFail, qLookup, qPrune string
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

// NewPostgresOutbox returns an idempotency.Outbox in a PostgreSQL table, creating it if missing (see
// OutboxDDL). Its Add writes in the transaction idempotency.Tx returns (the idempotency.Middleware's with
// PostgresStore, the Inbox's, or one attached with idempotency.ContextWithTx), and fails with
// idempotency.ErrNoTx without one. The option WithTable (default DefaultOutboxTable) applies.
func NewPostgresOutbox(ctx context.Context, db *sql.DB, opts ...PostgresOption) (*idempotency.Outbox, error) {
	cfg, err := setUpTable(ctx, db, postgresConfig{table: DefaultOutboxTable}, opts, OutboxDDL)
	if err != nil {
		return nil, fmt.Errorf("idempotency: outbox: %w", err)
	}
	t := cfg.table
	const cols = `id, kind, entity_id, idem_key, payload, state, attempts, coalesce(last_error, ''), created_at, delivered_at`
	const us = `::bigint * interval '1 microsecond'`
	return idempotency.NewOutbox(&pgOutbox{
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
	}), nil
}

func (o *pgOutbox) Table() string { return o.table }

func (o *pgOutbox) Add(ctx context.Context, m idempotency.OutboxMessage) error {
	tx := idempotency.Tx(ctx)
	if tx == nil {
		return idempotency.ErrNoTx
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

func (o *pgOutbox) Lookup(ctx context.Context, kind, entityID, key string) (*idempotency.OutboxEntry, error) {
	e, err := scanEntry(o.db.QueryRowContext(ctx, o.qLookup, kind, entityID, key))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("idempotency: outbox: %w", idempotency.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("idempotency: outbox: lookup: %w", err)
	}
	return e, nil
}

type rowScanner interface{ Scan(dest ...any) error }

func scanEntry(r rowScanner) (*idempotency.OutboxEntry, error) {
	var e idempotency.OutboxEntry
	var state string
	var delivered sql.NullTime
	if err := r.Scan(&e.ID, &e.Kind, &e.EntityID, &e.Key, &e.Payload, &state, &e.Attempts, &e.LastError,
		&e.CreatedAt, &delivered); err != nil {
		return nil, err
	}
	e.State = idempotency.OutboxState(state)
	if delivered.Valid {
		e.DeliveredAt = delivered.Time
	}
	return &e, nil
}

func (o *pgOutbox) Claim(ctx context.Context, batchSize int, lease time.Duration) ([]*idempotency.OutboxEntry, error) {
	rows, err := o.db.QueryContext(ctx, o.qClaim, batchSize, micros(lease))
	if err != nil {
		return nil, fmt.Errorf("idempotency: outbox: reserve: %w", err)
	}
	defer rows.Close()
	var batch []*idempotency.OutboxEntry
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
	slices.SortFunc(batch, func(a, b *idempotency.OutboxEntry) int { return cmp.Compare(a.ID, b.ID) })
	return batch, nil
}

func (o *pgOutbox) MarkDelivered(ctx context.Context, id int64) error {
	if _, err := o.db.ExecContext(ctx, o.qDone, id); err != nil {
		return fmt.Errorf("idempotency: outbox: mark %d delivered: %w", id, err)
	}
	return nil
}

func (o *pgOutbox) MarkFailed(ctx context.Context, id int64, permanent bool, cause string, wait time.Duration) error {
	var err error
	if permanent {
		_, err = o.db.ExecContext(ctx, o.qFail, id, cause)
	} else {
		_, err = o.db.ExecContext(ctx, o.qRetry, id, micros(wait), cause)
	}
	if err != nil {
		return fmt.Errorf("idempotency: outbox: mark %d failed: %w", id, err)
	}
	return nil
}

func (o *pgOutbox) Prune(ctx context.Context, olderThan time.Duration) (int, error) {
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
