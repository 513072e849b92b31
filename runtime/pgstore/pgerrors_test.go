package pgstore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/idempotency/storetest"
	"github.com/idemlint/idemlint/runtime/internal/reqtest"
)

// faultTable installs on the store's table a trigger that makes the next
// `times` inserts and updates fail with SQLSTATE state, raised by the
// server itself; injected reports how many rows the trigger has seen since.
func faultTable(t *testing.T, db *sql.DB) (arm func(state string, times int), injected func() int64) {
	t.Helper()
	for _, stmt := range []string{
		`CREATE SEQUENCE fault_seq`,
		`CREATE TABLE fault (state text NOT NULL, times bigint NOT NULL)`,
		`CREATE FUNCTION fault() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE f record;
BEGIN
	SELECT * INTO f FROM fault LIMIT 1;
	IF FOUND AND nextval('fault_seq') <= f.times THEN
		RAISE EXCEPTION 'injected fault %', f.state USING ERRCODE = f.state;
	END IF;
	RETURN NEW;
END $$`,
		`CREATE TRIGGER fault BEFORE INSERT OR UPDATE ON idempotency_keys FOR EACH ROW EXECUTE FUNCTION fault()`,
	} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("install fault trigger: %v", err)
		}
	}
	arm = func(state string, times int) {
		t.Helper()
		if _, err := db.Exec(`DELETE FROM fault`); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`SELECT setval('fault_seq', 1, false)`); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`INSERT INTO fault VALUES ($1, $2)`, state, times); err != nil {
			t.Fatal(err)
		}
	}
	injected = func() int64 {
		t.Helper()
		var n int64
		if err := db.QueryRow(`SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM fault_seq`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	return arm, injected
}

// Store errors are answered by their class (SQLSTATE): unavailability 503
// with Retry-After, the handler not run; serialization failures and
// deadlocks retried inside the store a bounded number of times; data
// exceptions and limits 400 without Retry-After, so clients stop.
func TestPostgresErrorClasses(t *testing.T) {
	b := newPostgresBackend(t)
	arm, injected := faultTable(t, b.DB)
	h := idempotency.Middleware(b.Store)(storetest.PaymentHandler(b, 0))
	for _, c := range []struct {
		state      string
		times      int
		status     int
		problem    string // "" for a success
		retryAfter bool
		rows       int64 // rows the trigger saw: 1 + the store's retries (+ 1 for the completion)
	}{
		{"08006", 1, 503, idempotency.ProblemStoreUnavailable, true, 1},
		{"08001", 1, 503, idempotency.ProblemStoreUnavailable, true, 1},
		{"53300", 1, 503, idempotency.ProblemStoreUnavailable, true, 1},
		{"53200", 1, 503, idempotency.ProblemStoreUnavailable, true, 1},
		{"57P01", 1, 503, idempotency.ProblemStoreUnavailable, true, 1},
		{"57P03", 1, 503, idempotency.ProblemStoreUnavailable, true, 1},
		{"40001", 2, 201, "", false, 4}, // retried twice, claimed, completed (an update)
		{"40P01", 2, 201, "", false, 4},
		{"40001", 100, 503, idempotency.ProblemStoreUnavailable, true, 1 + DefaultConflictRetries}, // bounded
		{"40P01", 100, 503, idempotency.ProblemStoreUnavailable, true, 1 + DefaultConflictRetries},
		{"22001", 1, 400, idempotency.ProblemStoreRejected, false, 1},
		{"22021", 1, 400, idempotency.ProblemStoreRejected, false, 1},
		{"54000", 1, 400, idempotency.ProblemStoreRejected, false, 1},
	} {
		t.Run(c.state, func(t *testing.T) {
			arm(c.state, c.times)
			calls := b.Calls.Load()
			a := reqtest.Do(t, h, "POST", idempotency.NewKey(), `{"amount":1}`)
			if c.problem == "" {
				if a.Status != c.status {
					t.Fatalf("status %d (%s), want %d", a.Status, a.Body, c.status)
				}
			} else {
				reqtest.WantProblem(t, a, c.status, c.problem)
				if b.Calls.Load() != calls {
					t.Fatalf("the handler ran after a failed claim")
				}
			}
			if got := a.Header.Get("Retry-After") != ""; got != c.retryAfter {
				t.Fatalf("Retry-After %q, want one: %v", a.Header.Get("Retry-After"), c.retryAfter)
			}
			if n := injected(); n != c.rows {
				t.Fatalf("the claim reached the table %d times, want %d", n, c.rows)
			}
		})
	}
	arm("00000", 0)
}

// A scope the table cannot hold is refused with 400 before the store sees
// it (it used to reach PostgreSQL and come back 503 with Retry-After: a
// retry storm on a request that can never succeed).
func TestInvalidScopeRejectedBeforeStore(t *testing.T) {
	b := newPostgresBackend(t)
	h := idempotency.Middleware(b.Store, idempotency.WithScope(storetest.TenantScope))(storetest.PaymentHandler(b, 0))
	for name, tenant := range map[string]string{
		"invalid-utf8": "acct\xff",
		"nul":          "acct\x00",
		"too-long":     strings.Repeat("a", idempotency.MaxScopeLen+1),
	} {
		t.Run(name, func(t *testing.T) {
			r := reqtest.Do(t, h, "POST", idempotency.NewKey(), `{"amount":1}`, "X-Account", tenant)
			reqtest.WantProblem(t, r, 400, idempotency.ProblemScope)
			if r.Header.Get("Retry-After") != "" {
				t.Fatalf("Retry-After on a permanent error")
			}
		})
	}
	var n int
	if err := b.DB.QueryRow(`SELECT count(*) FROM idempotency_keys`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("rows = %d, %v; want none", n, err)
	}
	if b.Calls.Load() != 0 {
		t.Fatalf("handler ran %d times", b.Calls.Load())
	}
}

// Data the real database refuses is classified permanent, and unreachable
// or refusing databases unavailable, without fault injection: invalid
// UTF-8 (22021) and an index row too large (54000) sent past the checks,
// a role over its connection limit (53300) and a closed port.
func TestPostgresErrorClassesReal(t *testing.T) {
	ctx := context.Background()
	db := schemaDB(t)
	s, err := NewPostgresStore(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	fp := []byte{1}
	if _, err := s.Lookup(ctx, "t\xff", "k"); !errors.Is(err, idempotency.ErrStoreRejected) || sqlState(err) != "22021" {
		t.Fatalf("lookup with invalid UTF-8: %v (%s), want ErrStoreRejected (22021)", err, sqlState(err))
	}
	var big [3000]byte
	rand.Read(big[:])
	long := base64.StdEncoding.EncodeToString(big[:]) // incompressible, past the btree row limit
	err = s.retryConflicts(ctx, func() error {
		_, err := s.claim(ctx, idempotency.ClaimRequest{Tenant: long, Key: "k", Fingerprint: fp, LeaseTTL: time.Minute, TTL: time.Hour})
		return err
	})
	if !errors.Is(err, idempotency.ErrStoreRejected) || sqlState(err) != "54000" {
		t.Fatalf("claim with a %d-byte scope: %v (%s), want ErrStoreRejected (54000)", len(long), err, sqlState(err))
	}
	if _, err := s.Claim(ctx, idempotency.ClaimRequest{Tenant: long, Key: "k", Fingerprint: fp, LeaseTTL: time.Minute, TTL: time.Hour}); !errors.Is(err, idempotency.ErrStoreRejected) || !errors.Is(err, idempotency.ErrInvalidScope) {
		t.Fatalf("Claim with a %d-byte scope: %v, want ErrStoreRejected before the database", len(long), err)
	}

	// A role allowed no connection: the server answers 53300.
	var b [6]byte
	rand.Read(b[:])
	role := "idemtest_nocon_" + hex.EncodeToString(b[:])
	if _, err := db.Exec(`CREATE ROLE ` + role + ` LOGIN CONNECTION LIMIT 0`); err != nil {
		t.Fatalf("create role: %v", err)
	}
	t.Cleanup(func() {
		if _, err := db.Exec(`DROP ROLE ` + role); err != nil {
			t.Errorf("drop role: %v", err)
		}
	})
	u, err := url.Parse(testDSN())
	if err != nil || u.Scheme == "" {
		t.Fatalf("DATABASE_URL must be a URL for this test: %v", err)
	}
	u.User = url.User(role)
	for name, dsn := range map[string]string{
		"connection-limit": u.String(),
		"closed-port":      "postgres://postgres@127.0.0.1:1/test?sslmode=disable&connect_timeout=2",
	} {
		t.Run(name, func(t *testing.T) {
			other, err := sql.Open("pgx", dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer other.Close()
			s2 := *s
			s2.db, s2.pipe = other, newPipePool(other)
			_, err = s2.Claim(ctx, storetest.ClaimRequest("k", 1, time.Minute, time.Hour))
			if !errors.Is(err, idempotency.ErrStoreUnavailable) {
				t.Fatalf("claim: %v (%s), want ErrStoreUnavailable", err, sqlState(err))
			}
			a := reqtest.Do(t, idempotency.Middleware(&s2)(http.NotFoundHandler()), "POST", "k", `{}`)
			reqtest.WantProblem(t, a, 503, idempotency.ProblemStoreUnavailable)
			if a.Header.Get("Retry-After") == "" {
				t.Fatalf("503 without Retry-After")
			}
		})
	}
}

// A response the database refuses (a NUL in a replayed header: jsonb
// rejects \u0000, 22P05) rolls the attempt back and answers 500 without
// Retry-After; the key is released, so a corrected handler runs anew.
func TestPostgresResponseUnstorable(t *testing.T) {
	b := newPostgresBackend(t)
	bad := true
	h := idempotency.Middleware(b.Store)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.Calls.Add(1)
		if _, err := b.AddPayment(r.Context(), 1); err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		if bad {
			w.Header()["Location"] = []string{"/payments/\x00"}
		}
		w.WriteHeader(201)
	}))
	key := idempotency.NewKey()
	a := reqtest.Do(t, h, "POST", key, `{}`)
	reqtest.WantProblem(t, a, 500, idempotency.ProblemResponseUnstorable)
	if a.Header.Get("Retry-After") != "" {
		t.Fatalf("Retry-After on a permanent error")
	}
	if n := b.Payments(t); n != 0 {
		t.Fatalf("payments = %d after the rolled-back attempt", n)
	}
	bad = false
	if a := reqtest.Do(t, h, "POST", key, `{}`); a.Status != 201 || b.Payments(t) != 1 || b.Calls.Load() != 2 {
		t.Fatalf("retry = %d, payments %d, calls %d; want 201, 1, 2", a.Status, b.Payments(t), b.Calls.Load())
	}
}

// sqlStateError is a driver error with a SQLSTATE, as pgconn.PgError is.
type sqlStateError string

func (e sqlStateError) Error() string    { return "sqlstate " + string(e) }
func (e sqlStateError) SQLState() string { return string(e) }

// classifyPG's table, for every class boundary, wrapped as the stores wrap.
func TestClassifyPG(t *testing.T) {
	for state, want := range map[string]error{
		"08000": idempotency.ErrStoreUnavailable, "08006": idempotency.ErrStoreUnavailable, "53100": idempotency.ErrStoreUnavailable,
		"57P01": idempotency.ErrStoreUnavailable, "57P05": idempotency.ErrStoreUnavailable, "57014": idempotency.ErrStoreUnavailable,
		"55P03": idempotency.ErrStoreUnavailable, "40001": idempotency.ErrStoreUnavailable, "40P01": idempotency.ErrStoreUnavailable,
		"22000": idempotency.ErrStoreRejected, "22P05": idempotency.ErrStoreRejected, "54001": idempotency.ErrStoreRejected,
		"23505": nil, "42P01": nil, "57000": nil,
	} {
		err := classifyPG(fmt.Errorf("op: %w", sqlStateError(state)))
		if sqlState(err) != state {
			t.Errorf("%s: the classified error lost its SQLSTATE: %v", state, err)
		}
		for _, class := range []error{idempotency.ErrStoreUnavailable, idempotency.ErrStoreRejected} {
			if errors.Is(err, class) != (class == want) {
				t.Errorf("%s: classified %v, want class %v", state, err, want)
			}
		}
	}
	if err := classifyPG(&net.OpError{Op: "dial", Err: errors.New("connection refused")}); !errors.Is(err, idempotency.ErrStoreUnavailable) {
		t.Errorf("network error: %v, want ErrStoreUnavailable", err)
	}
	if err := classifyPG(sql.ErrNoRows); err != sql.ErrNoRows {
		t.Errorf("ErrNoRows changed: %v", err)
	}
}
