package main

import (
	"bytes"
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
	"github.com/idemlint/idemlint/runtime/pgstore"
	"github.com/idemlint/idemlint/runtime/retry"
)

// envOr returns the environment variable name, or def when it is empty.
func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func testDSN() string {
	return envOr("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test?sslmode=disable")
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

func count(t *testing.T, base string) int64 { return countAt(t, base+"/payments/count") }

// countAt gets url, a count endpoint, and returns its count; a status other
// than 200 or a body without a count fails the test.
func countAt(t *testing.T, url string) int64 {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	defer resp.Body.Close()
	var c struct{ Count *int64 }
	if resp.StatusCode != 200 {
		t.Fatalf("%s: status %d", url, resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil || c.Count == nil {
		t.Fatalf("%s: body: %v", url, err)
	}
	return *c.Count
}

// demo is an in-process demo server on one store.
type demo struct {
	base     string
	grpcAddr string // the gRPC server on the same store, payments and outbox
	outbox   *idempotency.Outbox
	receipts receiptSink
	lines    *syncBuffer // the receipts log
}

// syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// failHeader makes the test servers fail an attempt after its payment and receipt are recorded.
const failHeader = "X-Test-Fail"

func newDemo(t *testing.T, cfg serverConfig, outbox *idempotency.Outbox, receipts receiptSink, lines *syncBuffer) *demo {
	cfg.outbox, cfg.receipts = outbox, receipts
	cfg.failAfterReceipt = func(r *http.Request) bool { return r.Header.Get(failHeader) != "" }
	srv := httptest.NewServer(newServer(cfg))
	t.Cleanup(srv.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gsrv := newGRPCServer(cfg)
	go gsrv.Serve(ln)
	t.Cleanup(gsrv.Stop)
	return &demo{base: srv.URL, grpcAddr: ln.Addr().String(), outbox: outbox, receipts: receipts, lines: lines}
}

func memoryDemo(t *testing.T, workDelay time.Duration) *demo {
	lines := &syncBuffer{}
	return newDemo(t, serverConfig{store: idempotency.NewMemoryStore(), payments: newMemoryPayments(), lease: time.Minute,
		workDelay: workDelay}, idempotency.NewMemoryOutbox(), newLogReceipts(lines), lines)
}

func postgresDemo(t *testing.T, workDelay time.Duration) *demo {
	_, db := schemaDSN(t)
	ctx := context.Background()
	store, err := pgstore.NewPostgresStore(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	payments, err := newPostgresPayments(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	outbox, err := pgstore.NewPostgresOutbox(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	lines := &syncBuffer{}
	receipts, err := newPostgresReceipts(ctx, db, lines)
	if err != nil {
		t.Fatal(err)
	}
	return newDemo(t, serverConfig{store: store, payments: payments, lease: time.Minute, workDelay: workDelay},
		outbox, receipts, lines)
}

// eachStore runs f against an in-process demo server on each store.
func eachStore(t *testing.T, f func(t *testing.T, d *demo)) {
	t.Run("memory", func(t *testing.T) {
		t.Parallel()
		f(t, memoryDemo(t, 20*time.Millisecond))
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		f(t, postgresDemo(t, 20*time.Millisecond))
	})
	t.Run("redis", func(t *testing.T) {
		t.Parallel()
		f(t, redisDemo(t, 20*time.Millisecond))
	})
}

func TestDemoVerifications(t *testing.T) {
	eachStore(t, func(t *testing.T, d *demo) {
		base := d.base
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
	srv := memoryDemo(t, 0)
	for _, body := range []string{`{`, `[]`, `{"amount":0,"currency":"EUR"}`, `{"amount":-5,"currency":"EUR"}`,
		`{"amount":1.5,"currency":"EUR"}`, `{"amount":5,"currency":"eur"}`, `{"amount":5}`, `{"amount":5,"currency":"EUR","x":1}`,
		`{"amount":5,"currency":"EUR"} {}`} {
		r, err := post(t, http.DefaultClient, srv.base, idempotency.NewKey(), body)
		if err != nil || r.status != 400 || r.header.Get("Content-Type") != "application/problem+json" ||
			!strings.Contains(r.body, problemInvalidPayment) {
			t.Errorf("body %s: %v %d %s", body, err, r.status, r.body)
		}
	}
	r, _ := post(t, http.DefaultClient, srv.base, "", `{"amount":5,"currency":"EUR"}`)
	if r.status != 400 || !strings.Contains(r.body, idempotency.ProblemKeyMissing) {
		t.Errorf("missing key: %d %s", r.status, r.body)
	}
	if n := count(t, srv.base); n != 0 {
		t.Fatalf("count = %d, want 0", n)
	}
	if n := relayAll(t, srv); n != 0 {
		t.Fatalf("%d receipts relayed for invalid payments, want 0", n)
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
func startDemo(t *testing.T, bin string, args ...string) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	log := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = log, log
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
	return cmd, log
}

// Verification 4: the demo on PostgreSQL is killed (SIGKILL) in the middle
// of a request, restarted, and the request retried after the lease: exactly
// one payment. Then SIGTERM stops it cleanly.
func TestDemoCrashAndRetry(t *testing.T) {
	t.Parallel()
	dsn, db := schemaDSN(t)
	c := startCrash(t, "-store", "postgres", "-dsn", dsn)
	// Wait until the payment and its receipt are inserted (uncommitted) inside the handler.
	deadline := time.Now().Add(10 * time.Second)
	for {
		var n int
		db.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE application_name = current_setting('application_name')
	AND query LIKE 'INSERT INTO idempotency_outbox%' AND state = 'idle in transaction'`).Scan(&n)
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the request never reached the handler\n%s", c.log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.kill(t)
	var state string
	if err := db.QueryRow(`SELECT state FROM idempotency_keys`).Scan(&state); err != nil || state != "in_progress" {
		t.Fatalf("key after the crash: %q, %v; want in_progress", state, err)
	}

	receiptsFile := filepath.Join(t.TempDir(), "receipts.log")
	fresh := c.restart(t, "-receipts", receiptsFile)
	if n := count(t, c.base); n != 1 {
		t.Fatalf("payments = %d, want exactly 1", n)
	}
	// One receipt, delivered by the relay of the restarted process.
	waitReceipts(t, c.base, 1, c.log)
	stopDemo(t, c.cmd, c.log)
	if !strings.Contains(c.log.String(), "shutting down") {
		t.Fatalf("no clean shutdown in the log:\n%s", c.log.String())
	}
	if lines := fileReceipts(t, receiptsFile); len(lines) != 1 || lines[0]["payment"] != paymentID(t, fresh) {
		t.Fatalf("receipts file %v, want the one receipt of %s", lines, paymentID(t, fresh))
	}
	var rows int
	if err := db.QueryRow(`SELECT count(*) FROM receipts`).Scan(&rows); err != nil || rows != 1 {
		t.Fatalf("receipts rows = %d, %v; want 1", rows, err)
	}
}

// waitReceipts polls GET /payments/receipts/count until it answers want.
func waitReceipts(t *testing.T, base string, want int64, log *syncBuffer) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		n := receiptCount(t, base)
		if n == want {
			return
		}
		if n > want || time.Now().After(deadline) {
			t.Fatalf("receipts = %d, want %d\n%s", n, want, log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func fileReceipts(t *testing.T, name string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatalf("receipts file: %v", err)
	}
	return receiptLines(t, string(b))
}

// A crash is the scenario of Verification 4: a demo process, with a lease of 1s and a 10s work delay,
// killed (SIGKILL) while a payment request is inside the handler, then restarted without the delay, and
// the request retried with the same key.
type crash struct {
	bin, base  string
	flags      []string // -addr, -lock-ttl and the store's flags
	key, body  string
	client     *http.Client
	cmd        *exec.Cmd
	log        *syncBuffer
	killedPost <-chan error // the in-flight request's error
}

// startCrash builds and starts the demo with storeFlags and posts, in the background, a payment that
// waits in the handler.
func startCrash(t *testing.T, storeFlags ...string) *crash {
	t.Helper()
	addr := freeAddr(t)
	c := &crash{
		bin:    buildDemo(t),
		base:   "http://" + addr,
		flags:  append([]string{"-addr", addr, "-lock-ttl", "1s"}, storeFlags...),
		key:    idempotency.NewKey(),
		body:   `{"amount":4200,"currency":"EUR"}`,
		client: &http.Client{Timeout: 30 * time.Second},
	}
	c.start(t, "10s")
	errc := make(chan error, 1)
	go func() {
		_, err := post(t, c.client, c.base, c.key, c.body)
		errc <- err
	}()
	c.killedPost = errc
	return c
}

// start starts the demo with the work delay, its flags and extra ones.
func (c *crash) start(t *testing.T, workDelay string, extra ...string) {
	t.Helper()
	args := append([]string{"-work-delay", workDelay}, c.flags...)
	c.cmd, c.log = startDemo(t, c.bin, append(args, extra...)...)
}

// kill kills the demo with SIGKILL while the request runs; the request must get no answer.
func (c *crash) kill(t *testing.T) {
	t.Helper()
	if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	c.cmd.Wait()
	if err := <-c.killedPost; err == nil {
		t.Fatalf("the killed request got an answer")
	}
}

// restart starts the demo again, without the work delay and with extra flags, and retries the request
// the killed process left in progress until it answers 201 (meanwhile a 409 with Retry-After: 1, the
// lease); it checks that this answer is no replay and that one more retry replays it, and returns it.
func (c *crash) restart(t *testing.T, extra ...string) reply {
	t.Helper()
	c.start(t, "0s", extra...)
	var fresh reply
	for attempt := 0; ; attempt++ {
		r, err := post(t, c.client, c.base, c.key, c.body)
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
		if err != nil || secs != 1 {
			t.Fatalf("409 Retry-After = %q, want 1 (the lease)", r.header.Get("Retry-After"))
		}
		time.Sleep(time.Duration(secs) * time.Second)
	}
	if fresh.header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("the retry after the crash was a replay")
	}
	again, err := post(t, c.client, c.base, c.key, c.body)
	if err != nil || again.body != fresh.body || again.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("replay: %v %d %s", err, again.status, again.body)
	}
	return fresh
}

// stopDemo sends SIGTERM and waits for a clean exit.
func stopDemo(t *testing.T, cmd *exec.Cmd, log *syncBuffer) {
	t.Helper()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("idemdemo exit after SIGTERM: %v\n%s", err, log.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("idemdemo did not stop on SIGTERM")
	}
}

// The binary on the memory store, with -receipts: a payment sent three
// times gets one receipt line, written by the final relay pass at the
// latest when SIGTERM stops the demo right after the request.
func TestDemoReceiptsFileOnSIGTERM(t *testing.T) {
	t.Parallel()
	bin := buildDemo(t)
	addr := freeAddr(t)
	base := "http://" + addr
	receiptsFile := filepath.Join(t.TempDir(), "receipts.log")
	cmd, log := startDemo(t, bin, "-addr", addr, "-store", "memory", "-receipts", receiptsFile)
	key := idempotency.NewKey()
	var id string
	for i := range 3 {
		r, err := post(t, http.DefaultClient, base, key, `{"amount":990,"currency":"CHF"}`)
		if err != nil || r.status != 201 {
			t.Fatalf("post %d: %v %d %s", i, err, r.status, r.body)
		}
		id = paymentID(t, r)
	}
	stopDemo(t, cmd, log)
	lines := fileReceipts(t, receiptsFile)
	if len(lines) != 1 || lines[0]["payment"] != id || lines[0]["key"] != key || lines[0]["currency"] != "CHF" {
		t.Fatalf("receipts file %v, want one receipt of %s\n%s", lines, id, log.String())
	}
}

// relayAll makes relay passes until one delivers nothing and returns how
// many receipts they delivered.
func relayAll(t *testing.T, d *demo) int {
	t.Helper()
	total := 0
	for range 100 {
		n, err := d.outbox.RelayOnce(context.Background(), d.receipts.deliver, idempotency.RelayOptions{})
		if err != nil {
			t.Fatalf("relay: %v", err)
		}
		if n == 0 {
			return total
		}
		total += n
	}
	t.Fatalf("the relay never ran dry")
	return total
}

func receiptCount(t *testing.T, base string) int64 {
	return countAt(t, base+"/payments/receipts/count")
}

// receiptLines parses the receipts log: one JSON object a line.
func receiptLines(t *testing.T, log string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(log), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("receipt line %q: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

func paymentID(t *testing.T, r reply) string {
	t.Helper()
	var p payment
	if err := json.Unmarshal([]byte(r.body), &p); err != nil || p.ID == "" {
		t.Fatalf("payment body %q: %v", r.body, err)
	}
	return p.ID
}

func TestDemoReceipts(t *testing.T) {
	eachStore(t, func(t *testing.T, d *demo) {
		c := http.DefaultClient
		body := `{"amount":1250,"currency":"EUR"}`

		// A payment's receipt is recorded, relayed once and written once.
		k1 := idempotency.NewKey()
		a, err := post(t, c, d.base, k1, body, "X-Account", "alice")
		if err != nil || a.status != 201 {
			t.Fatalf("payment: %v %d %s", err, a.status, a.body)
		}
		id1 := paymentID(t, a)
		if n := relayAll(t, d); n != 1 {
			t.Fatalf("relayed %d receipts, want 1", n)
		}
		if ok, err := d.outbox.Delivered(context.Background(), kindReceipt, id1, k1); err != nil || !ok {
			t.Fatalf("receipt of %s delivered = %v, %v", id1, ok, err)
		}
		lines := receiptLines(t, d.lines.String())
		if len(lines) != 1 || lines[0]["payment"] != id1 || lines[0]["account"] != "alice" ||
			lines[0]["amount"] != float64(1250) || lines[0]["currency"] != "EUR" || lines[0]["key"] != k1 ||
			lines[0]["kind"] != kindReceipt {
			t.Fatalf("receipt lines %v", lines)
		}

		// The same keyed request three times in sequence: one payment, one receipt.
		k2 := idempotency.NewKey()
		var first string
		for i := range 3 {
			r, err := post(t, c, d.base, k2, body)
			if err != nil || r.status != 201 {
				t.Fatalf("sequential %d: %v %d %s", i, err, r.status, r.body)
			}
			if i == 0 {
				first = r.body
			} else if r.body != first || r.header.Get("Idempotent-Replayed") != "true" {
				t.Fatalf("sequential %d: not the replay of the first answer: %s", i, r.body)
			}
		}

		// Three at once: one payment, one receipt; the 409s get the replay once it is stored.
		k3 := idempotency.NewKey()
		var wg sync.WaitGroup
		replies := make([]reply, 3)
		for i := range replies {
			wg.Go(func() {
				r, err := post(t, c, d.base, k3, body)
				if err != nil {
					t.Errorf("concurrent: %v", err)
				}
				replies[i] = r
			})
		}
		wg.Wait()
		created := 0
		for _, r := range replies {
			switch r.status {
			case 201:
				created++
			case 409:
			default:
				t.Fatalf("concurrent: %d %s", r.status, r.body)
			}
		}
		if created < 1 {
			t.Fatalf("concurrent: no 201 among %v", replies)
		}
		r, err := post(t, c, d.base, k3, body)
		if err != nil || r.status != 201 || r.header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("after the concurrent ones: %v %d %s", err, r.status, r.body)
		}
		if n := relayAll(t, d); n != 2 {
			t.Fatalf("relayed %d receipts for two keys sent 3 times each, want 2", n)
		}
		if n := count(t, d.base); n != 3 {
			t.Fatalf("payments = %d, want 3", n)
		}
		if n := receiptCount(t, d.base); n != 3 {
			t.Fatalf("receipts = %d, want 3", n)
		}

		// A failed attempt (500 after the payment and its receipt) leaves neither; its retry makes both.
		k4 := idempotency.NewKey()
		r, err = post(t, c, d.base, k4, body, failHeader, "1")
		if err != nil || r.status != 500 || r.header.Get("Content-Type") != "application/problem+json" ||
			!strings.Contains(r.body, problemPaymentFailed) {
			t.Fatalf("failed attempt: %v %d %s", err, r.status, r.body)
		}
		if n := relayAll(t, d); n != 0 {
			t.Fatalf("relayed %d receipts after a failed attempt, want 0", n)
		}
		if n := count(t, d.base); n != 3 {
			t.Fatalf("payments after a failed attempt = %d, want 3", n)
		}
		// An invalid body: 400, stored, no payment and no receipt.
		k5 := idempotency.NewKey()
		if r, _ := post(t, c, d.base, k5, `{"amount":-1,"currency":"EUR"}`); r.status != 400 {
			t.Fatalf("invalid body: %d %s", r.status, r.body)
		}
		if n := relayAll(t, d); n != 0 {
			t.Fatalf("relayed %d receipts after an invalid payment, want 0", n)
		}
		r, err = post(t, c, d.base, k4, body)
		if err != nil || r.status != 201 || r.header.Get("Idempotent-Replayed") != "" {
			t.Fatalf("retry of the failed attempt: %v %d %s", err, r.status, r.body)
		}
		id4 := paymentID(t, r)
		if n := relayAll(t, d); n != 1 {
			t.Fatalf("relayed %d receipts for the retry, want 1", n)
		}

		// The receiving side drops a second delivery of an entry.
		e, err := d.outbox.Lookup(context.Background(), kindReceipt, id4, k4)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if err := d.receipts.deliver(context.Background(), *e); err != nil {
				t.Fatalf("redelivery: %v", err)
			}
		}
		if n := count(t, d.base); n != 4 {
			t.Fatalf("payments = %d, want 4", n)
		}
		if n := receiptCount(t, d.base); n != 4 {
			t.Fatalf("receipts = %d, want 4", n)
		}
		lines = receiptLines(t, d.lines.String())
		seen := map[any]bool{}
		for _, l := range lines {
			if seen[l["payment"]] || seen[l["entry"]] {
				t.Fatalf("receipt written twice: %v", lines)
			}
			seen[l["payment"]], seen[l["entry"]] = true, true
		}
		if len(lines) != 4 {
			t.Fatalf("%d receipt lines, want 4: %v", len(lines), lines)
		}
	})
}

// The relay as main runs it (Run) delivers a receipt without being asked.
func TestDemoRelayRun(t *testing.T) {
	t.Parallel()
	d := memoryDemo(t, 0)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- d.outbox.Run(ctx, d.receipts.deliver, idempotency.RelayOptions{Interval: 10 * time.Millisecond})
	}()
	if r, err := post(t, http.DefaultClient, d.base, idempotency.NewKey(), `{"amount":7,"currency":"GBP"}`); err != nil || r.status != 201 {
		t.Fatalf("payment: %v %d", err, r.status)
	}
	deadline := time.Now().Add(5 * time.Second)
	for receiptCount(t, d.base) != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("the receipt was never delivered")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Run = %v, want context.Canceled", err)
	}
}
