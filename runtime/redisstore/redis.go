package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

// RedisStore is an idempotency.Store in Redis (github.com/redis/go-redis/v9), shared by
// every instance of a service. Each key is one Redis hash; every operation
// is one Lua script, so a claim, a takeover, a completion or a release is
// atomic, and all times come from the Redis server's clock (TIME), never
// the application's.
//
// It gives the store's semantics: a claim with a lease and a fence token
// (from one counter, INCR, so fences never repeat, even after a release or
// an expiry), takeover of a crashed attempt's key after its lease with a
// newer fence, completion and release only while the fence is current,
// recorded steps, replay, and expiry (the hash expires with PEXPIREAT at
// the key's TTL, or at the end of a lease that outlives it; expiry is also
// checked on every read), so no reaper is needed. It fails closed: an
// unreachable or failing Redis gives errors wrapping idempotency.ErrStoreUnavailable,
// which idempotency.Middleware answers 503 without running the handler.
//
// What it cannot give is PostgresStore's transaction: the completion is
// not atomic with the handler's business writes (idempotency.Tx returns nil; idempotency.OnCommit
// functions run right after the completion). A handler whose writes live
// elsewhere must make them idempotent on their own or record them as
// steps (idempotency.Step, StepValue), so that a retry after a crash between the
// writes and the completion resumes instead of repeating them, and must
// send its side effects through an outbox keyed by the idempotency key.
// See docs/runtime-idempotency.md#redis.
//
// All of the store's keys share one hash tag (the prefix in braces), so it
// runs on Redis Cluster, in one slot.
type RedisStore struct {
	rdb    redis.UniversalClient
	prefix string // "{prefix}:"
}

// RedisOption configures a RedisStore.
type RedisOption func(*redisConfig)

type redisConfig struct{ prefix string }

// WithRedisPrefix sets the prefix of the store's Redis keys (default
// "idem"): keys are "{prefix}:k:…" and the fence counter "{prefix}:fence".
func WithRedisPrefix(p string) RedisOption { return func(c *redisConfig) { c.prefix = p } }

// NewRedisStore returns a store in the Redis that rdb talks to. It sends
// nothing: call Ping to check that Redis answers. Set rdb's dial, read and
// write timeouts: they bound how long a request waits for the store before
// the middleware answers 503.
func NewRedisStore(rdb redis.UniversalClient, opts ...RedisOption) (*RedisStore, error) {
	cfg := redisConfig{prefix: "idem"}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.prefix == "" || strings.ContainsAny(cfg.prefix, "{}") {
		return nil, fmt.Errorf("idempotency: invalid redis prefix %q", cfg.prefix)
	}
	return &RedisStore{rdb: rdb, prefix: "{" + cfg.prefix + "}:"}, nil
}

// Ping checks that Redis answers (for readiness probes).
func (s *RedisStore) Ping(ctx context.Context) error {
	if err := s.rdb.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("redis ping: %w", redisErr(err))
	}
	return nil
}

// recordKey is the hash of (tenant, key): the tenant's length first, so
// that no two pairs share a name.
func (s *RedisStore) recordKey(tenant, key string) string {
	return s.prefix + "k:" + strconv.Itoa(len(tenant)) + ":" + tenant + ":" + key
}

func (s *RedisStore) fenceKey() string { return s.prefix + "fence" }

// redisErr classifies a Redis error: every failure of the server or the
// connection is unavailability (there is no request data Redis refuses
// within the middleware's limits).
func redisErr(err error) error {
	if err == nil || errors.Is(err, idempotency.ErrStoreUnavailable) {
		return err
	}
	return fmt.Errorf("%w: %w", idempotency.ErrStoreUnavailable, err)
}

// The hash's fields: fp (fingerprint), state ("p" in progress, "c"
// completed), fence, lease (lease end, ms since the epoch on Redis's
// clock; 0 when none), exp (expiry, ms), nsteps and step:<name> (recorded
// steps), status, headers (JSON) and body (the response).
const redisNow = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`

// redisLive is true when the record h (HMGET fp, state, fence, lease, exp)
// is alive at now: not expired, or in progress under a valid lease.
const redisLive = `local function live(h)
	if not h[1] then return false end
	local lease = tonumber(h[4]) or 0
	return now < tonumber(h[5]) or (h[2] == 'p' and now < lease)
end
`

// redisSteps appends the recorded steps of KEYS[1] to out, as name, result pairs.
const redisSteps = `local function steps(out)
	local all = redis.call('HGETALL', KEYS[1])
	for i = 1, #all, 2 do
		if string.sub(all[i], 1, 5) == 'step:' then
			out[#out + 1] = string.sub(all[i], 6)
			out[#out + 1] = all[i + 1]
		end
	end
	return out
end
`

// KEYS: record, fence counter. ARGV: fingerprint, lease ms, ttl ms.
var redisClaim = redis.NewScript(redisNow + redisLive + redisSteps + `
local h = redis.call('HMGET', KEYS[1], 'fp', 'state', 'fence', 'lease', 'exp')
local leaseMs, ttlMs = tonumber(ARGV[2]), tonumber(ARGV[3])
if live(h) then
	local exp = tonumber(h[5])
	if h[1] ~= ARGV[1] then return {'mismatch'} end
	if h[2] == 'c' then
		local r = redis.call('HMGET', KEYS[1], 'status', 'headers', 'body')
		return {'completed', r[1], r[2], r[3]}
	end
	local lease = tonumber(h[4]) or 0
	if now < lease then return {'in-progress', lease - now} end
	local f = redis.call('INCR', KEYS[2])
	redis.call('HSET', KEYS[1], 'fence', f, 'lease', now + leaseMs)
	redis.call('PEXPIREAT', KEYS[1], math.max(exp, now + leaseMs))
	return steps({'taken-over', f})
end
redis.call('DEL', KEYS[1])
local f = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[1], 'fp', ARGV[1], 'state', 'p', 'fence', f, 'lease', now + leaseMs,
	'exp', now + ttlMs, 'nsteps', 0)
redis.call('PEXPIREAT', KEYS[1], math.max(now + ttlMs, now + leaseMs))
return {'acquired', f}
`)

// redisOwned is true when the record is in progress under fence ARGV[1].
const redisOwned = `local h = redis.call('HMGET', KEYS[1], 'state', 'fence', 'exp', 'nsteps')
local owned = h[1] == 'p' and h[2] == ARGV[1]
`

// KEYS: record. ARGV: fence, status, headers, body. Returns 1, or 0 when the lease is lost.
var redisComplete = redis.NewScript(redisOwned + `
if not owned then return 0 end
redis.call('HSET', KEYS[1], 'state', 'c', 'lease', 0, 'status', ARGV[2], 'headers', ARGV[3], 'body', ARGV[4])
redis.call('PEXPIREAT', KEYS[1], tonumber(h[3]))
return 1
`)

// KEYS: record. ARGV: fence. Deletes the record, or, when steps were
// recorded, ends its lease and keeps it.
var redisRelease = redis.NewScript(redisOwned + `
if not owned then return 0 end
if tonumber(h[4]) == 0 then
	redis.call('DEL', KEYS[1])
	return 1
end
redis.call('HSET', KEYS[1], 'lease', 0)
redis.call('PEXPIREAT', KEYS[1], tonumber(h[3]))
return 2
`)

// KEYS: record. ARGV: fence, step, result. Returns 1, or 0 when the lease is lost.
var redisStep = redis.NewScript(redisOwned + `
if not owned then return 0 end
if redis.call('HSET', KEYS[1], 'step:' .. ARGV[2], ARGV[3]) == 1 then
	redis.call('HINCRBY', KEYS[1], 'nsteps', 1)
end
return 1
`)

// KEYS: record. Returns {} when absent or expired, else fp, state, fence,
// exp, status, headers, body, then the steps as name, result pairs.
var redisLookup = redis.NewScript(redisNow + redisSteps + `
local h = redis.call('HMGET', KEYS[1], 'fp', 'state', 'fence', 'exp', 'status', 'headers', 'body')
if not h[1] or now >= tonumber(h[4]) then return {} end
return steps({h[1], h[2], h[3], h[4], h[5] or '', h[6] or '', h[7] or ''})
`)

// millis rounds d up to whole milliseconds, at least 1.
func millis(d time.Duration) int64 {
	return max(int64((d+time.Millisecond-1)/time.Millisecond), 1)
}

// Claim implements idempotency.Store.
func (s *RedisStore) Claim(ctx context.Context, req idempotency.ClaimRequest) (idempotency.ClaimResult, error) {
	if err := req.Check(); err != nil {
		return idempotency.ClaimResult{}, fmt.Errorf("redis claim: %w", err)
	}
	v, err := redisClaim.Run(ctx, s.rdb, []string{s.recordKey(req.Tenant, req.Key), s.fenceKey()},
		req.Fingerprint, millis(req.LeaseTTL), millis(req.TTL)).Slice()
	if err != nil {
		return idempotency.ClaimResult{}, fmt.Errorf("redis claim: %w", redisErr(err))
	}
	res, err := s.claimResult(req, v)
	if err != nil {
		return idempotency.ClaimResult{}, fmt.Errorf("redis claim: %w", redisErr(err))
	}
	return res, nil
}

func (s *RedisStore) claimResult(req idempotency.ClaimRequest, v []any) (idempotency.ClaimResult, error) {
	if len(v) == 0 {
		return idempotency.ClaimResult{}, errors.New("empty reply")
	}
	lease := func() (idempotency.Lease, error) {
		if len(v) < 2 {
			return idempotency.Lease{}, errors.New("reply without a fence")
		}
		f, ok := v[1].(int64)
		if !ok {
			return idempotency.Lease{}, fmt.Errorf("fence %v is not an integer", v[1])
		}
		return idempotency.Lease{Tenant: req.Tenant, Key: req.Key, Fence: f}, nil
	}
	switch v[0] {
	case "acquired":
		l, err := lease()
		return idempotency.ClaimResult{Outcome: idempotency.Acquired, Lease: l}, err
	case "taken-over":
		l, err := lease()
		if err != nil {
			return idempotency.ClaimResult{}, err
		}
		steps, err := redisStepMap(v[2:])
		return idempotency.ClaimResult{Outcome: idempotency.TakenOver, Lease: l, Steps: steps}, err
	case "mismatch":
		return idempotency.ClaimResult{Outcome: idempotency.Mismatch}, nil
	case "in-progress":
		if len(v) < 2 {
			return idempotency.ClaimResult{}, errors.New("in-progress reply without a lease")
		}
		ms, _ := v[1].(int64)
		return idempotency.ClaimResult{Outcome: idempotency.InProgress, RetryAfter: time.Duration(ms) * time.Millisecond}, nil
	case "completed":
		if len(v) < 4 {
			return idempotency.ClaimResult{}, errors.New("completed reply without a response")
		}
		resp, err := redisResponse(v[1], v[2], v[3])
		return idempotency.ClaimResult{Outcome: idempotency.Completed, Response: resp}, err
	}
	return idempotency.ClaimResult{}, fmt.Errorf("unknown reply %v", v[0])
}

// redisResponse decodes a stored response.
func redisResponse(status, headers, body any) (*idempotency.Response, error) {
	st, _ := status.(string)
	code, err := strconv.Atoi(st)
	if err != nil {
		return nil, fmt.Errorf("completed key with status %q", st)
	}
	r := &idempotency.Response{Status: code, Body: []byte{}}
	if b, _ := body.(string); b != "" {
		r.Body = []byte(b)
	}
	if h, _ := headers.(string); h != "" && h != "null" {
		if err := json.Unmarshal([]byte(h), &r.Header); err != nil {
			return nil, fmt.Errorf("decode headers: %w", err)
		}
	}
	return r, nil
}

// redisStepMap decodes name, result pairs; nil when there are none.
func redisStepMap(v []any) (map[string]json.RawMessage, error) {
	if len(v) == 0 {
		return nil, nil
	}
	if len(v)%2 != 0 {
		return nil, errors.New("odd step list")
	}
	m := make(map[string]json.RawMessage, len(v)/2)
	for i := 0; i < len(v); i += 2 {
		name, _ := v[i].(string)
		result, _ := v[i+1].(string)
		m[name] = json.RawMessage(result)
	}
	return m, nil
}

// Begin implements idempotency.Store. The unit of work has no transaction: Complete
// stores the response atomically under the fence check, and idempotency.OnCommit
// functions run after it.
func (s *RedisStore) Begin(ctx context.Context, l idempotency.Lease) (idempotency.Work, error) {
	return &redisWork{s: s, l: l}, nil
}

// Release implements idempotency.Store.
func (s *RedisStore) Release(ctx context.Context, l idempotency.Lease) error {
	if err := redisRelease.Run(ctx, s.rdb, []string{s.recordKey(l.Tenant, l.Key)}, l.Fence).Err(); err != nil {
		return fmt.Errorf("redis release: %w", redisErr(err))
	}
	return nil
}

// SaveStep implements idempotency.Store.
func (s *RedisStore) SaveStep(ctx context.Context, l idempotency.Lease, step string, result json.RawMessage) error {
	if len(result) == 0 {
		result = json.RawMessage("null")
	}
	n, err := redisStep.Run(ctx, s.rdb, []string{s.recordKey(l.Tenant, l.Key)}, l.Fence, step, []byte(result)).Int64()
	if err != nil {
		return fmt.Errorf("redis save step %q: %w", step, redisErr(err))
	}
	if n != 1 {
		return fmt.Errorf("redis save step %q: %w", step, idempotency.ErrLeaseLost)
	}
	return nil
}

// Lookup implements idempotency.Store.
func (s *RedisStore) Lookup(ctx context.Context, tenant, key string) (*idempotency.Record, error) {
	v, err := redisLookup.Run(ctx, s.rdb, []string{s.recordKey(tenant, key)}).Slice()
	if err != nil {
		return nil, fmt.Errorf("redis lookup: %w", redisErr(err))
	}
	if len(v) < 7 {
		return nil, fmt.Errorf("redis lookup: %w", idempotency.ErrNotFound)
	}
	str := func(i int) string { s, _ := v[i].(string); return s }
	fence, err1 := strconv.ParseInt(str(2), 10, 64)
	exp, err2 := strconv.ParseInt(str(3), 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return nil, fmt.Errorf("redis lookup: %w", redisErr(err))
	}
	rec := &idempotency.Record{Tenant: tenant, Key: key, Fingerprint: []byte(str(0)), Completed: str(1) == "c", Fence: fence,
		ExpiresAt: time.UnixMilli(exp)}
	if rec.Steps, err = redisStepMap(v[7:]); err != nil {
		return nil, fmt.Errorf("redis lookup: %w", redisErr(err))
	}
	if rec.Completed {
		if rec.Response, err = redisResponse(v[4], v[5], v[6]); err != nil {
			return nil, fmt.Errorf("redis lookup: %w", redisErr(err))
		}
	}
	return rec, nil
}

type redisWork struct {
	s *RedisStore
	l idempotency.Lease
}

func (w *redisWork) Context(ctx context.Context) context.Context { return ctx }

func (w *redisWork) Complete(ctx context.Context, resp *idempotency.Response) error {
	h := resp.Header
	if h == nil {
		h = http.Header{}
	}
	headers, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("redis complete: %w: %w", idempotency.ErrStoreRejected, err)
	}
	body := resp.Body
	if body == nil {
		body = []byte{}
	}
	n, err := redisComplete.Run(ctx, w.s.rdb, []string{w.s.recordKey(w.l.Tenant, w.l.Key)},
		w.l.Fence, resp.Status, headers, body).Int64()
	if err != nil {
		return fmt.Errorf("redis complete: %w", redisErr(err))
	}
	if n != 1 {
		return fmt.Errorf("redis complete: %w", idempotency.ErrLeaseLost)
	}
	return nil
}

func (w *redisWork) Abort(ctx context.Context) error { return nil }
