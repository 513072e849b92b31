package pgstore

import (
	"context"
	"database/sql"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/internal/reqtest"
)

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
	keyed := idempotency.Middleware(store)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, err := insert(r.Context(), idempotency.Tx(r.Context()))
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
	b.Run("interleaved", func(b *testing.B) { reqtest.Interleave(b, bare, keyed) })
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
					reqtest.PostPayment(b, c.h)
				}
			})
			n := float64(b.N)
			b.ReportMetric(n/time.Since(start).Seconds(), "req/s")
			b.ReportMetric(float64(counter.n.Load())/n, "round-trips/op")
		})
	}
}
