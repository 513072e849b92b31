package idempotency

import (
	"context"
	"database/sql"
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

// BenchmarkPostgresPayment compares a keyed POST that creates one payment
// row through the middleware on PostgreSQL with the same handler without it
// (its own BEGIN, INSERT, COMMIT), and counts the round trips per request
// at the socket (see roundTrips).
func BenchmarkPostgresPayment(b *testing.B) {
	db, counter := countedDB(b, 16)
	ctx := context.Background()
	store, err := NewPostgresStore(ctx, db)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE payments (id bigserial PRIMARY KEY, amount bigint NOT NULL)`); err != nil {
		b.Fatal(err)
	}
	insert := func(ctx context.Context, tx *sql.Tx) (int64, error) {
		var id int64
		err := tx.QueryRowContext(ctx, `INSERT INTO payments (amount) VALUES ($1) RETURNING id`, 100).Scan(&id)
		return id, err
	}
	answer := func(w http.ResponseWriter, id int64) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		w.Write(strconv.AppendInt([]byte(`{"id":`), id, 10))
		w.Write([]byte("}"))
	}
	bare := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tx, err := db.BeginTx(r.Context(), nil)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		defer tx.Rollback()
		id, err := insert(r.Context(), tx)
		if err == nil {
			err = tx.Commit()
		}
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		answer(w, id)
	})
	keyed := Middleware(store)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, err := insert(r.Context(), Tx(r.Context()))
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		answer(w, id)
	}))
	// interleaved: each iteration serves one request without and one with
	// the middleware, so both see the same load on a shared machine; the
	// ratio of their mean latencies is the throughput ratio at equal
	// concurrency.
	b.Run("interleaved", func(b *testing.B) { interleave(b, bare, keyed) })
	for _, c := range []struct {
		name string
		h    http.Handler
	}{{"without", bare}, {"middleware", keyed}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetParallelism(4)
			counter.n.Store(0)
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					postPayment(b, c.h)
				}
			})
			n := float64(b.N)
			b.ReportMetric(n/time.Since(start).Seconds(), "req/s")
			b.ReportMetric(float64(counter.n.Load())/n, "round-trips/op")
		})
	}
}

// BenchmarkMiddlewareOverhead compares, on each store, a keyed POST that
// creates one payment row through the middleware with the same request
// served by the same handler without it, interleaved in one run so that
// both see the same load. The handler inserts the payment in PostgreSQL:
// in the attempt's transaction (Tx) with PostgresStore, in a transaction
// of its own with the memory and Redis stores (and without the
// middleware). keyed/bare-throughput is the ratio of the bare mean latency
// to the keyed one: the throughput kept at equal concurrency.
func BenchmarkMiddlewareOverhead(b *testing.B) {
	db := schemaDB(b)
	db.SetMaxOpenConns(16)
	ctx := context.Background()
	if _, err := db.Exec(`CREATE TABLE payments (id bigserial PRIMARY KEY, amount bigint NOT NULL)`); err != nil {
		b.Fatal(err)
	}
	pg, err := NewPostgresStore(ctx, db)
	if err != nil {
		b.Fatal(err)
	}
	rs, _ := redisStore(b)
	insert := func(ctx context.Context, tx *sql.Tx) (int64, error) {
		var id int64
		err := tx.QueryRowContext(ctx, `INSERT INTO payments (amount) VALUES ($1) RETURNING id`, 100).Scan(&id)
		return id, err
	}
	// payment creates one payment: in the attempt's transaction when there is one, else in its own.
	payment := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var id int64
		var err error
		if tx := Tx(r.Context()); tx != nil {
			id, err = insert(r.Context(), tx)
		} else {
			var tx *sql.Tx
			if tx, err = db.BeginTx(r.Context(), nil); err == nil {
				if id, err = insert(r.Context(), tx); err == nil {
					err = tx.Commit()
				} else {
					tx.Rollback()
				}
			}
		}
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		w.Write(strconv.AppendInt([]byte(`{"id":`), id, 10))
		w.Write([]byte("}"))
	})
	for _, c := range []struct {
		name  string
		store Store
	}{{"memory", NewMemoryStore()}, {"postgres", pg}, {"redis", rs}} {
		keyed := Middleware(c.store)(payment)
		b.Run(c.name, func(b *testing.B) {
			bareNs, keyedNs := interleave(b, payment, keyed)
			n := float64(b.N)
			b.ReportMetric(bareNs/n/1e3, "bare-µs/req")
			b.ReportMetric(keyedNs/n/1e3, "keyed-µs/req")
		})
	}
}

// interleave serves, from 4 goroutines per GOMAXPROCS, one request
// without the middleware (bare) and one with it (keyed) each iteration,
// so that both see the same load on a shared machine, and reports the
// ratio of their mean latencies, the throughput ratio at equal
// concurrency. It returns the total nanoseconds each took.
func interleave(b *testing.B, bare, keyed http.Handler) (bareNs, keyedNs float64) {
	b.SetParallelism(4)
	var bareSum, keyedSum atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			t0 := time.Now()
			postPayment(b, bare)
			t1 := time.Now()
			postPayment(b, keyed)
			bareSum.Add(int64(t1.Sub(t0)))
			keyedSum.Add(int64(time.Since(t1)))
		}
	})
	b.ReportMetric(float64(bareSum.Load())/float64(keyedSum.Load()), "keyed/bare-throughput")
	return float64(bareSum.Load()), float64(keyedSum.Load())
}

// postPayment serves h a keyed payment POST, which must be answered 201.
func postPayment(b *testing.B, h http.Handler) {
	r := httptest.NewRequest("POST", "/payments", strings.NewReader(`{"amount":100}`))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Idempotency-Key", NewKey())
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusCreated {
		b.Fatalf("status %d: %s", w.Code, w.Body)
	}
}
