package redisstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/idempotency/storetest"
	"github.com/idemlint/idemlint/runtime/internal/reqtest"
)

// testRedisAddr is the Redis the tests use: $REDIS_ADDR or 127.0.0.1:6379.
func testRedisAddr() string {
	if a := os.Getenv("REDIS_ADDR"); a != "" {
		return a
	}
	return "127.0.0.1:6379"
}

// redisStore returns a RedisStore under a fresh prefix, whose keys are
// deleted when the test ends. A missing Redis fails the test when
// IDEMLINT_REQUIRE_REDIS=1 (as in CI, .ci/run) and skips it otherwise.
func redisStore(t testing.TB) (*RedisStore, *redis.Client) {
	t.Helper()
	rdb := redis.NewClient(&redis.Options{Addr: testRedisAddr(), DialTimeout: 2 * time.Second,
		ReadTimeout: 2 * time.Second, WriteTimeout: 2 * time.Second, PoolSize: 32})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := rdb.Ping(ctx).Err(); err != nil {
		rdb.Close()
		if os.Getenv("IDEMLINT_REQUIRE_REDIS") == "1" {
			t.Fatalf("Redis is required for these tests (IDEMLINT_REQUIRE_REDIS=1; set REDIS_ADDR or start 127.0.0.1:6379): %v", err)
		}
		t.Skipf("no Redis at %s (set IDEMLINT_REQUIRE_REDIS=1 to fail instead): %v", testRedisAddr(), err)
	}
	var b [6]byte
	rand.Read(b[:])
	prefix := "idemtest_" + hex.EncodeToString(b[:])
	s, err := NewRedisStore(rdb, WithRedisPrefix(prefix))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		iter := rdb.Scan(ctx, 0, "{"+prefix+"}:*", 1000).Iterator()
		for iter.Next(ctx) {
			rdb.Del(ctx, iter.Val())
		}
		if err := iter.Err(); err != nil {
			t.Errorf("clean up redis keys: %v", err)
		}
		rdb.Close()
	})
	return s, rdb
}

func newRedisBackend(t *testing.T) *storetest.Backend {
	s, _ := redisStore(t)
	return &storetest.Backend{Name: "redis", Store: s}
}

// The conformance suite of runtime/idempotency/storetest, on Redis.
func TestMiddleware(t *testing.T) { storetest.Middleware(t, newRedisBackend) }

func TestTakeover(t *testing.T) {
	storetest.Takeover(t, func(t *testing.T) (idempotency.Store, func(time.Duration)) {
		s, _ := redisStore(t)
		return s, func(d time.Duration) { time.Sleep(d) }
	})
}

// Keys expire in Redis itself at their TTL (PEXPIREAT, no reaper), are
// absent on read after it, and may then be reused; a lease longer than the
// TTL keeps its key until the lease ends.
func TestRedisExpiry(t *testing.T) {
	ctx := context.Background()
	s, rdb := redisStore(t)
	var calls atomic.Int64
	mk := storetest.CreatedWithTTL(s, &calls)
	reqtest.Do(t, mk(idempotency.DefaultTTL), "POST", "day", `{}`)
	if ttl := rdb.PTTL(ctx, s.recordKey("", "day")).Val(); ttl <= idempotency.DefaultTTL-time.Minute || ttl > idempotency.DefaultTTL {
		t.Fatalf("PTTL of a completed key = %v, want 24 h", ttl)
	}
	rec, err := s.Lookup(ctx, "", "day")
	if err != nil || !rec.Completed || rec.Response.Status != 201 || time.Until(rec.ExpiresAt) < idempotency.DefaultTTL-time.Minute {
		t.Fatalf("Lookup = %+v, %v", rec, err)
	}
	h := mk(300 * time.Millisecond)
	reqtest.Do(t, h, "POST", "short", `{"a":1}`)
	if a := reqtest.Do(t, h, "POST", "short", `{"a":1}`); a.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("replay before expiry missing")
	}
	time.Sleep(400 * time.Millisecond)
	if _, err := s.Lookup(ctx, "", "short"); !errors.Is(err, idempotency.ErrNotFound) {
		t.Fatalf("Lookup after expiry: %v, want ErrNotFound", err)
	}
	if n := rdb.Exists(ctx, s.recordKey("", "short")).Val(); n != 0 {
		t.Fatalf("expired key still in Redis")
	}
	if a := reqtest.Do(t, h, "POST", "short", `{"a":2}`); a.Status != 201 || a.Header.Get("Idempotent-Replayed") != "" || calls.Load() != 3 {
		t.Fatalf("reuse after expiry: %d %q, calls %d", a.Status, a.Header.Get("Idempotent-Replayed"), calls.Load())
	}

	// A lease past the TTL keeps the key.
	s.Claim(ctx, storetest.ClaimRequest("long", 1, time.Hour, 100*time.Millisecond))
	time.Sleep(200 * time.Millisecond)
	if r, err := s.Claim(ctx, storetest.ClaimRequest("long", 1, time.Hour, time.Minute)); err != nil || r.Outcome != idempotency.InProgress {
		t.Fatalf("claim of an expired key with a live lease = %v, %v; want in-progress", r.Outcome, err)
	}
	if ttl := rdb.PTTL(ctx, s.recordKey("t", "long")).Val(); ttl < 59*time.Minute {
		t.Fatalf("PTTL of a key leased for an hour = %v", ttl)
	}
}

// Fences never repeat, even after a release deletes the key, so a stale
// owner of a released key cannot complete its next claim; recorded steps
// survive a release and go to the next owner.
func TestRedisFencesAndSteps(t *testing.T) {
	ctx := context.Background()
	s, _ := redisStore(t)
	first, err := s.Claim(ctx, storetest.ClaimRequest("k", 1, time.Minute, time.Hour))
	if err != nil || first.Outcome != idempotency.Acquired {
		t.Fatalf("claim = %+v, %v", first, err)
	}
	if err := s.Release(ctx, first.Lease); err != nil {
		t.Fatal(err)
	}
	second, err := s.Claim(ctx, storetest.ClaimRequest("k", 1, time.Minute, time.Hour))
	if err != nil || second.Outcome != idempotency.Acquired || second.Lease.Fence <= first.Lease.Fence {
		t.Fatalf("claim after release = %+v, %v; want a fence above %d", second, err, first.Lease.Fence)
	}
	w, _ := s.Begin(ctx, first.Lease)
	if err := w.Complete(ctx, &idempotency.Response{Status: 201}); !errors.Is(err, idempotency.ErrLeaseLost) {
		t.Fatalf("stale owner completes: %v, want ErrLeaseLost", err)
	}
	if err := s.SaveStep(ctx, second.Lease, "charge", json.RawMessage(`{"id":"ch_1","n":12345678901234567890}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.Release(ctx, second.Lease); err != nil {
		t.Fatal(err)
	}
	third, err := s.Claim(ctx, storetest.ClaimRequest("k", 1, time.Minute, time.Hour))
	if err != nil || third.Outcome != idempotency.TakenOver || string(third.Steps["charge"]) != `{"id":"ch_1","n":12345678901234567890}` {
		t.Fatalf("claim after a release with steps = %+v, %v; want taken over with the step, byte for byte", third, err)
	}
	if r, _ := s.Claim(ctx, storetest.ClaimRequest("k", 2, time.Minute, time.Hour)); r.Outcome != idempotency.Mismatch {
		t.Fatalf("other fingerprint = %v, want mismatch", r.Outcome)
	}
}

// An unreachable Redis fails closed: the claim's error wraps
// ErrStoreUnavailable, the middleware answers 503 with Retry-After and the
// handler does not run; Ping reports it.
func TestRedisUnreachableFailsClosed(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", DialTimeout: 500 * time.Millisecond, MaxRetries: -1})
	defer rdb.Close()
	s, err := NewRedisStore(rdb)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Ping(context.Background()); !errors.Is(err, idempotency.ErrStoreUnavailable) {
		t.Fatalf("Ping = %v, want ErrStoreUnavailable", err)
	}
	if _, err := s.Claim(context.Background(), storetest.ClaimRequest("k", 1, time.Minute, time.Hour)); !errors.Is(err, idempotency.ErrStoreUnavailable) {
		t.Fatalf("Claim = %v, want ErrStoreUnavailable", err)
	}
	ran := false
	h := idempotency.Middleware(s)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { ran = true }))
	a := reqtest.Do(t, h, "POST", "k", `{}`)
	reqtest.WantProblem(t, a, 503, idempotency.ProblemStoreUnavailable)
	if ran || a.Header.Get("Retry-After") == "" {
		t.Fatalf("handler ran %v, Retry-After %q", ran, a.Header.Get("Retry-After"))
	}
	if _, err := NewRedisStore(rdb, WithRedisPrefix("a{b}")); err == nil {
		t.Fatalf("a prefix with braces accepted")
	}
}
