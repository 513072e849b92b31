package pgstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/internal/poll"
)

// PostgresStore is an idempotency.Store in a PostgreSQL table, shared by every instance
// of a service. All time comparisons use the database's clock (now()).
//
// Every claim is one statement (INSERT … ON CONFLICT DO UPDATE joined with
// a read of the key, autocommit): it inserts, recycles or takes the key
// over, or returns what holds it (the stored response, the remaining
// lease, a mismatch). The completion is an UPDATE … WHERE fence = $n run in
// the handler's own transaction (see idempotency.Tx), so the business writes and the
// stored response commit or roll back together, and a stale owner's
// completion matches no row and is rolled back.
//
// Use it through database/sql with the pgx driver:
//
//	db, err := sql.Open("pgx", dsn) // import _ "github.com/jackc/pgx/v5/stdlib"
type PostgresStore struct {
	db    *sql.DB
	table string
	seq   string
	iso   sql.IsolationLevel

	conflictRetries int

	qClaim, qComplete, qDelete, qUnlock, qStep, qLookup, qReap string

	// pipe, when the driver is pgx, runs ClaimBegin's claim and BEGIN in
	// one round trip, and the completion and COMMIT in another.
	pipe                  *pipePool
	qBegin, qCompleteOnce string
}

// PostgresOption configures a PostgresStore.
type PostgresOption func(*postgresConfig)

type postgresConfig struct {
	table           string
	iso             sql.IsolationLevel
	syncClaim       bool
	conflictRetries int
}

// WithConflictRetries sets how many times the store runs one of its own
// statements again (claim, release, step, lookup, reap) after a
// serialization failure (SQLSTATE 40001) or a deadlock (40P01), with a few
// jittered milliseconds between runs (default DefaultConflictRetries; 0 for
// none). Once they are spent the error wraps idempotency.ErrStoreUnavailable. The
// handler's transaction is not retried: a conflict there rolls the attempt
// back and idempotency.Middleware answers 503, so the client retries.
func WithConflictRetries(n int) PostgresOption {
	return func(c *postgresConfig) { c.conflictRetries = max(n, 0) }
}

// WithSyncClaim makes the claim statement commit with the session's
// synchronous_commit setting. By default the claim commits with
// synchronous_commit = off, set for that statement only: it saves a WAL
// flush per request and is safe, because every later commit that matters
// (the completion with the business writes, a recorded step) flushes the
// WAL past the claim; a claim lost in a database crash belongs to an
// attempt whose transaction was lost too, so its retry simply starts over.
func WithSyncClaim() PostgresOption {
	return func(c *postgresConfig) { c.syncClaim = true }
}

// claimSQL is the claim statement: one INSERT … ON CONFLICT DO UPDATE that
// inserts a fresh key, recycles an expired one or takes over a key whose
// lease ended (the DO UPDATE's WHERE decides, on the row's latest version,
// under its lock), joined with a read of the key's row for the answers
// that change nothing (replay, in progress, mismatch), so that every
// outcome costs this one statement. Its columns: claimed (the first
// branch: the row was inserted or updated), fence, fresh (inserted or
// recycled, so Acquired; else TakenOver), steps, then for the second
// branch fingerprint, completed, locked, remaining lease in seconds,
// expired (the snapshot's row was claimable although the DO UPDATE found
// it not to be: a concurrent change, so claim again), resp_status,
// resp_headers, resp_body. The second branch reads the statement's
// snapshot, which may predate the row that conflicted (committed while the
// insert waited for it): it then finds nothing, and the claim runs again.
func claimSQL(t, seq string, sync bool) string {
	vals := `$1, $2, $3::smallint, $4::bytea, 'in_progress', nextval('` + seq + `'),
	now() + $5::bigint * interval '1 microsecond', now() + $6::bigint * interval '1 microsecond'`
	src := `VALUES (` + vals + `)`
	if !sync {
		src = `SELECT ` + vals + ` FROM (SELECT set_config('synchronous_commit', 'off', true)) AS async_commit`
	}
	const locked = `coalesce(k.locked_until > now(), false)`
	const expired = `(k.expires_at <= now() AND NOT ` + locked + `)`
	ifExpired := func(v, keep string) string { return `CASE WHEN ` + expired + ` THEN ` + v + ` ELSE ` + keep + ` END` }
	return `WITH claim AS (
INSERT INTO ` + t + ` AS k (tenant, idem_key, fp_version, fingerprint, state, fence, locked_until, expires_at)
` + src + `
ON CONFLICT (tenant, idem_key) DO UPDATE SET
	fp_version = ` + ifExpired(`excluded.fp_version`, `k.fp_version`) + `,
	fingerprint = ` + ifExpired(`excluded.fingerprint`, `k.fingerprint`) + `,
	state = 'in_progress', fence = nextval('` + seq + `'), locked_until = excluded.locked_until,
	expires_at = ` + ifExpired(`excluded.expires_at`, `k.expires_at`) + `,
	steps = ` + ifExpired(`'{}'::jsonb`, `k.steps`) + `,
	resp_status = NULL, resp_headers = NULL, resp_body = NULL, completed_at = NULL,
	created_at = ` + ifExpired(`now()`, `k.created_at`) + `
WHERE ` + expired + ` OR (k.fingerprint = excluded.fingerprint AND k.state = 'in_progress' AND NOT ` + locked + `)
RETURNING k.fence, k.created_at = now() AS fresh, k.steps
)
SELECT true, fence, fresh, steps, NULL::bytea, false, false, 0::float8, false, NULL::int, NULL::jsonb, NULL::bytea FROM claim
UNION ALL
SELECT false, k.fence, false, k.steps, k.fingerprint, k.state = 'completed', ` + locked + `,
	greatest(coalesce(extract(epoch FROM k.locked_until - now()), 0), 0)::float8,
	` + expired + ` OR (k.fingerprint = $4::bytea AND k.state = 'in_progress' AND NOT ` + locked + `),
	k.resp_status, k.resp_headers, k.resp_body
FROM ` + t + ` AS k WHERE k.tenant = $1 AND k.idem_key = $2 AND NOT EXISTS (SELECT FROM claim)`
}

// WithTable sets the table name (default "idempotency_keys"), optionally
// schema-qualified ("app.idempotency_keys"). Each part must be a plain SQL
// identifier (letters, digits, underscores).
func WithTable(name string) PostgresOption {
	return func(c *postgresConfig) { c.table = name }
}

// WithIsolation sets the isolation level of the handler's transaction
// (default: the database's, normally READ COMMITTED).
func WithIsolation(level sql.IsolationLevel) PostgresOption {
	return func(c *postgresConfig) { c.iso = level }
}

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,62}(\.[A-Za-z_][A-Za-z0-9_]{0,62})?$`)

// DDL returns the statements NewPostgresStore runs to create the table, its
// fence sequence and its expiry index when missing, for the given table
// name (see WithTable).
func DDL(table string) []string {
	seq := table + "_fence_seq"
	return []string{
		`CREATE SEQUENCE IF NOT EXISTS ` + seq,
		`CREATE TABLE IF NOT EXISTS ` + table + ` (
	tenant       text        NOT NULL,
	idem_key     text        NOT NULL CHECK (char_length(idem_key) BETWEEN 1 AND 255),
	fp_version   smallint    NOT NULL,
	fingerprint  bytea       NOT NULL,
	state        text        NOT NULL CHECK (state IN ('in_progress', 'completed')),
	fence        bigint      NOT NULL,
	locked_until timestamptz,
	steps        jsonb       NOT NULL DEFAULT '{}',
	resp_status  int,
	resp_headers jsonb,
	resp_body    bytea,
	created_at   timestamptz NOT NULL DEFAULT now(),
	completed_at timestamptz,
	expires_at   timestamptz NOT NULL,
	PRIMARY KEY (tenant, idem_key)
)`,
		createIndex(table, "_expires_at_idx", "(expires_at)"),
	}
}

// createIndex returns the statement that creates, when missing, the index of table on the columns (and
// WHERE clause, if any) of on. Its name is the table's without the schema (an index lives in its table's
// schema), then suffix.
func createIndex(table, suffix, on string) string {
	idx := table[strings.LastIndexByte(table, '.')+1:] + suffix
	return `CREATE INDEX IF NOT EXISTS ` + idx + ` ON ` + table + ` ` + on
}

// NewPostgresStore returns a store in db, creating its table, sequence and
// index if missing (see DDL). Concurrent creations are serialised with an
// advisory lock.
func NewPostgresStore(ctx context.Context, db *sql.DB, opts ...PostgresOption) (*PostgresStore, error) {
	cfg, err := setUpTable(ctx, db, postgresConfig{table: "idempotency_keys", conflictRetries: DefaultConflictRetries}, opts, DDL)
	if err != nil {
		return nil, fmt.Errorf("idempotency: %w", err)
	}
	t, seq := cfg.table, cfg.table+"_fence_seq"
	const pk = ` WHERE tenant = $1 AND idem_key = $2`
	const owned = pk + ` AND fence = $3 AND state = 'in_progress'`
	s := &PostgresStore{
		db: db, table: t, seq: seq, iso: cfg.iso, conflictRetries: cfg.conflictRetries,
		qClaim: claimSQL(t, seq, cfg.syncClaim),
		qComplete: `UPDATE ` + t + ` SET state = 'completed', resp_status = $4, resp_headers = $5, resp_body = $6,
	locked_until = NULL, completed_at = now()` + owned,
		qDelete: `DELETE FROM ` + t + owned + ` AND steps = '{}'::jsonb`,
		qUnlock: `UPDATE ` + t + ` SET locked_until = now()` + owned,
		qStep:   `UPDATE ` + t + ` SET steps = steps || jsonb_build_object($4::text, $5::jsonb)` + owned,
		qLookup: `SELECT fingerprint, state = 'completed', fence, steps, resp_status, resp_headers, resp_body, expires_at
FROM ` + t + pk + ` AND expires_at > now()`,
		qReap: `DELETE FROM ` + t + ` WHERE ctid IN (SELECT ctid FROM ` + t + ` WHERE expires_at <= now()
	AND (state = 'completed' OR locked_until IS NULL OR locked_until <= now()) LIMIT $1)`,
		qBegin: beginSQL(cfg.iso),
	}
	// qCompleteOnce is qComplete failing (22P02, with leaseLostMark in its
	// message) when it matches no row, so that the COMMIT sent after it in
	// the same round trip is skipped and the transaction rolls back.
	s.qCompleteOnce = `WITH done AS (` + s.qComplete + ` RETURNING 1)
SELECT (CASE WHEN count(*) = 1 THEN '1' ELSE '` + leaseLostMark + `' END)::int FROM done`
	if s.qBegin != "" {
		s.pipe = newPipePool(db)
	}
	return s, nil
}

// leaseLostMark is the text of qCompleteOnce's error when the lease is lost.
const leaseLostMark = "idempotency: lease lost"

// Ping checks that the database answers (for readiness probes); its error
// is classified as the store's are (idempotency.ErrStoreUnavailable for a connection
// failure).
func (s *PostgresStore) Ping(ctx context.Context) error {
	if err := s.db.PingContext(ctx); err != nil {
		return fmt.Errorf("postgres ping: %w", classifyPG(err))
	}
	return nil
}

// Table returns the store's table name.
func (s *PostgresStore) Table() string { return s.table }

func micros(d time.Duration) int64 { return d.Microseconds() }

// Claim implements idempotency.Store. It refuses a scope or key the table cannot hold
// (see idempotency.CheckScope, CheckKey) with idempotency.ErrStoreRejected before the database
// sees it; database errors are classified by SQLSTATE (see
// docs/runtime-idempotency.md#errors-of-the-stores).
func (s *PostgresStore) Claim(ctx context.Context, req idempotency.ClaimRequest) (idempotency.ClaimResult, error) {
	if err := req.Check(); err != nil {
		return idempotency.ClaimResult{}, fmt.Errorf("postgres claim: %w", err)
	}
	return s.claimFrom(ctx, 0, nil, req)
}

// claimFrom is Claim after n runs of the claim, the last failing with the
// conflict err (see retryConflictsFrom).
func (s *PostgresStore) claimFrom(ctx context.Context, n int, prev error, req idempotency.ClaimRequest) (idempotency.ClaimResult, error) {
	var res idempotency.ClaimResult
	err := s.retryConflictsFrom(ctx, n, prev, func() error {
		var err error
		res, err = s.claim(ctx, req)
		return err
	})
	if err != nil {
		return idempotency.ClaimResult{}, fmt.Errorf("postgres claim: %w", err)
	}
	return res, nil
}

func (s *PostgresStore) claim(ctx context.Context, req idempotency.ClaimRequest) (idempotency.ClaimResult, error) {
	for range 3 {
		var row claimRow
		err := s.db.QueryRowContext(ctx, s.qClaim, req.Tenant, req.Key, idempotency.FingerprintVersion, req.Fingerprint,
			micros(req.LeaseTTL), micros(req.TTL)).Scan(row.dest()...)
		if errors.Is(err, sql.ErrNoRows) {
			continue // the conflicting row is newer than the statement's snapshot: claim again
		}
		if err != nil {
			return idempotency.ClaimResult{}, err
		}
		res, ok, err := row.result(req)
		if err != nil || ok {
			return res, err
		}
		// The row changed under the claim (released, reaped, recycled or
		// taken over in between): claim again.
	}
	return idempotency.ClaimResult{}, fmt.Errorf("%w: key kept changing under contention", idempotency.ErrStoreUnavailable)
}

// claimRow is a row of the claim statement (see claimSQL).
type claimRow struct {
	claimed, fresh, completed, locked, again bool
	fence                                    int64
	remaining                                float64
	steps, fp, headers, body                 []byte
	status                                   sql.NullInt64
}

func (r *claimRow) dest() []any {
	return []any{&r.claimed, &r.fence, &r.fresh, &r.steps, &r.fp, &r.completed, &r.locked, &r.remaining, &r.again,
		&r.status, &r.headers, &r.body}
}

// result turns the row into the claim's result; ok is false when the claim
// must run again.
func (r *claimRow) result(req idempotency.ClaimRequest) (res idempotency.ClaimResult, ok bool, err error) {
	switch {
	case r.claimed && r.fresh:
		return idempotency.ClaimResult{Outcome: idempotency.Acquired, Lease: idempotency.Lease{Tenant: req.Tenant, Key: req.Key, Fence: r.fence}}, true, nil
	case r.claimed:
		st, err := decodeSteps(r.steps)
		if err != nil {
			return idempotency.ClaimResult{}, false, err
		}
		return idempotency.ClaimResult{Outcome: idempotency.TakenOver, Lease: idempotency.Lease{Tenant: req.Tenant, Key: req.Key, Fence: r.fence}, Steps: st}, true, nil
	case r.again:
		return idempotency.ClaimResult{}, false, nil
	case string(r.fp) != string(req.Fingerprint):
		return idempotency.ClaimResult{Outcome: idempotency.Mismatch}, true, nil
	case r.completed:
		resp, err := decodeResponse(r.status, r.headers, r.body)
		if err != nil {
			return idempotency.ClaimResult{}, false, err
		}
		return idempotency.ClaimResult{Outcome: idempotency.Completed, Response: resp}, true, nil
	case r.locked:
		return idempotency.ClaimResult{Outcome: idempotency.InProgress, RetryAfter: time.Duration(r.remaining * float64(time.Second))}, true, nil
	}
	return idempotency.ClaimResult{}, false, nil
}

func decodeSteps(b []byte) (map[string]json.RawMessage, error) {
	if len(b) == 0 {
		return nil, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("decode steps: %w", err)
	}
	if len(m) == 0 {
		return nil, nil
	}
	return m, nil
}

func decodeResponse(status sql.NullInt64, headers, body []byte) (*idempotency.Response, error) {
	if !status.Valid {
		return nil, errors.New("completed key without a response")
	}
	r := &idempotency.Response{Status: int(status.Int64), Body: body}
	if len(headers) > 0 {
		if err := json.Unmarshal(headers, &r.Header); err != nil {
			return nil, fmt.Errorf("decode headers: %w", err)
		}
	}
	if r.Body == nil {
		r.Body = []byte{}
	}
	return r, nil
}

// Begin implements idempotency.Store: it opens the transaction the handler joins
// through idempotency.Tx.
func (s *PostgresStore) Begin(ctx context.Context, l idempotency.Lease) (idempotency.Work, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: s.iso})
	if err != nil {
		return nil, fmt.Errorf("postgres begin: %w", classifyPG(err))
	}
	return &pgWork{s: s, l: l, tx: tx}, nil
}

// Release implements idempotency.Store.
func (s *PostgresStore) Release(ctx context.Context, l idempotency.Lease) error {
	err := s.retryConflicts(ctx, func() error {
		res, err := s.db.ExecContext(ctx, s.qDelete, l.Tenant, l.Key, l.Fence)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return nil
		}
		// Steps recorded (or the lease was lost): keep the row, end the lease.
		_, err = s.db.ExecContext(ctx, s.qUnlock, l.Tenant, l.Key, l.Fence)
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres release: %w", err)
	}
	return nil
}

// SaveStep implements idempotency.Store. The step is committed on its own, outside the
// handler's transaction, so it survives that transaction's rollback.
func (s *PostgresStore) SaveStep(ctx context.Context, l idempotency.Lease, step string, result json.RawMessage) error {
	if len(result) == 0 {
		result = json.RawMessage("null")
	}
	var res sql.Result
	err := s.retryConflicts(ctx, func() error {
		var err error
		res, err = s.db.ExecContext(ctx, s.qStep, l.Tenant, l.Key, l.Fence, step, string(result))
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres save step %q: %w", step, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("postgres save step %q: %w", step, idempotency.ErrLeaseLost)
	}
	return nil
}

// Lookup implements idempotency.Store.
func (s *PostgresStore) Lookup(ctx context.Context, tenant, key string) (*idempotency.Record, error) {
	var (
		rec            = idempotency.Record{Tenant: tenant, Key: key}
		steps, headers []byte
		status         sql.NullInt64
		body           []byte
	)
	err := s.retryConflicts(ctx, func() error {
		return s.db.QueryRowContext(ctx, s.qLookup, tenant, key).
			Scan(&rec.Fingerprint, &rec.Completed, &rec.Fence, &steps, &status, &headers, &body, &rec.ExpiresAt)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("postgres lookup: %w", idempotency.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("postgres lookup: %w", err)
	}
	if rec.Steps, err = decodeSteps(steps); err != nil {
		return nil, fmt.Errorf("postgres lookup: %w", err)
	}
	if rec.Completed {
		if rec.Response, err = decodeResponse(status, headers, body); err != nil {
			return nil, fmt.Errorf("postgres lookup: %w", err)
		}
	}
	return &rec, nil
}

// Reap deletes expired keys in batches of batchSize (default 1000 when
// batchSize <= 0), each batch its own statement, until a batch comes back
// short. In-progress keys whose lease is still valid are kept. It returns
// the number of keys deleted.
func (s *PostgresStore) Reap(ctx context.Context, batchSize int) (int, error) {
	if batchSize <= 0 {
		batchSize = 1000
	}
	total := 0
	for {
		var res sql.Result
		err := s.retryConflicts(ctx, func() error {
			var err error
			res, err = s.db.ExecContext(ctx, s.qReap, batchSize)
			return err
		})
		if err != nil {
			return total, fmt.Errorf("postgres reap: %w", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return total, fmt.Errorf("postgres reap: %w", err)
		}
		total += int(n)
		if int(n) < batchSize {
			return total, nil
		}
	}
}

// RunReaper calls Reap every interval (counted from the end of the last
// run, so that a long run is not followed at once by another) until ctx is
// done, then returns ctx's error. Errors of single runs are passed to
// onError (if not nil) and do not stop the loop. It panics when interval
// is not positive.
func (s *PostgresStore) RunReaper(ctx context.Context, interval time.Duration, batchSize int, onError func(error)) error {
	if interval <= 0 {
		panic("idempotency: non-positive interval for RunReaper")
	}
	return poll.Run(ctx, interval, func() time.Duration {
		if _, err := s.Reap(ctx, batchSize); err != nil && onError != nil && ctx.Err() == nil {
			onError(err)
		}
		return interval
	})
}

type pgWork struct {
	s  *PostgresStore
	l  idempotency.Lease
	tx *sql.Tx
}

func (w *pgWork) Context(ctx context.Context) context.Context {
	return idempotency.ContextWithTx(ctx, w.tx)
}

func (w *pgWork) Complete(ctx context.Context, resp *idempotency.Response) error {
	headers, err := json.Marshal(resp.Header)
	if err != nil {
		_ = w.tx.Rollback() // the error above is the one to report
		return fmt.Errorf("postgres complete: %w", err)
	}
	body := resp.Body
	if body == nil {
		body = []byte{}
	}
	res, err := w.tx.ExecContext(ctx, w.s.qComplete, w.l.Tenant, w.l.Key, w.l.Fence, resp.Status, string(headers), body)
	if err != nil {
		_ = w.tx.Rollback() // the error above is the one to report
		return fmt.Errorf("postgres complete: %w", classifyPG(err))
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		_ = w.tx.Rollback() // the error above is the one to report
		return fmt.Errorf("postgres complete: %w", idempotency.ErrLeaseLost)
	}
	if err := w.tx.Commit(); err != nil {
		return fmt.Errorf("postgres complete: commit: %w", classifyPG(err))
	}
	return nil
}

func (w *pgWork) Abort(ctx context.Context) error {
	if err := w.tx.Rollback(); err != nil && !errors.Is(err, sql.ErrTxDone) {
		return fmt.Errorf("postgres abort: %w", err)
	}
	return nil
}
