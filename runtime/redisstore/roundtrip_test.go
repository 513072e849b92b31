package redisstore

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

// redisCommands counts the commands a go-redis client sends, each its own
// round trip (the store pipelines nothing).
type redisCommands struct{ n atomic.Int64 }

func (c *redisCommands) DialHook(next redis.DialHook) redis.DialHook { return next }

func (c *redisCommands) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		c.n.Add(1)
		return next(ctx, cmd)
	}
}

func (c *redisCommands) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		c.n.Add(1)
		return next(ctx, cmds)
	}
}

// A keyed request on Redis costs two round trips (the claim-or-read
// script, the completion script), a replay one.
func TestRedisRoundTrips(t *testing.T) {
	s, rdb := redisStore(t)
	cmds := &redisCommands{}
	rdb.AddHook(cmds)
	h := idempotency.Middleware(s)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusCreated) }))
	serve := func(key string) (int, int64) {
		r := httptest.NewRequest("POST", "/payments", strings.NewReader(`{"amount":1}`))
		r.Header.Set("Idempotency-Key", key)
		w := httptest.NewRecorder()
		before := cmds.n.Load()
		h.ServeHTTP(w, r)
		return w.Code, cmds.n.Load() - before
	}
	serve(idempotency.NewKey()) // loads the scripts (EVALSHA, then EVAL once)
	key := idempotency.NewKey()
	if code, n := serve(key); code != http.StatusCreated || n != 2 {
		t.Fatalf("fresh key: status %d, %d round trips; want 201 in 2", code, n)
	}
	if code, n := serve(key); code != http.StatusCreated || n != 1 {
		t.Fatalf("replay: status %d, %d round trips; want 201 in 1", code, n)
	}
}
