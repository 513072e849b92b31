package storebench

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/http"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/internal/pgtest"
	"github.com/idemlint/idemlint/runtime/internal/reqtest"
	"github.com/idemlint/idemlint/runtime/pgstore"
	"github.com/idemlint/idemlint/runtime/redisstore"
)

// BenchmarkMiddlewareOverhead compares, on each store, a keyed POST that
// creates one payment row through the middleware with the same request
// served by the same handler without it, interleaved in one run so that
// both see the same load. The handler inserts the payment in PostgreSQL:
// in the attempt's transaction (Tx) with the PostgreSQL store, in a transaction
// of its own with the memory and Redis stores (and without the
// middleware). keyed/bare-throughput is the ratio of the bare mean latency
// to the keyed one: the throughput kept at equal concurrency.
func BenchmarkMiddlewareOverhead(b *testing.B) {
	db, _ := pgtest.SchemaDB(b)
	db.SetMaxOpenConns(16)
	ctx := context.Background()
	if _, err := db.Exec(`CREATE TABLE payments (id bigserial PRIMARY KEY, amount bigint NOT NULL)`); err != nil {
		b.Fatal(err)
	}
	pg, err := pgstore.NewPostgresStore(ctx, db)
	if err != nil {
		b.Fatal(err)
	}
	rs := redisStore(b)
	insert := func(ctx context.Context, tx *sql.Tx) (int64, error) {
		var id int64
		err := tx.QueryRowContext(ctx, `INSERT INTO payments (amount) VALUES ($1) RETURNING id`, 100).Scan(&id)
		return id, err
	}
	// payment creates one payment: in the attempt's transaction when there is one, else in its own.
	payment := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var id int64
		var err error
		if tx := idempotency.Tx(r.Context()); tx != nil {
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
		store idempotency.Store
	}{{"memory", idempotency.NewMemoryStore()}, {"postgres", pg}, {"redis", rs}} {
		keyed := idempotency.Middleware(c.store)(payment)
		b.Run(c.name, func(b *testing.B) {
			bareNs, keyedNs := reqtest.Interleave(b, payment, keyed)
			n := float64(b.N)
			b.ReportMetric(bareNs/n/1e3, "bare-µs/req")
			b.ReportMetric(keyedNs/n/1e3, "keyed-µs/req")
		})
	}
}

// redisStore returns a Redis store under a fresh prefix on $REDIS_ADDR
// (default 127.0.0.1:6379); a missing Redis fails the benchmark.
func redisStore(b *testing.B) *redisstore.RedisStore {
	addr := os.Getenv("REDIS_ADDR")
	if addr == "" {
		addr = "127.0.0.1:6379"
	}
	rdb := redis.NewClient(&redis.Options{Addr: addr, DialTimeout: 2 * time.Second, PoolSize: 32})
	b.Cleanup(func() { rdb.Close() }) // after the keys' clean-up, registered later
	if err := rdb.Ping(context.Background()).Err(); err != nil {
		b.Fatalf("Redis at %s: %v", addr, err)
	}
	var p [6]byte
	rand.Read(p[:])
	prefix := "idembench_" + hex.EncodeToString(p[:])
	s, err := redisstore.NewRedisStore(rdb, redisstore.WithRedisPrefix(prefix))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		ctx := context.Background()
		iter := rdb.Scan(ctx, 0, "{"+prefix+"}:*", 1000).Iterator()
		for iter.Next(ctx) {
			rdb.Del(ctx, iter.Val())
		}
	})
	return s
}
