package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

// kindReceipt is the outbox kind of a payment receipt.
const kindReceipt = "email.receipt"

// receipt is the payload of a receipt outbox entry: what the customer is
// told about the payment.
type receipt struct {
	Payment  string `json:"payment"`
	Account  string `json:"account"`
	Amount   int64  `json:"amount"`
	Currency string `json:"currency"`
}

// receiptSink is the receiving side of the receipts: it takes delivered
// outbox entries and drops a second delivery of the same entry (delivery is
// at least once), by the entry id.
type receiptSink interface {
	deliver(ctx context.Context, e idempotency.OutboxEntry) error
	count(ctx context.Context) (int64, error)
}

// receiptLine is the line written for a delivered receipt.
func receiptLine(e idempotency.OutboxEntry) ([]byte, error) {
	var r receipt
	if err := json.Unmarshal(e.Payload, &r); err != nil {
		return nil, fmt.Errorf("receipt %d: bad payload: %w", e.ID, err)
	}
	b, err := json.Marshal(struct {
		Entry int64  `json:"entry"`
		Kind  string `json:"kind"`
		Key   string `json:"key"`
		receipt
	}{e.ID, e.Kind, e.Key, r})
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// logReceipts writes one JSON line per delivered receipt to w (the
// -receipts file, or the log). It remembers the entry ids it wrote, for the
// life of the process, and writes an entry once.
type logReceipts struct {
	mu   sync.Mutex
	w    io.Writer
	seen map[int64]bool
}

func newLogReceipts(w io.Writer) *logReceipts {
	return &logReceipts{w: w, seen: make(map[int64]bool)}
}

func (s *logReceipts) deliver(_ context.Context, e idempotency.OutboxEntry) error {
	line, err := receiptLine(e)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen[e.ID] {
		return nil // a redelivery
	}
	if _, err := s.w.Write(line); err != nil {
		return fmt.Errorf("write receipt %d: %w", e.ID, err)
	}
	s.seen[e.ID] = true
	return nil
}

func (s *logReceipts) count(context.Context) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return int64(len(s.seen)), nil
}

// postgresReceipts records delivered receipts in the receipts table, one
// row per outbox entry id (a redelivery inserts nothing), and writes the
// line of each newly recorded one to log.
type postgresReceipts struct {
	db  *sql.DB
	log io.Writer
	mu  sync.Mutex // serializes the writes to log
}

const receiptsDDL = `CREATE TABLE IF NOT EXISTS receipts (
	outbox_id  bigint      PRIMARY KEY,
	payment_id text        NOT NULL,
	idem_key   text        NOT NULL,
	body       jsonb       NOT NULL,
	delivered  timestamptz NOT NULL DEFAULT now()
)`

func newPostgresReceipts(ctx context.Context, db *sql.DB, log io.Writer) (*postgresReceipts, error) {
	if _, err := db.ExecContext(ctx, receiptsDDL); err != nil {
		return nil, fmt.Errorf("create receipts table: %w", err)
	}
	return &postgresReceipts{db: db, log: log}, nil
}

func (s *postgresReceipts) deliver(ctx context.Context, e idempotency.OutboxEntry) error {
	line, err := receiptLine(e)
	if err != nil {
		return err
	}
	res, err := s.db.ExecContext(ctx, `INSERT INTO receipts (outbox_id, payment_id, idem_key, body) VALUES ($1, $2, $3, $4)
ON CONFLICT (outbox_id) DO NOTHING`, e.ID, e.EntityID, e.Key, string(e.Payload))
	if err != nil {
		return fmt.Errorf("record receipt %d: %w", e.ID, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 1 && s.log != nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		// The row is the receipt; the line is a trace of it, written once (lost if this write fails).
		_, _ = s.log.Write(line)
	}
	return nil
}

func (s *postgresReceipts) count(ctx context.Context) (int64, error) {
	var n int64
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM receipts`).Scan(&n); err != nil {
		return 0, fmt.Errorf("count receipts: %w", err)
	}
	return n, nil
}
