package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/retry"
)

func testDSN() string {
	if d := os.Getenv("DATABASE_URL"); d != "" {
		return d
	}
	return "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
}

// schemaDSN creates a fresh schema, dropped when the test ends, and returns
// a DSN whose search_path is that schema, plus a handle on it. A missing
// database fails the test.
func schemaDSN(t *testing.T) (string, *sql.DB) {
	t.Helper()
	admin, err := sql.Open("pgx", testDSN())
	if err != nil {
		t.Fatalf("open PostgreSQL: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := admin.PingContext(ctx); err != nil {
		t.Fatalf("PostgreSQL is required (set DATABASE_URL or start 127.0.0.1:5432): %v", err)
	}
	var b [6]byte
	rand.Read(b[:])
	schema := "idemdemo_" + hex.EncodeToString(b[:])
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	u, err := url.Parse(testDSN())
	if err != nil {
		t.Fatalf("DATABASE_URL must be a URL: %v", err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	q.Set("application_name", schema)
	u.RawQuery = q.Encode()
	dsn := u.String()
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		db.Close()
		if _, err := admin.Exec("DROP SCHEMA " + schema + " CASCADE"); err != nil {
			t.Errorf("drop schema: %v", err)
		}
		admin.Close()
	})
	return dsn, db
}

type reply struct {
	status int
	header http.Header
	body   string
}

func post(t *testing.T, client *http.Client, base, key, body string, hdr ...string) (reply, error) {
	t.Helper()
	req, err := http.NewRequest("POST", base+"/payments", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := client.Do(req)
	if err != nil {
		return reply{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return reply{resp.StatusCode, resp.Header, string(b)}, err
}

func count(t *testing.T, base string) int64 {
	t.Helper()
	resp, err := http.Get(base + "/payments/count")
	if err != nil {
		t.Fatalf("count: %v", err)
	}
	defer resp.Body.Close()
	var c struct{ Count *int64 }
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil || c.Count == nil {
		t.Fatalf("count body: %v", err)
	}
	return *c.Count
}

// eachStore runs f against an in-process demo server on each store.
func eachStore(t *testing.T, f func(t *testing.T, base string)) {
	t.Run("memory", func(t *testing.T) {
		t.Parallel()
		srv := httptest.NewServer(newServer(idempotency.NewMemoryStore(), newMemoryPayments(), time.Minute, 20*time.Millisecond))
		defer srv.Close()
		f(t, srv.URL)
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		_, db := schemaDSN(t)
		ctx := context.Background()
		store, err := idempotency.NewPostgresStore(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		payments, err := newPostgresPayments(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(newServer(store, payments, time.Minute, 20*time.Millisecond))
		defer srv.Close()
		f(t, srv.URL)
	})
}

func TestDemoVerifications(t *testing.T) {
	eachStore(t, func(t *testing.T, base string) {
		c := http.DefaultClient
		// (1) same key twice: one payment, identical answers.
		key := idempotency.NewKey()
		a, err := post(t, c, base, key, `{"amount": 1250, "currency": "EUR"}`)
		if err != nil || a.status != 201 {
			t.Fatalf("first: %v %d %s", err, a.status, a.body)
		}
		b, err := post(t, c, base, key, `{"currency":"EUR","amount":1250}`)
		if err != nil || b.status != 201 || b.body != a.body || b.header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("second: %v %d %s replayed=%q", err, b.status, b.body, b.header.Get("Idempotent-Replayed"))
		}
		// (2) 50 concurrent requests with one key: one payment.
		key2 := idempotency.NewKey()
		var wg sync.WaitGroup
		var mu sync.Mutex
		statuses := map[int]int{}
		for range 50 {
			wg.Go(func() {
				r, err := post(t, c, base, key2, `{"amount":1,"currency":"USD"}`)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					t.Errorf("concurrent: %v", err)
					return
				}
				statuses[r.status]++
			})
		}
		wg.Wait()
		if statuses[201]+statuses[409] != 50 || statuses[201] < 1 {
			t.Fatalf("concurrent statuses %v, want only 201 and 409", statuses)
		}
		// (3) same key, other body: 422.
		r, _ := post(t, c, base, key, `{"amount":1251,"currency":"EUR"}`)
		if r.status != 422 || r.header.Get("Content-Type") != "application/problem+json" {
			t.Fatalf("other body: %d %s", r.status, r.body)
		}
		// Two tenants, same key: two payments.
		key3 := idempotency.NewKey()
		post(t, c, base, key3, `{"amount":5,"currency":"EUR"}`, "X-Account", "alice")
		r, _ = post(t, c, base, key3, `{"amount":5,"currency":"EUR"}`, "X-Account", "bob")
		if r.status != 201 || r.header.Get("Idempotent-Replayed") != "" {
			t.Fatalf("second tenant: %d %q", r.status, r.header.Get("Idempotent-Replayed"))
		}
		if n := count(t, base); n != 4 {
			t.Fatalf("count = %d, want 4", n)
		}
	})
}

func TestDemoValidation(t *testing.T) {
	srv := httptest.NewServer(newServer(idempotency.NewMemoryStore(), newMemoryPayments(), time.Minute, 0))
	defer srv.Close()
	for _, body := range []string{`{`, `[]`, `{"amount":0,"currency":"EUR"}`, `{"amount":-5,"currency":"EUR"}`,
		`{"amount":1.5,"currency":"EUR"}`, `{"amount":5,"currency":"eur"}`, `{"amount":5}`, `{"amount":5,"currency":"EUR","x":1}`,
		`{"amount":5,"currency":"EUR"} {}`} {
		r, err := post(t, http.DefaultClient, srv.URL, idempotency.NewKey(), body)
		if err != nil || r.status != 400 || r.header.Get("Content-Type") != "application/problem+json" ||
			!strings.Contains(r.body, problemInvalidPayment) {
			t.Errorf("body %s: %v %d %s", body, err, r.status, r.body)
		}
	}
	r, _ := post(t, http.DefaultClient, srv.URL, "", `{"amount":5,"currency":"EUR"}`)
	if r.status != 400 || !strings.Contains(r.body, idempotency.ProblemKeyMissing) {
		t.Errorf("missing key: %d %s", r.status, r.body)
	}
	if n := count(t, srv.URL); n != 0 {
		t.Fatalf("count = %d, want 0", n)
	}
}

// buildDemo compiles idemdemo into a temporary directory.
func buildDemo(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "idemdemo")
	gobin, err := exec.LookPath("go") // go test puts GOROOT/bin first in PATH
	if err != nil {
		t.Fatalf("go command: %v", err)
	}
	out, err := exec.Command(gobin, "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startDemo starts the binary and waits until it answers.
func startDemo(t *testing.T, bin string, args ...string) (*exec.Cmd, *strings.Builder) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var log strings.Builder
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatalf("start idemdemo: %v", err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	var addr string
	for i, a := range args {
		if a == "-addr" {
			addr = args[i+1]
		}
	}
	// Poll until it answers: bounded, jittered, with a deadline.
	err := retry.Do(context.Background(), retry.Policy{
		MaxAttempts: 400, BaseDelay: 20 * time.Millisecond, MaxDelay: 100 * time.Millisecond, Deadline: 20 * time.Second,
	}, func(ctx context.Context) error {
		req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+addr+"/payments/count", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		return nil
	})
	if err != nil {
		t.Fatalf("idemdemo did not start: %v\n%s", err, log.String())
	}
	return cmd, &log
}

// Verification 4: the demo on PostgreSQL is killed (SIGKILL) in the middle
// of a request, restarted, and the request retried after the lease: exactly
// one payment. Then SIGTERM stops it cleanly.
func TestDemoCrashAndRetry(t *testing.T) {
	t.Parallel()
	bin := buildDemo(t)
	dsn, db := schemaDSN(t)
	addr := freeAddr(t)
	base := "http://" + addr
	common := []string{"-addr", addr, "-store", "postgres", "-dsn", dsn, "-lock-ttl", "1s"}
	cmd, log := startDemo(t, bin, append(common, "-work-delay", "10s")...)

	key := idempotency.NewKey()
	body := `{"amount":4200,"currency":"EUR"}`
	client := &http.Client{Timeout: 30 * time.Second}
	errc := make(chan error, 1)
	go func() {
		_, err := post(t, client, base, key, body)
		errc <- err
	}()
	// Wait until the payment is inserted (uncommitted) inside the handler.
	deadline := time.Now().Add(10 * time.Second)
	for {
		var n int
		db.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE application_name = current_setting('application_name')
	AND query LIKE 'INSERT INTO payments%' AND state = 'idle in transaction'`).Scan(&n)
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the request never reached the handler\n%s", log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if err := <-errc; err == nil {
		t.Fatalf("the killed request got an answer")
	}
	var state string
	if err := db.QueryRow(`SELECT state FROM idempotency_keys`).Scan(&state); err != nil || state != "in_progress" {
		t.Fatalf("key after the crash: %q, %v; want in_progress", state, err)
	}

	cmd, log = startDemo(t, bin, append(common, "-work-delay", "0s")...)
	var fresh reply
	for attempt := 0; ; attempt++ {
		r, err := post(t, client, base, key, body)
		if err != nil {
			t.Fatalf("retry: %v", err)
		}
		if r.status == 201 {
			fresh = r
			break
		}
		if r.status != 409 || attempt > 5 {
			t.Fatalf("retry %d: %d %s", attempt, r.status, r.body)
		}
		secs, err := strconv.Atoi(r.header.Get("Retry-After"))
		if err != nil || secs < 1 || secs > 1 {
			t.Fatalf("409 Retry-After = %q, want 1 (the lease)", r.header.Get("Retry-After"))
		}
		time.Sleep(time.Duration(secs) * time.Second)
	}
	if fresh.header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("the retry after the crash was a replay")
	}
	again, err := post(t, client, base, key, body)
	if err != nil || again.body != fresh.body || again.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("replay: %v %d %s", err, again.status, again.body)
	}
	if n := count(t, base); n != 1 {
		t.Fatalf("payments = %d, want exactly 1", n)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) || err != nil {
			t.Fatalf("idemdemo exit after SIGTERM: %v\n%s", err, log.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("idemdemo did not stop on SIGTERM")
	}
	if !strings.Contains(log.String(), "shutting down") {
		t.Fatalf("no clean shutdown in the log:\n%s", log.String())
	}
}
