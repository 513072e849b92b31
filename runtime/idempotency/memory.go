package idempotency

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"maps"
	"net/http"
	"sync"
	"time"
)

// MemoryStore is the embedded default Store: keys live in this process only
// (use PostgresStore behind a load balancer). It is sharded, bounded by a
// maximum number of entries, and expires entries: an expired entry is
// treated as absent on read, removed when its shard needs room, and by Reap.
// When a shard is full it evicts expired entries first, then the oldest
// completed entry; in-progress entries are never evicted (Claim
// returns ErrStoreFull instead).
//
// Its unit of work has no transaction: functions registered with OnCommit
// run atomically with the completion (under the fence check), so business
// state kept in memory is applied exactly when the key completes.
type MemoryStore struct {
	shards []memShard
	seed   maphash.Seed
	now    func() time.Time
}

// MemoryOption configures a MemoryStore.
type MemoryOption func(*memoryConfig)

type memoryConfig struct {
	maxEntries int
	shards     int
	now        func() time.Time
}

// WithMaxEntries bounds the number of keys kept (default 100000). The bound
// is enforced per shard (MaxEntries divided by the number of shards,
// rounded up).
func WithMaxEntries(n int) MemoryOption {
	return func(c *memoryConfig) { c.maxEntries = n }
}

// WithShards sets the number of shards (default 64).
func WithShards(n int) MemoryOption {
	return func(c *memoryConfig) { c.shards = n }
}

// WithClock replaces time.Now, for tests of expiry and leases.
func WithClock(now func() time.Time) MemoryOption {
	return func(c *memoryConfig) { c.now = now }
}

type memShard struct {
	mu      sync.Mutex
	entries map[memKey]*memEntry
	order   []memKey // insertion order, for eviction; may hold stale keys
	head    int
	max     int
	fence   int64 // last fence handed out by this shard
	_       [40]byte
}

type memKey struct{ tenant, key string }

type memEntry struct {
	fingerprint []byte
	completed   bool
	fence       int64
	leaseUntil  time.Time
	expiresAt   time.Time
	resp        *Response
	steps       map[string]json.RawMessage
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore(opts ...MemoryOption) *MemoryStore {
	cfg := memoryConfig{maxEntries: 100000, shards: 64, now: time.Now}
	for _, o := range opts {
		o(&cfg)
	}
	cfg.shards = max(cfg.shards, 1)
	cfg.maxEntries = max(cfg.maxEntries, 1)
	per := (cfg.maxEntries + cfg.shards - 1) / cfg.shards
	s := &MemoryStore{shards: make([]memShard, cfg.shards), seed: maphash.MakeSeed(), now: cfg.now}
	for i := range s.shards {
		s.shards[i].entries = make(map[memKey]*memEntry)
		s.shards[i].max = per
	}
	return s
}

func (s *MemoryStore) shard(tenant, key string) *memShard {
	var h maphash.Hash
	h.SetSeed(s.seed)
	h.WriteString(tenant)
	h.WriteByte(0)
	h.WriteString(key)
	return &s.shards[h.Sum64()%uint64(len(s.shards))]
}

// Len returns the number of entries held, expired ones included.
func (s *MemoryStore) Len() int {
	n := 0
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		n += len(sh.entries)
		sh.mu.Unlock()
	}
	return n
}

// Claim implements Store.
func (s *MemoryStore) Claim(ctx context.Context, req ClaimRequest) (ClaimResult, error) {
	if err := ctx.Err(); err != nil {
		return ClaimResult{}, fmt.Errorf("memory claim: %w", err)
	}
	now := s.now()
	k := memKey{req.Tenant, req.Key}
	sh := s.shard(req.Tenant, req.Key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	e, ok := sh.entries[k]
	if ok && !now.Before(e.expiresAt) {
		delete(sh.entries, k)
		ok = false
	}
	if !ok {
		if len(sh.entries) >= sh.max && !sh.makeRoom(now) {
			return ClaimResult{}, fmt.Errorf("memory claim: %w", ErrStoreFull)
		}
		sh.fence++
		e = &memEntry{
			fingerprint: bytes.Clone(req.Fingerprint),
			fence:       sh.fence,
			leaseUntil:  now.Add(req.LeaseTTL),
			expiresAt:   now.Add(req.TTL),
		}
		sh.entries[k] = e
		sh.order = append(sh.order, k)
		return ClaimResult{Outcome: Acquired, Lease: Lease{req.Tenant, req.Key, e.fence}}, nil
	}
	if !bytes.Equal(e.fingerprint, req.Fingerprint) {
		return ClaimResult{Outcome: Mismatch}, nil
	}
	if e.completed {
		return ClaimResult{Outcome: Completed, Response: cloneResponse(e.resp)}, nil
	}
	if now.Before(e.leaseUntil) {
		return ClaimResult{Outcome: InProgress, RetryAfter: e.leaseUntil.Sub(now)}, nil
	}
	sh.fence++
	e.fence = sh.fence
	e.leaseUntil = now.Add(req.LeaseTTL)
	return ClaimResult{Outcome: TakenOver, Lease: Lease{req.Tenant, req.Key, e.fence}, Steps: maps.Clone(e.steps)}, nil
}

// makeRoom evicts expired entries, else the oldest completed one. It
// reports whether there is room. The caller holds sh.mu.
func (sh *memShard) makeRoom(now time.Time) bool {
	// Drop stale or expired keys from the front of the insertion order.
	for sh.head < len(sh.order) {
		k := sh.order[sh.head]
		e, ok := sh.entries[k]
		if ok && now.Before(e.expiresAt) {
			break
		}
		if ok {
			delete(sh.entries, k)
		}
		sh.order[sh.head] = memKey{}
		sh.head++
	}
	sh.compact()
	if len(sh.entries) < sh.max {
		return true
	}
	// Full of live entries. Evict an expired entry if one is near the front
	// (with the usual constant TTL, insertion order is expiry order), else
	// the oldest completed entry; in-progress entries are never evicted.
	const window = 64
	for i := sh.head; i < len(sh.order) && i < sh.head+window; i++ {
		k := sh.order[i]
		if e, ok := sh.entries[k]; ok && !now.Before(e.expiresAt) {
			delete(sh.entries, k)
			return true
		}
	}
	for i := sh.head; i < len(sh.order); i++ {
		k := sh.order[i]
		e, ok := sh.entries[k]
		if ok && e.completed {
			delete(sh.entries, k)
			return true
		}
		if !ok && i == sh.head {
			sh.order[i] = memKey{}
			sh.head++
		}
	}
	return false
}

// compact drops the consumed prefix of the order queue when it dominates,
// and rebuilds the queue when it holds too many stale keys.
func (sh *memShard) compact() {
	if sh.head > 0 && sh.head*2 >= len(sh.order) {
		sh.order = append(sh.order[:0], sh.order[sh.head:]...)
		sh.head = 0
	}
	if len(sh.order)-sh.head > 4*sh.max+64 {
		live := sh.order[:0]
		seen := make(map[memKey]bool, len(sh.entries))
		for _, k := range sh.order[sh.head:] {
			if _, ok := sh.entries[k]; ok && !seen[k] {
				seen[k] = true
				live = append(live, k)
			}
		}
		clear(sh.order[len(live):])
		sh.order = live
		sh.head = 0
	}
}

// Reap removes every expired entry and returns how many it removed.
func (s *MemoryStore) Reap(ctx context.Context) (int, error) {
	n := 0
	for i := range s.shards {
		if err := ctx.Err(); err != nil {
			return n, fmt.Errorf("memory reap: %w", err)
		}
		sh := &s.shards[i]
		now := s.now()
		sh.mu.Lock()
		for k, e := range sh.entries {
			if !now.Before(e.expiresAt) {
				delete(sh.entries, k)
				n++
			}
		}
		sh.compact()
		sh.mu.Unlock()
	}
	return n, nil
}

// current returns l's entry if l still owns it. The caller holds sh.mu.
func (sh *memShard) current(l Lease) *memEntry {
	e, ok := sh.entries[memKey{l.Tenant, l.Key}]
	if !ok || e.completed || e.fence != l.Fence {
		return nil
	}
	return e
}

// Begin implements Store.
func (s *MemoryStore) Begin(ctx context.Context, l Lease) (Work, error) {
	return &memWork{s: s, l: l}, nil
}

// Release implements Store.
func (s *MemoryStore) Release(ctx context.Context, l Lease) error {
	sh := s.shard(l.Tenant, l.Key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	e := sh.current(l)
	if e == nil {
		return nil
	}
	if len(e.steps) > 0 {
		e.leaseUntil = time.Time{} // keep the recovery points; end the lease
		return nil
	}
	delete(sh.entries, memKey{l.Tenant, l.Key})
	return nil
}

// SaveStep implements Store.
func (s *MemoryStore) SaveStep(ctx context.Context, l Lease, step string, result json.RawMessage) error {
	sh := s.shard(l.Tenant, l.Key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	e := sh.current(l)
	if e == nil {
		return fmt.Errorf("memory save step %q: %w", step, ErrLeaseLost)
	}
	if e.steps == nil {
		e.steps = make(map[string]json.RawMessage)
	}
	e.steps[step] = bytes.Clone(result)
	return nil
}

// Lookup implements Store.
func (s *MemoryStore) Lookup(ctx context.Context, tenant, key string) (*Record, error) {
	now := s.now()
	sh := s.shard(tenant, key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	e, ok := sh.entries[memKey{tenant, key}]
	if !ok || !now.Before(e.expiresAt) {
		return nil, fmt.Errorf("memory lookup: %w", ErrNotFound)
	}
	return &Record{
		Tenant: tenant, Key: key, Fingerprint: bytes.Clone(e.fingerprint), Completed: e.completed,
		Fence: e.fence, Response: cloneResponse(e.resp), Steps: maps.Clone(e.steps), ExpiresAt: e.expiresAt,
	}, nil
}

type memWork struct {
	s        *MemoryStore
	l        Lease
	onCommit []func()
}

func (w *memWork) Context(ctx context.Context) context.Context { return ctx }

func (w *memWork) addOnCommit(f func()) { w.onCommit = append(w.onCommit, f) }

func (w *memWork) Complete(ctx context.Context, resp *Response) error {
	sh := w.s.shard(w.l.Tenant, w.l.Key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	e := sh.current(w.l)
	if e == nil {
		w.onCommit = nil
		return fmt.Errorf("memory complete: %w", ErrLeaseLost)
	}
	e.completed = true
	e.resp = cloneResponse(resp)
	e.leaseUntil = time.Time{}
	for _, f := range w.onCommit {
		f()
	}
	w.onCommit = nil
	return nil
}

func (w *memWork) Abort(ctx context.Context) error {
	w.onCommit = nil
	return nil
}

func cloneResponse(r *Response) *Response {
	if r == nil {
		return nil
	}
	h := http.Header(nil)
	if r.Header != nil {
		h = r.Header.Clone()
	}
	return &Response{Status: r.Status, Header: h, Body: bytes.Clone(r.Body)}
}
