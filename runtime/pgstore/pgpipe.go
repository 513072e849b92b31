package pgstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

// pipePool is the pool on which PostgresStore.ClaimBegin and the
// PostgreSQL Inbox pipeline their statements: several statements, each
// with its own Sync where it must commit on its own, sent in one write and
// answered in one read, so that they cost one round trip. The *sql.Tx that
// idempotency.Tx returns must then come from a driver connection whose BeginTx sends
// nothing (the pipeline has sent BEGIN), so pipePool is a database/sql
// pool of its own, over connections borrowed from the application's
// *sql.DB: each is checked out of it (DB.Conn) for as long as pipePool
// uses it and returned when pipePool closes it, which it does as soon as
// it is released (no idle connections), so the application's pool keeps
// its limits, its closing and its connections. (The borrowed driver
// connection is used outside Conn.Raw's callback, while its *sql.Conn stays
// checked out: database/sql does not touch a checked-out connection.)
type pipePool struct {
	db *sql.DB
}

// newPipePool returns a pipePool over db, or nil when db's driver is not
// pgx's stdlib (the store then sends one statement at a time).
func newPipePool(db *sql.DB) *pipePool {
	if _, ok := db.Driver().(*stdlib.Driver); !ok {
		return nil
	}
	p := &pipePool{db: sql.OpenDB(pipeConnector{db})}
	p.db.SetMaxIdleConns(-1) // each connection goes back to db when released
	return p
}

// pipeConnector borrows connections from an application's *sql.DB.
type pipeConnector struct{ db *sql.DB }

func (c pipeConnector) Connect(ctx context.Context) (driver.Conn, error) {
	sc, err := c.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	var pc *pipeConn
	err = sc.Raw(func(dc any) error {
		inner, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("idempotency: pgx driver returned a %T", dc)
		}
		pc = &pipeConn{Conn: inner, sc: sc}
		return nil
	})
	if err != nil {
		sc.Close()
		return nil, err
	}
	return pc, nil
}

func (c pipeConnector) Driver() driver.Driver { return c.db.Driver() }

// pipeConn is a pgx stdlib connection whose transactions are begun by a
// pipeline: BeginTx returns the transaction the last pipeline opened,
// without a round trip.
type pipeConn struct {
	*stdlib.Conn
	sc    *sql.Conn // the application's, checked out while pipePool uses the connection
	eqb   pgx.ExtendedQueryBuilder
	begun bool // a pipeline sent BEGIN; the next BeginTx returns its transaction
	tx    *pipeTx
}

func (c *pipeConn) BeginTx(ctx context.Context, _ driver.TxOptions) (driver.Tx, error) {
	if !c.begun {
		return nil, errors.New("idempotency: pipelined connection: BeginTx without a pipelined BEGIN")
	}
	c.begun = false
	c.tx = &pipeTx{c: c, ctx: ctx}
	return c.tx, nil
}

func (c *pipeConn) ResetSession(ctx context.Context) error {
	c.begun, c.tx = false, nil
	return c.Conn.ResetSession(ctx)
}

// Close gives the connection back to the application's pool, which
// discards it if it is broken or still in a transaction.
func (c *pipeConn) Close() error { return c.sc.Close() }

func (c *pipeConn) pg() *pgx.Conn { return c.Conn.Conn() }

// pipeTx is a transaction begun by a pipeline. A pipeline may also end it
// (the completion and COMMIT in one round trip): Commit and Rollback then
// send nothing.
type pipeTx struct {
	c    *pipeConn
	ctx  context.Context
	done bool
}

func (t *pipeTx) Commit() error {
	tag, err := t.end(t.ctx, "commit")
	if err != nil {
		return err
	}
	if tag.String() == "ROLLBACK" {
		return pgx.ErrTxCommitRollback
	}
	return nil
}

func (t *pipeTx) Rollback() error {
	_, err := t.end(context.WithoutCancel(t.ctx), "rollback")
	return err
}

// end sends stmt (commit, rollback) unless the transaction has ended already.
func (t *pipeTx) end(ctx context.Context, stmt string) (pgconn.CommandTag, error) {
	if t.done {
		return pgconn.CommandTag{}, nil
	}
	t.done = true
	return t.c.pg().Exec(ctx, stmt)
}

// beginSQL is the BEGIN statement for an isolation level, or "" for a level
// PostgreSQL does not have.
func beginSQL(iso sql.IsolationLevel) string {
	switch iso {
	case sql.LevelDefault:
		return "begin"
	case sql.LevelReadUncommitted:
		return "begin isolation level read uncommitted"
	case sql.LevelReadCommitted:
		return "begin isolation level read committed"
	case sql.LevelRepeatableRead, sql.LevelSnapshot:
		return "begin isolation level repeatable read"
	case sql.LevelSerializable:
		return "begin isolation level serializable"
	}
	return ""
}

// pipeline is one round trip on a pipeConn: queued statements, each read
// back in order.
type pipeline struct {
	c   *pipeConn
	ctx context.Context
	p   *pgconn.Pipeline
}

func (c *pipeConn) pipeline(ctx context.Context) *pipeline {
	return &pipeline{c: c, ctx: ctx, p: c.pg().PgConn().StartPipeline(ctx)}
}

// preparedPipeline prepares query (once per connection) for pipeline.prepared, then starts a pipeline.
func (c *pipeConn) preparedPipeline(ctx context.Context, query string) (*pipeline, *pgconn.StatementDescription, error) {
	sd, err := c.prepare(ctx, query)
	if err != nil {
		return nil, nil, err
	}
	return c.pipeline(ctx), sd, nil
}

// onPipeConn runs f on conn's driver connection, a pipeConn (conn is from a pipePool's database).
func onPipeConn(conn *sql.Conn, f func(pc *pipeConn) error) error {
	return conn.Raw(func(dc any) error { return f(dc.(*pipeConn)) })
}

// adoptTx returns database/sql's transaction on conn for the one a pipeline's BEGIN opened on the server
// (the pipeline ended with keep): no round trip. When it fails, adoptTx rolls the server's transaction
// back and closes conn.
func adoptTx(ctx context.Context, conn *sql.Conn) (*sql.Tx, error) {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		onPipeConn(conn, func(pc *pipeConn) error { // the server's transaction is open: end it
			_, _ = pc.pg().Exec(context.WithoutCancel(ctx), "rollback")
			return nil
		})
		conn.Close()
	}
	return tx, err
}

// prepared queues query (prepared once per connection) with args.
func (pl *pipeline) prepared(sd *pgconn.StatementDescription, args ...any) error {
	if err := pl.c.eqb.Build(pl.c.pg().TypeMap(), sd, args); err != nil {
		return err
	}
	pl.p.SendQueryStatement(sd, pl.c.eqb.ParamValues, pl.c.eqb.ParamFormats, pl.c.eqb.ResultFormats)
	return nil
}

// read reads the next statement's result: scan, when not nil, is called on
// each row with a scanner of its columns; the command tag is returned.
func (pl *pipeline) read(scan func(row func(dest ...any) error) error) (pgconn.CommandTag, error) {
	res, err := pl.p.GetResults()
	if err != nil {
		return pgconn.CommandTag{}, err
	}
	rr, ok := res.(*pgconn.ResultReader)
	if !ok {
		return pgconn.CommandTag{}, fmt.Errorf("idempotency: pipeline: unexpected result %T", res)
	}
	var scanErr error
	m := pl.c.pg().TypeMap()
	for rr.NextRow() {
		if scan == nil || scanErr != nil {
			continue
		}
		fds, vals := rr.FieldDescriptions(), rr.Values()
		scanErr = scan(func(dest ...any) error {
			if len(dest) != len(vals) {
				return fmt.Errorf("idempotency: pipeline: %d columns, %d destinations", len(vals), len(dest))
			}
			for i := range dest {
				if err := m.Scan(fds[i].DataTypeOID, fds[i].Format, vals[i], dest[i]); err != nil {
					return fmt.Errorf("idempotency: pipeline: column %s: %w", fds[i].Name, err)
				}
			}
			return nil
		})
	}
	tag, err := rr.Close()
	if err == nil {
		err = scanErr
	}
	return tag, err
}

// close reads what is left of the pipeline and returns the connection to
// normal mode; it reports the transaction status the server is in ('I'
// idle, 'T' in a transaction, 'E' in a failed one).
func (pl *pipeline) close() (byte, error) {
	err := pl.p.Close()
	return pl.c.pg().PgConn().TxStatus(), err
}

// end closes pl and rolls back the transaction the server is left in, if
// any, unless keep: with keep, a pipeline that closes without an error in
// a transaction ('T', the one its BEGIN opened) leaves the transaction to
// the connection's next BeginTx (see adoptTx). err is close's error, or
// the rollback's.
func (pl *pipeline) end(keep bool) error {
	status, err := pl.close()
	if keep && err == nil && status == 'T' {
		pl.c.begun = true
		return nil
	}
	if status != 'I' {
		if _, rerr := pl.c.pg().Exec(context.WithoutCancel(pl.ctx), "rollback"); rerr != nil && err == nil {
			err = rerr
		}
	}
	return err
}

// prepare returns query's statement on c, preparing it on first use.
func (c *pipeConn) prepare(ctx context.Context, query string) (*pgconn.StatementDescription, error) {
	return c.pg().Prepare(ctx, query, query)
}

// ClaimBegin implements idempotency.ClaimBeginner: with the pgx driver, the claim and
// the BEGIN of the handler's transaction go in one round trip (the claim
// committing on its own, before the BEGIN), and the unit of work's
// Complete sends the completion and the COMMIT in one more, so that a
// fresh keyed request costs the round trips of the handler's own
// statements plus one. A claim that finds the key held answers from the
// claim's own row and rolls the transaction back (a second round trip).
// With another driver, or when the claim has to run again (a concurrent
// change, a serialization failure), it is Claim then Begin.
func (s *PostgresStore) ClaimBegin(ctx context.Context, req idempotency.ClaimRequest) (idempotency.ClaimResult, idempotency.Work, error) {
	if err := req.Check(); err != nil {
		return idempotency.ClaimResult{}, nil, fmt.Errorf("postgres claim: %w", err)
	}
	var (
		ran      int
		conflict error
	)
	if s.pipe != nil {
		res, w, done, err := s.claimBeginPiped(ctx, req)
		if done {
			return res, w, err
		}
		if err != nil { // a conflict: the claim's first run
			ran, conflict = 1, err
		}
	}
	res, err := s.claimFrom(ctx, ran, conflict, req)
	if err != nil || (res.Outcome != idempotency.Acquired && res.Outcome != idempotency.TakenOver) {
		return res, nil, err
	}
	w, err := s.Begin(ctx, res.Lease)
	if err != nil {
		s.releaseDetached(ctx, res.Lease)
		return idempotency.ClaimResult{}, nil, err
	}
	return res, w, nil
}

// releaseDetached releases l with a context that outlives ctx.
func (s *PostgresStore) releaseDetached(ctx context.Context, l idempotency.Lease) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	_ = s.Release(ctx, l) // the caller reports the error that made it release
}

// claimBeginPiped is ClaimBegin in one round trip; done is false when the
// claim must run again (ClaimBegin then takes the statement-at-a-time way,
// which has the retries), with err the conflict that made it fail, if any.
func (s *PostgresStore) claimBeginPiped(ctx context.Context, req idempotency.ClaimRequest) (res idempotency.ClaimResult, w idempotency.Work, done bool, err error) {
	conn, err := s.pipe.db.Conn(ctx)
	if err != nil {
		return idempotency.ClaimResult{}, nil, true, fmt.Errorf("postgres claim: %w", classifyPG(err))
	}
	var (
		row             claimRow
		found, complete bool
		claimErr        error
	)
	err = onPipeConn(conn, func(pc *pipeConn) error {
		pl, sd, err := pc.preparedPipeline(ctx, s.qClaim)
		if err != nil {
			claimErr = err
			return nil
		}
		if err := pl.prepared(sd, req.Tenant, req.Key, idempotency.FingerprintVersion, req.Fingerprint, micros(req.LeaseTTL), micros(req.TTL)); err != nil {
			pl.close()
			claimErr = err
			return nil
		}
		pl.p.SendPipelineSync()
		pl.p.SendQueryParams(s.qBegin, nil, nil, nil, nil)
		pl.p.SendPipelineSync()
		if err := pl.p.Flush(); err != nil {
			return err
		}
		_, claimErr = pl.read(func(scan func(...any) error) error {
			found = true
			return scan(row.dest()...)
		})
		if claimErr == nil && found {
			res, complete, claimErr = row.result(req)
		}
		return pl.end(claimErr == nil && complete && owns(res))
	})
	switch {
	case claimErr == nil && complete && owns(res) && err != nil:
		// Claimed, but the transaction did not begin.
		conn.Close()
		s.releaseDetached(ctx, res.Lease)
		return idempotency.ClaimResult{}, nil, true, fmt.Errorf("postgres begin: %w", classifyPG(err))
	case claimErr != nil && !conflict(claimErr):
		conn.Close()
		return idempotency.ClaimResult{}, nil, true, fmt.Errorf("postgres claim: %w", classifyPG(claimErr))
	case err != nil:
		conn.Close()
		return idempotency.ClaimResult{}, nil, true, fmt.Errorf("postgres claim: %w", classifyPG(err))
	case claimErr != nil || !complete:
		conn.Close()
		return idempotency.ClaimResult{}, nil, false, claimErr
	case !owns(res):
		conn.Close()
		return res, nil, true, nil
	}
	tx, err := adoptTx(ctx, conn)
	if err != nil {
		s.releaseDetached(ctx, res.Lease)
		return idempotency.ClaimResult{}, nil, true, fmt.Errorf("postgres begin: %w", classifyPG(err))
	}
	return res, &pipeWork{s: s, l: res.Lease, conn: conn, tx: tx}, true, nil
}

func owns(r idempotency.ClaimResult) bool {
	return r.Outcome == idempotency.Acquired || r.Outcome == idempotency.TakenOver
}

// pipeWork is the unit of work ClaimBegin began on a pipeConn.
type pipeWork struct {
	s    *PostgresStore
	l    idempotency.Lease
	conn *sql.Conn
	tx   *sql.Tx
}

func (w *pipeWork) Context(ctx context.Context) context.Context {
	return idempotency.ContextWithTx(ctx, w.tx)
}

// end ends database/sql's transaction (sending a ROLLBACK only when no
// pipeline ended the server's) and returns the connection to the pool.
func (w *pipeWork) end() error {
	err := w.tx.Rollback()
	w.conn.Close()
	if errors.Is(err, sql.ErrTxDone) {
		return nil
	}
	return err
}

// Complete sends the completion and COMMIT in one round trip. The
// completion fails when it matches no row (qCompleteOnce), so that the
// server skips the COMMIT and the transaction is rolled back.
func (w *pipeWork) Complete(ctx context.Context, resp *idempotency.Response) error {
	headers, err := json.Marshal(resp.Header)
	if err != nil {
		_ = w.end() // the error above is the one to report
		return fmt.Errorf("postgres complete: %w", err)
	}
	body := resp.Body
	if body == nil {
		body = []byte{}
	}
	var stmtErr, commitErr error
	err = onPipeConn(w.conn, func(pc *pipeConn) error {
		if pc.tx == nil || pc.tx.done || pc.pg().PgConn().TxStatus() != 'T' {
			// The transaction ended under us (database/sql rolls it back
			// when the request's context is canceled).
			stmtErr = sql.ErrTxDone
			return nil
		}
		pl, sd, err := pc.preparedPipeline(ctx, w.s.qCompleteOnce)
		if err != nil {
			return err
		}
		if err := pl.prepared(sd, w.l.Tenant, w.l.Key, w.l.Fence, resp.Status, string(headers), body); err != nil {
			pl.close()
			return err
		}
		pl.p.SendQueryParams("commit", nil, nil, nil, nil)
		pl.p.SendPipelineSync()
		if err := pl.p.Flush(); err != nil {
			return err
		}
		_, stmtErr = pl.read(nil)
		if stmtErr == nil {
			var tag pgconn.CommandTag
			if tag, commitErr = pl.read(nil); commitErr == nil && tag.String() != "COMMIT" {
				commitErr = pgx.ErrTxCommitRollback
			}
		}
		err = pl.end(false)
		pc.tx.done = true
		return err
	})
	endErr := w.end()
	var pgErr *pgconn.PgError
	switch {
	case errors.As(stmtErr, &pgErr) && pgErr.Code == "22P02" && strings.Contains(pgErr.Message, leaseLostMark):
		return fmt.Errorf("postgres complete: %w", idempotency.ErrLeaseLost)
	case stmtErr != nil:
		return fmt.Errorf("postgres complete: %w", classifyPG(stmtErr))
	case commitErr != nil:
		return fmt.Errorf("postgres complete: commit: %w", classifyPG(commitErr))
	case err != nil:
		return fmt.Errorf("postgres complete: %w", classifyPG(err))
	case endErr != nil:
		return fmt.Errorf("postgres complete: %w", classifyPG(endErr))
	}
	return nil
}

func (w *pipeWork) Abort(ctx context.Context) error {
	if err := w.end(); err != nil {
		return fmt.Errorf("postgres abort: %w", err)
	}
	return nil
}
