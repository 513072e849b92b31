package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

// serveHTTP starts newHTTPServer(h, c) on a free port and returns its address.
func serveHTTP(t *testing.T, h http.Handler, c httpConfig) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newHTTPServer(h, c)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// A client that sends the headers and one byte of a declared body loses
// its connection after the read timeout instead of holding it forever.
func TestDemoSlowBodyTimesOut(t *testing.T) {
	addr := serveHTTP(t, newServer(serverConfig{store: idempotency.NewMemoryStore(), payments: newMemoryPayments(),
		outbox: idempotency.NewMemoryOutbox(), receipts: newLogReceipts(io.Discard), lease: time.Minute}),
		httpConfig{readHeaderTimeout: time.Second, readTimeout: 300 * time.Millisecond, writeTimeout: 5 * time.Second,
			idleTimeout: time.Second, maxHeaderBytes: 4096})
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	if _, err := io.WriteString(conn, "POST /payments HTTP/1.1\r\nHost: demo\r\nIdempotency-Key: k1\r\n"+
		"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"); err != nil {
		t.Fatal(err)
	}
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, err = io.ReadAll(conn) // whatever the server answers, it must then close
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("connection still open after %v: no read timeout", time.Since(start))
	}
	if el := time.Since(start); el > 3*time.Second {
		t.Fatalf("connection closed after %v, want about the 300ms read timeout", el)
	}
}

// A header block over the limit is refused (431).
func TestDemoHeaderLimit(t *testing.T) {
	addr := serveHTTP(t, http.NotFoundHandler(), httpConfig{readHeaderTimeout: time.Second, readTimeout: time.Second,
		maxHeaderBytes: 4096})
	req, _ := http.NewRequest("GET", "http://"+addr+"/", nil)
	req.Header.Set("X-Big", strings.Repeat("x", 64<<10))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("status %d, want 431", resp.StatusCode)
	}
}

// failingPayments is a payments store whose database is down.
type failingPayments struct{ paymentStore }

func (failingPayments) count(context.Context) (int64, error) {
	return 0, errors.New("connection refused")
}

// Every error the demo itself writes is problem+json: unknown paths (404),
// other methods (405, with Allow), a failed count (503, Retry-After), a
// comma-joined Idempotency-Key (400).
func TestDemoErrorsAreProblems(t *testing.T) {
	srv := newDemo(t, serverConfig{store: idempotency.NewMemoryStore(), payments: failingPayments{newMemoryPayments()},
		lease: time.Minute}, idempotency.NewMemoryOutbox(), newLogReceipts(io.Discard), &syncBuffer{})
	for _, c := range []struct {
		method, path string
		key          []string
		status       int
		typ, allow   string
	}{
		{"GET", "/nope", nil, 404, problemNotFound, ""},
		{"GET", "/payments", nil, 405, problemMethod, "POST"},
		{"DELETE", "/payments/count", nil, 405, problemMethod, "GET, HEAD"},
		{"PUT", "/payments/receipts/count", nil, 405, problemMethod, "GET, HEAD"},
		{"GET", "/payments/count", nil, 503, problemUnavailable, ""},
		{"POST", "/payments", []string{"a, b"}, 400, idempotency.ProblemKeyInvalid, ""},
		{"POST", "/payments", []string{"a", "b"}, 400, idempotency.ProblemKeyInvalid, ""},
	} {
		req, _ := http.NewRequest(c.method, srv.base+c.path, strings.NewReader(`{"amount":1,"currency":"EUR"}`))
		req.Header["Idempotency-Key"] = c.key
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var p struct {
			Type   string
			Status int
		}
		err = json.NewDecoder(resp.Body).Decode(&p)
		resp.Body.Close()
		if err != nil || resp.StatusCode != c.status || resp.Header.Get("Content-Type") != "application/problem+json" ||
			p.Type != c.typ || p.Status != c.status || resp.Header.Get("Allow") != c.allow {
			t.Errorf("%s %s: %d %q %+v (Allow %q), %v; want %d %s", c.method, c.path, resp.StatusCode,
				resp.Header.Get("Content-Type"), p, resp.Header.Get("Allow"), err, c.status, c.typ)
		}
		if c.status == 503 && resp.Header.Get("Retry-After") == "" {
			t.Errorf("%s %s: 503 without Retry-After", c.method, c.path)
		}
	}
}
