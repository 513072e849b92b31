package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/redisstore"
)

func testRedisAddr() string { return envOr("REDIS_ADDR", "127.0.0.1:6379") }

// redisPrefix returns a client on the test Redis and a fresh key prefix,
// whose keys are deleted when the test ends. A missing Redis fails the
// test when IDEMLINT_REQUIRE_REDIS=1 (as in CI) and skips it otherwise.
func redisPrefix(t *testing.T) (*redis.Client, string) {
	t.Helper()
	rdb := redis.NewClient(&redis.Options{Addr: testRedisAddr(), DialTimeout: 2 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := rdb.Ping(ctx).Err(); err != nil {
		rdb.Close()
		if os.Getenv("IDEMLINT_REQUIRE_REDIS") == "1" {
			t.Fatalf("Redis is required (IDEMLINT_REQUIRE_REDIS=1; set REDIS_ADDR or start 127.0.0.1:6379): %v", err)
		}
		t.Skipf("no Redis at %s (set IDEMLINT_REQUIRE_REDIS=1 to fail instead): %v", testRedisAddr(), err)
	}
	var b [6]byte
	rand.Read(b[:])
	prefix := "idemdemo_" + hex.EncodeToString(b[:])
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		iter := rdb.Scan(ctx, 0, "{"+prefix+"}:*", 1000).Iterator()
		for iter.Next(ctx) {
			rdb.Del(ctx, iter.Val())
		}
		rdb.Close()
	})
	return rdb, prefix
}

func redisDemo(t *testing.T, workDelay time.Duration) *demo {
	rdb, prefix := redisPrefix(t)
	store, err := redisstore.NewRedisStore(rdb, redisstore.WithRedisPrefix(prefix))
	if err != nil {
		t.Fatal(err)
	}
	lines := &syncBuffer{}
	return newDemo(t, serverConfig{store: store, payments: newMemoryPayments(), lease: time.Minute, workDelay: workDelay},
		idempotency.NewMemoryOutbox(), newLogReceipts(lines), lines)
}

// Verification 4 on Redis: the demo is killed (SIGKILL) in the middle of a
// request, restarted, and the request retried after the lease: it runs
// once in the new process and is replayed after; SIGTERM stops it.
func TestDemoRedisCrashAndRetry(t *testing.T) {
	t.Parallel()
	rdb, prefix := redisPrefix(t)
	c := startCrash(t, "-store", "redis", "-redis-addr", testRedisAddr(), "-redis-prefix", prefix)
	record := "{" + prefix + "}:k:7:default:" + c.key
	deadline := time.Now().Add(10 * time.Second)
	for rdb.HGet(context.Background(), record, "state").Val() != "p" {
		if time.Now().After(deadline) {
			t.Fatalf("the request never claimed its key\n%s", c.log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // inside the handler's work delay
	c.kill(t)

	c.restart(t)
	if r, _ := post(t, c.client, c.base, c.key, `{"amount":1,"currency":"EUR"}`); r.status != 422 {
		t.Fatalf("other body: %d, want 422", r.status)
	}
	if n := count(t, c.base); n != 1 {
		t.Fatalf("payments = %d, want exactly 1", n)
	}
	stopDemo(t, c.cmd, c.log)
}
