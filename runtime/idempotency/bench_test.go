package idempotency

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// benchTTL is the keys' TTL in the memory benchmarks: short enough that
// the store (DefaultMaxEntries) never fills with live keys, long enough that
// it fills with expired ones, so that once full every claim also removes an
// expired entry, the steady state of a busy store.
const benchTTL = 20 * time.Millisecond

// BenchmarkMemoryClaimComplete measures a fresh key's claim, begin and
// completion on the memory store, in parallel.
func BenchmarkMemoryClaimComplete(b *testing.B) {
	ctx := context.Background()
	s := NewMemoryStore()
	fp := Fingerprint("POST", "/payments", "", "application/json", []byte(`{"amount":1}`))
	resp := &Response{Status: 201, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"id":1}`)}
	var worker atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		prefix := []byte(NewKey()[:8] + strconv.FormatInt(worker.Add(1), 10) + "-")
		buf := make([]byte, 0, 64)
		n := int64(0)
		for pb.Next() {
			n++
			buf = strconv.AppendInt(append(buf[:0], prefix...), n, 10)
			r, err := s.Claim(ctx, ClaimRequest{Key: string(buf), Fingerprint: fp, LeaseTTL: DefaultLease, TTL: benchTTL})
			if err != nil || r.Outcome != Acquired {
				b.Fatalf("claim: %v %v", r.Outcome, err)
			}
			w, _ := s.Begin(ctx, r.Lease)
			if err := w.Complete(ctx, resp); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
}

// BenchmarkMiddlewareMemory measures a keyed POST through the middleware on
// the memory store (no network), in parallel.
func BenchmarkMiddlewareMemory(b *testing.B) {
	h := Middleware(NewMemoryStore(), WithTTL(benchTTL))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(201)
		w.Write([]byte(`{"id":1}`))
	}))
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			r := httptest.NewRequest("POST", "/payments", strings.NewReader(`{"amount":1}`))
			r.Header.Set("Idempotency-Key", NewKey())
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != 201 {
				b.Fatalf("status %d", w.Code)
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}

// BenchmarkMiddlewareHotPath measures what the middleware itself costs a
// keyed POST on the memory store, in parallel: the request (with a JSON
// body to fingerprint) and the response writer are reused, so that the
// allocations per request are the middleware's (and the key's string, one),
// not the test harness's (httptest.NewRequest and NewRecorder allocate
// about twenty times a request).
func BenchmarkMiddlewareHotPath(b *testing.B) {
	h := Middleware(NewMemoryStore(), WithTTL(benchTTL))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(201)
		w.Write([]byte(`{"id":1}`))
	}))
	var worker atomic.Int64
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		body := strings.NewReader(`{"amount":1,"currency":"EUR"}`)
		r := httptest.NewRequest("POST", "/payments", body)
		r.Header.Set("Content-Type", "application/json")
		rbody := io.NopCloser(body)
		w := &benchWriter{header: make(http.Header)}
		prefix := []byte(NewKey()[:8] + strconv.FormatInt(worker.Add(1), 10) + "-")
		buf := make([]byte, 0, 64)
		keyHeader := []string{""}
		r.Header["Idempotency-Key"] = keyHeader
		n := int64(0)
		for pb.Next() {
			n++
			buf = strconv.AppendInt(append(buf[:0], prefix...), n, 10)
			keyHeader[0] = string(buf)
			body.Seek(0, 0)
			r.Body = rbody
			clear(w.header)
			w.status = 0
			h.ServeHTTP(w, r)
			if w.status != 201 {
				b.Fatalf("status %d", w.status)
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}

// benchWriter is a reusable http.ResponseWriter that keeps the status.
type benchWriter struct {
	header http.Header
	status int
}

func (w *benchWriter) Header() http.Header         { return w.header }
func (w *benchWriter) WriteHeader(code int)        { w.status = code }
func (w *benchWriter) Write(p []byte) (int, error) { return len(p), nil }
