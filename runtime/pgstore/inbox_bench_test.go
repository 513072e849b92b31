package pgstore

import (
	"context"
	"database/sql"
	"net/url"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

// BenchmarkInbox compares Inbox.Consume on PostgreSQL (begin, insert the id, run a handler that does
// nothing, commit) with a bare autocommit insert of the same row into the same table: what the inbox adds
// to the write a consumer must make anyway. Both run sequentially and on 2×GOMAXPROCS goroutines, with the
// server's synchronous_commit (each commit waits for its WAL flush) and with synchronous_commit = off
// (no flush wait: the round trips and the server's work show).
func BenchmarkInbox(b *testing.B) {
	db := schemaDB(b)
	ctx := context.Background()
	b.Run("sync", func(b *testing.B) { benchInbox(b, db) })
	var schema string
	if err := db.QueryRow(`SELECT current_schema()`).Scan(&schema); err != nil {
		b.Fatal(err)
	}
	dsn := withSearchPath(b, testDSN(), schema)
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		q := u.Query()
		q.Set("synchronous_commit", "off")
		u.RawQuery = q.Encode()
		dsn = u.String()
	} else {
		dsn += " synchronous_commit=off"
	}
	nosync, err := sql.Open("pgx", dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer nosync.Close()
	var sc string
	if err := nosync.QueryRowContext(ctx, `SHOW synchronous_commit`).Scan(&sc); err != nil || sc != "off" {
		b.Fatalf("synchronous_commit = %q, %v", sc, err)
	}
	b.Run("nosync", func(b *testing.B) { benchInbox(b, nosync) })
}

func benchInbox(b *testing.B, db *sql.DB) {
	ctx := context.Background()
	pi, err := newPGInbox(ctx, db, []PostgresOption{WithTable("inbox_bench_msgs")})
	if err != nil {
		b.Fatal(err)
	}
	in := idempotency.NewInbox(pi)
	var seq atomic.Int64
	run := idempotency.NewKey()[:8] // ids unique across runs on the same table
	id := func(prefix string) string { return run + prefix + strconv.FormatInt(seq.Add(1), 10) }
	nop := func(context.Context) error { return nil }
	consume := func(b *testing.B) {
		if ran, err := in.Consume(ctx, id("c-"), nop); !ran || err != nil {
			b.Fatal(ran, err)
		}
	}
	bare := func(b *testing.B) {
		if _, err := db.ExecContext(ctx, pi.qInsert, id("b-")); err != nil {
			b.Fatal(err)
		}
	}
	// Both in turn, each iteration one of each, so that the load of the machine weighs on both alike; the
	// metric throughput-ratio is the inbox's throughput over the bare insert's.
	b.Run("interleaved", func(b *testing.B) {
		var tc, ti time.Duration
		for b.Loop() {
			t0 := time.Now()
			consume(b)
			t1 := time.Now()
			bare(b)
			tc, ti = tc+t1.Sub(t0), ti+time.Since(t1)
		}
		b.ReportMetric(float64(tc.Nanoseconds())/float64(b.N), "consume-ns/op")
		b.ReportMetric(float64(ti.Nanoseconds())/float64(b.N), "insert-ns/op")
		b.ReportMetric(float64(ti)/float64(tc), "throughput-ratio")
	})
	for _, c := range []struct {
		name string
		op   func(*testing.B)
	}{{"consume", consume}, {"bare-insert", bare}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				c.op(b)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
		})
		b.Run(c.name+"/parallel", func(b *testing.B) {
			b.SetParallelism(2)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					c.op(b)
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
		})
	}
}
