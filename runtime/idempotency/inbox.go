package idempotency

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// DefaultInboxTable is the table of NewPostgresInbox when WithTable is not given.
const DefaultInboxTable = "idempotency_inbox"

// ErrInvalidMessageID is returned by Inbox.Consume for an empty message id or one longer than MaxKeyLen.
var ErrInvalidMessageID = errors.New("idempotency: invalid message id")

// Inbox makes a message consumer idempotent: brokers deliver at least once, so a consumer sees some
// messages twice, and Consume runs the handler at most once per message id (successfully: a handler that
// fails leaves the id free, so the redelivery runs it again).
//
// With PostgreSQL (NewPostgresInbox), Consume opens a transaction, inserts the message id into the inbox
// table and runs the handler with that transaction in its context (Tx returns it, as for handlers under
// Middleware). The id and the handler's writes commit together or not at all. A concurrent delivery of the
// same id waits on the table's unique index until the first transaction ends: it then finds the id and
// returns ran == false, or, when the first handler failed, runs the handler itself.
//
// NewMemoryInbox does the same in one process, for tests and single-process programs: it has no
// transaction (Tx returns nil in the handler) and forgets everything when the process ends.
type Inbox struct {
	// PostgreSQL
	db                     *sql.DB
	table                  string
	iso                    sql.IsolationLevel
	qInsert, qSeen, qPrune string
	qBegin                 string
	pipe                   *pipePool // BEGIN and the id's insert in one round trip (pgx only)

	// memory
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

// NewMemoryInbox returns an Inbox in memory. It keeps every consumed id until Prune removes it.
func NewMemoryInbox() *Inbox {
	return &Inbox{seen: make(map[string]*inboxEntry)}
}

// InboxDDL returns the statements NewPostgresInbox runs to create its table when missing.
func InboxDDL(table string) []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS ` + table + ` (
	message_id  text        PRIMARY KEY CHECK (char_length(message_id) BETWEEN 1 AND 255),
	consumed_at timestamptz NOT NULL DEFAULT now()
)`,
		createIndex(table, "_consumed_at_idx", "(consumed_at)"),
	}
}

// NewPostgresInbox returns an Inbox in a PostgreSQL table, creating it if missing (see InboxDDL). The
// options WithTable (default DefaultInboxTable) and WithIsolation (of the handler's transaction) apply.
func NewPostgresInbox(ctx context.Context, db *sql.DB, opts ...PostgresOption) (*Inbox, error) {
	cfg, err := setUpTable(ctx, db, postgresConfig{table: DefaultInboxTable}, opts, InboxDDL)
	if err != nil {
		return nil, fmt.Errorf("idempotency: inbox: %w", err)
	}
	t := cfg.table
	in := &Inbox{
		db: db, table: t, iso: cfg.iso,
		qInsert: `INSERT INTO ` + t + ` (message_id) VALUES ($1) ON CONFLICT DO NOTHING`,
		qSeen:   `SELECT true FROM ` + t + ` WHERE message_id = $1`,
		qPrune:  `DELETE FROM ` + t + ` WHERE consumed_at < now() - $1::bigint * interval '1 microsecond'`,
		qBegin:  beginSQL(cfg.iso),
	}
	if in.qBegin != "" {
		in.pipe = newPipePool(db)
	}
	return in, nil
}

// setUpTable applies opts to cfg, the constructor's defaults, then creates cfg.table with the statements
// ddl returns for it, when missing (createTables).
func setUpTable(ctx context.Context, db *sql.DB, cfg postgresConfig, opts []PostgresOption, ddl func(table string) []string) (postgresConfig, error) {
	for _, o := range opts {
		o(&cfg)
	}
	return cfg, createTables(ctx, db, cfg.table, ddl(cfg.table))
}

// createTables validates the table name and runs ddl in one transaction under an advisory lock, so that
// concurrent creations do not collide.
func createTables(ctx context.Context, db *sql.DB, table string, ddl []string) error {
	if !identRE.MatchString(table) {
		return fmt.Errorf("invalid table name %q", table)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("create table: %w", err)
	}
	defer func() { _ = tx.Rollback() }() // after Commit: sql.ErrTxDone
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext($1))`, "idemlint:"+table); err != nil {
		return fmt.Errorf("create table: %w", err)
	}
	for _, stmt := range ddl {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("create table: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("create table: %w", err)
	}
	return nil
}

// Table returns the inbox's table name ("" for a memory inbox).
func (in *Inbox) Table() string { return in.table }

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
	if in.db == nil {
		return in.consumeMemory(ctx, messageID, handle)
	}
	if in.pipe != nil {
		return in.consumePiped(ctx, messageID, handle)
	}
	tx, err := in.db.BeginTx(ctx, &sql.TxOptions{Isolation: in.iso})
	if err != nil {
		return false, fmt.Errorf("idempotency: inbox: begin: %w", err)
	}
	defer func() { _ = tx.Rollback() }() // after Commit: sql.ErrTxDone
	res, err := tx.ExecContext(ctx, in.qInsert, messageID)
	if err != nil {
		return false, fmt.Errorf("idempotency: inbox: record %q: %w", messageID, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return false, fmt.Errorf("idempotency: inbox: record %q: %w", messageID, err)
	} else if n == 0 {
		return false, nil // consumed before
	}
	if err := handle(context.WithValue(ctx, txKey{}, tx)); err != nil {
		return true, err
	}
	if err := tx.Commit(); err != nil {
		return true, fmt.Errorf("idempotency: inbox: commit %q: %w", messageID, err)
	}
	return true, nil
}

// consumePiped is Consume sending the BEGIN and the id's insert in one
// round trip: with a handler that writes once, a message costs two (that
// one, the handler's write) plus the COMMIT.
func (in *Inbox) consumePiped(ctx context.Context, messageID string, handle func(ctx context.Context) error) (ran bool, err error) {
	conn, err := in.pipe.db.Conn(ctx)
	if err != nil {
		return false, fmt.Errorf("idempotency: inbox: begin: %w", err)
	}
	var (
		tag              pgconn.CommandTag
		beginErr, recErr error
	)
	err = onPipeConn(conn, func(pc *pipeConn) error {
		pl, sd, err := pc.preparedPipeline(ctx, in.qInsert)
		if err != nil {
			beginErr = err
			return nil
		}
		pl.p.SendQueryParams(in.qBegin, nil, nil, nil, nil)
		if err := pl.prepared(sd, messageID); err != nil {
			pl.close()
			recErr = err
			return nil
		}
		pl.p.SendPipelineSync()
		if err := pl.p.Flush(); err != nil {
			beginErr = err
			return nil
		}
		if _, beginErr = pl.read(nil); beginErr == nil {
			tag, recErr = pl.read(nil)
		}
		return pl.end(beginErr == nil && recErr == nil && tag.RowsAffected() == 1)
	})
	switch {
	case beginErr != nil:
		conn.Close()
		return false, fmt.Errorf("idempotency: inbox: begin: %w", beginErr)
	case recErr != nil:
		conn.Close()
		return false, fmt.Errorf("idempotency: inbox: record %q: %w", messageID, recErr)
	case err != nil:
		conn.Close()
		return false, fmt.Errorf("idempotency: inbox: record %q: %w", messageID, err)
	case tag.RowsAffected() == 0:
		conn.Close()
		return false, nil // consumed before
	}
	tx, err := adoptTx(ctx, conn)
	if err != nil {
		return false, fmt.Errorf("idempotency: inbox: begin: %w", err)
	}
	defer func() { // also on a panic, which goes on up
		_ = tx.Rollback() // after Commit: sql.ErrTxDone
		conn.Close()
	}()
	if err := handle(context.WithValue(ctx, txKey{}, tx)); err != nil {
		return true, err
	}
	if err := tx.Commit(); err != nil {
		return true, fmt.Errorf("idempotency: inbox: commit %q: %w", messageID, err)
	}
	return true, nil
}

func (in *Inbox) consumeMemory(ctx context.Context, id string, handle func(ctx context.Context) error) (bool, error) {
	for {
		in.mu.Lock()
		e := in.seen[id]
		if e == nil {
			e = &inboxEntry{done: make(chan struct{})}
			in.seen[id] = e
			in.mu.Unlock()
			return true, in.runMemory(ctx, id, e, handle)
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

func (in *Inbox) runMemory(ctx context.Context, id string, e *inboxEntry, handle func(ctx context.Context) error) (err error) {
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

// Seen reports whether messageID has been consumed (its handler succeeded and was recorded).
func (in *Inbox) Seen(ctx context.Context, messageID string) (bool, error) {
	if in.db == nil {
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
	var ok bool
	err := in.db.QueryRowContext(ctx, in.qSeen, messageID).Scan(&ok)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("idempotency: inbox: %w", err)
	}
	return ok, nil
}

// Prune forgets the ids consumed more than olderThan ago and returns how many it removed. Choose
// olderThan well above the longest time the broker may take to redeliver a message: a redelivery after
// its id was pruned runs the handler again.
func (in *Inbox) Prune(ctx context.Context, olderThan time.Duration) (int, error) {
	if in.db == nil {
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
	res, err := in.db.ExecContext(ctx, in.qPrune, micros(olderThan))
	if err != nil {
		return 0, fmt.Errorf("idempotency: inbox: prune: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("idempotency: inbox: prune: %w", err)
	}
	return int(n), nil
}
