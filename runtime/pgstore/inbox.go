package pgstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

// DefaultInboxTable is the table of NewPostgresInbox when WithTable is not given.
const DefaultInboxTable = "idempotency_inbox"

// pgInbox is an idempotency.InboxBackend in a PostgreSQL table.
type pgInbox struct {
	db                     *sql.DB
	table                  string
	iso                    sql.IsolationLevel
	qInsert, qSeen, qPrune string
	qBegin                 string
	pipe                   *pipePool // BEGIN and the id's insert in one round trip (pgx only)
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

// NewPostgresInbox returns an idempotency.Inbox in a PostgreSQL table, creating it if missing (see
// InboxDDL). Its Consume runs the handler in a transaction (idempotency.Tx) that also inserts the message
// id, so that both commit together. The options WithTable (default DefaultInboxTable) and WithIsolation
// (of the handler's transaction) apply.
func NewPostgresInbox(ctx context.Context, db *sql.DB, opts ...PostgresOption) (*idempotency.Inbox, error) {
	in, err := newPGInbox(ctx, db, opts)
	if err != nil {
		return nil, err
	}
	return idempotency.NewInbox(in), nil
}

// newPGInbox is NewPostgresInbox's backend.
func newPGInbox(ctx context.Context, db *sql.DB, opts []PostgresOption) (*pgInbox, error) {
	cfg, err := setUpTable(ctx, db, postgresConfig{table: DefaultInboxTable}, opts, InboxDDL)
	if err != nil {
		return nil, fmt.Errorf("idempotency: inbox: %w", err)
	}
	t := cfg.table
	in := &pgInbox{
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

func (in *pgInbox) Table() string { return in.table }

// Consume inserts messageID and runs handle in one transaction.
func (in *pgInbox) Consume(ctx context.Context, messageID string, handle func(ctx context.Context) error) (ran bool, err error) {
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
	if err := handle(idempotency.ContextWithTx(ctx, tx)); err != nil {
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
func (in *pgInbox) consumePiped(ctx context.Context, messageID string, handle func(ctx context.Context) error) (ran bool, err error) {
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
	if err := handle(idempotency.ContextWithTx(ctx, tx)); err != nil {
		return true, err
	}
	if err := tx.Commit(); err != nil {
		return true, fmt.Errorf("idempotency: inbox: commit %q: %w", messageID, err)
	}
	return true, nil
}

func (in *pgInbox) Seen(ctx context.Context, messageID string) (bool, error) {
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

func (in *pgInbox) Prune(ctx context.Context, olderThan time.Duration) (int, error) {
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
