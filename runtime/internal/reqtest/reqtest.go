// Package reqtest holds the HTTP helpers of the runtime's tests of
// idempotency.Middleware: a keyed request and its recorded answer, and the
// check of a problem+json answer. It depends on the standard library only,
// so that the idempotency package's own tests use it as well as the
// conformance suite (idempotency/storetest) and the stores' modules.
package reqtest

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Answer is a response recorded by Do.
type Answer struct {
	Status int
	Header http.Header
	Body   string
}

// Do sends method /payments with body (as JSON), the Idempotency-Key key
// when not empty and the header pairs hdr to h, and returns its answer.
func Do(t testing.TB, h http.Handler, method, key, body string, hdr ...string) Answer {
	t.Helper()
	r := httptest.NewRequest(method, "/payments", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	if key != "" {
		r.Header.Set("Idempotency-Key", key)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return Answer{w.Code, w.Header(), w.Body.String()}
}

// WantProblem fails t unless a is the problem+json answer of type typ with
// status.
func WantProblem(t testing.TB, a Answer, status int, typ string) {
	t.Helper()
	if a.Status != status {
		t.Fatalf("status = %d, want %d (body %s)", a.Status, status, a.Body)
	}
	if ct := a.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("Content-Type = %q, want application/problem+json", ct)
	}
	if l := a.Header.Get("Link"); l != "<"+typ+`>; rel="describedby"` {
		t.Fatalf("Link = %q", l)
	}
	var p struct {
		Type   string
		Status int
		Title  string
	}
	if err := json.Unmarshal([]byte(a.Body), &p); err != nil {
		t.Fatalf("problem body %q: %v", a.Body, err)
	}
	if p.Type != typ || p.Status != status || p.Title == "" {
		t.Fatalf("problem = %+v, want type %s status %d", p, typ, status)
	}
}

// Clock is a settable clock, for the stores' clock options.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a Clock set to now.
func NewClock(now time.Time) *Clock { return &Clock{now: now} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

// Add moves the clock d forward.
func (c *Clock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// Interleave serves, from 4 goroutines per GOMAXPROCS, one request
// without the middleware (bare) and one with it (keyed) each iteration,
// so that both see the same load on a shared machine, and reports the
// ratio of their mean latencies, the throughput ratio at equal
// concurrency. It returns the total nanoseconds each took.
func Interleave(b *testing.B, bare, keyed http.Handler) (bareNs, keyedNs float64) {
	b.SetParallelism(4)
	var bareSum, keyedSum atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			t0 := time.Now()
			PostPayment(b, bare)
			t1 := time.Now()
			PostPayment(b, keyed)
			bareSum.Add(int64(t1.Sub(t0)))
			keyedSum.Add(int64(time.Since(t1)))
		}
	})
	b.ReportMetric(float64(bareSum.Load())/float64(keyedSum.Load()), "keyed/bare-throughput")
	return float64(bareSum.Load()), float64(keyedSum.Load())
}

// PostPayment serves h a keyed payment POST, which must be answered 201.
func PostPayment(b *testing.B, h http.Handler) {
	r := httptest.NewRequest("POST", "/payments", strings.NewReader(`{"amount":100}`))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Idempotency-Key", key())
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusCreated {
		b.Fatalf("status %d: %s", w.Code, w.Body)
	}
}

// key returns a fresh random key (the idempotency package's NewKey, which
// this package cannot import).
func key() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
