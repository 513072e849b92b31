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
	mask   uint64 // ANDed with key hashes; tests clear bits to force collisions
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
	entries map[uint64]*memEntry // by key hash; collisions chained by next
	n       int                  // entries held
	deletes int                  // since the map was last rebuilt
	order   []*memEntry          // insertion order, for eviction; may hold removed entries
	head    int
	max     int
	fence   int64     // last fence handed out by this shard
	minExp  time.Time // no entry expires before this
	_       [40]byte
}

type memKey struct{ tenant, key string }

type memEntry struct {
	key         memKey
	hash        uint64
	next        *memEntry // same hash
	removed     bool      // no longer in the shard's map
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
	s := &MemoryStore{shards: make([]memShard, cfg.shards), seed: maphash.MakeSeed(), now: cfg.now, mask: ^uint64(0)}
	for i := range s.shards {
		s.shards[i].entries = make(map[uint64]*memEntry, min(2*per, 8192))
		s.shards[i].max = per
	}
	return s
}

func (s *MemoryStore) shard(tenant, key string) (*memShard, uint64) {
	var h maphash.Hash
	h.SetSeed(s.seed)
	h.WriteString(tenant)
	h.WriteByte(0)
	h.WriteString(key)
	sum := h.Sum64() & s.mask
	return &s.shards[sum%uint64(len(s.shards))], sum
}

// get returns the entry of k. The caller holds sh.mu.
func (sh *memShard) get(hash uint64, k memKey) *memEntry {
	for e := sh.entries[hash]; e != nil; e = e.next {
		if e.key == k {
			return e
		}
	}
	return nil
}

// put adds e, whose key is absent. The caller holds sh.mu.
func (sh *memShard) put(e *memEntry) {
	e.next = sh.entries[e.hash]
	sh.entries[e.hash] = e
	sh.n++
}

// remove deletes e from the shard. The caller holds sh.mu.
func (sh *memShard) remove(e *memEntry) {
	if e.removed {
		return
	}
	e.removed = true
	sh.n--
	if head := sh.entries[e.hash]; head == e {
		if e.next != nil {
			sh.entries[e.hash] = e.next
		} else {
			delete(sh.entries, e.hash)
			sh.deletes++
		}
	} else {
		for p := head; p != nil; p = p.next {
			if p.next == e {
				p.next = e.next
				break
			}
		}
	}
	e.next = nil
	// Rebuild the map now and then: deletions leave tombstones that make
	// probes longer.
	if sh.deletes > sh.max/2+256 {
		m := make(map[uint64]*memEntry, 2*len(sh.entries))
		for h, e := range sh.entries {
			m[h] = e
		}
		sh.entries = m
		sh.deletes = 0
	}
}

// each calls f for every entry; f may remove the entry it is given.
func (sh *memShard) each(f func(e *memEntry)) {
	var all []*memEntry
	for _, e := range sh.entries {
		for ; e != nil; e = e.next {
			all = append(all, e)
		}
	}
	for _, e := range all {
		f(e)
	}
}

// Len returns the number of entries held, expired ones included.
func (s *MemoryStore) Len() int {
	n := 0
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		n += sh.n
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
	sh, hash := s.shard(req.Tenant, req.Key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	e := sh.get(hash, k)
	ok := e != nil
	if ok && !now.Before(e.expiresAt) && (e.completed || !now.Before(e.leaseUntil)) {
		sh.remove(e) // expired, and no attempt holds a valid lease on it
		ok = false
	}
	if !ok {
		if sh.n >= sh.max && !sh.makeRoom(now) {
			return ClaimResult{}, fmt.Errorf("memory claim: %w", ErrStoreFull)
		}
		sh.fence++
		e = &memEntry{
			key:         k,
			hash:        hash,
			fingerprint: req.Fingerprint, // Claim may keep it (see ClaimRequest)
			fence:       sh.fence,
			leaseUntil:  now.Add(req.LeaseTTL),
			expiresAt:   now.Add(req.TTL),
		}
		sh.put(e)
		sh.order = append(sh.order, e)
		if sh.minExp.IsZero() || e.expiresAt.Before(sh.minExp) {
			sh.minExp = e.expiresAt
		}
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
	// Drop removed or expired entries from the front of the insertion order.
	for sh.head < len(sh.order) {
		e := sh.order[sh.head]
		if !e.removed && now.Before(e.expiresAt) {
			break
		}
		if !e.removed {
			sh.remove(e)
		}
		sh.order[sh.head] = nil
		sh.head++
	}
	sh.compact()
	if sh.n < sh.max {
		return true
	}
	// Full of live entries. If any may have expired (TTLs differ), sweep
	// the shard for them; else evict the oldest completed entry. In-progress
	// entries are never evicted.
	if !now.Before(sh.minExp) {
		sh.minExp = time.Time{}
		sh.each(func(e *memEntry) {
			if !now.Before(e.expiresAt) {
				sh.remove(e)
			} else if sh.minExp.IsZero() || e.expiresAt.Before(sh.minExp) {
				sh.minExp = e.expiresAt
			}
		})
		if sh.n < sh.max {
			return true
		}
	}
	for i := sh.head; i < len(sh.order); i++ {
		e := sh.order[i]
		if !e.removed && e.completed {
			sh.remove(e)
			return true
		}
		if e.removed && i == sh.head {
			sh.order[i] = nil
			sh.head++
		}
	}
	return false
}

// compact drops the consumed prefix of the order queue when it dominates,
// and drops removed entries when they dominate.
func (sh *memShard) compact() {
	if sh.head > 0 && sh.head*2 >= len(sh.order) {
		n := copy(sh.order, sh.order[sh.head:])
		clear(sh.order[n:])
		sh.order = sh.order[:n]
		sh.head = 0
	}
	if len(sh.order)-sh.head > 2*sh.n+64 {
		live := sh.order[:0]
		for _, e := range sh.order[sh.head:] {
			if !e.removed {
				live = append(live, e)
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
		sh.each(func(e *memEntry) {
			if !now.Before(e.expiresAt) {
				sh.remove(e)
				n++
			}
		})
		sh.compact()
		sh.mu.Unlock()
	}
	return n, nil
}

// current returns l's entry if l still owns it. The caller holds sh.mu.
func (sh *memShard) current(hash uint64, l Lease) *memEntry {
	e := sh.get(hash, memKey{l.Tenant, l.Key})
	if e == nil || e.completed || e.fence != l.Fence {
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
	sh, hash := s.shard(l.Tenant, l.Key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	e := sh.current(hash, l)
	if e == nil {
		return nil
	}
	if len(e.steps) > 0 {
		e.leaseUntil = time.Time{} // keep the recovery points; end the lease
		return nil
	}
	sh.remove(e)
	return nil
}

// SaveStep implements Store.
func (s *MemoryStore) SaveStep(ctx context.Context, l Lease, step string, result json.RawMessage) error {
	sh, hash := s.shard(l.Tenant, l.Key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	e := sh.current(hash, l)
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
	sh, hash := s.shard(tenant, key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	e := sh.get(hash, memKey{tenant, key})
	if e == nil || !now.Before(e.expiresAt) {
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
	sh, hash := w.s.shard(w.l.Tenant, w.l.Key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	e := sh.current(hash, w.l)
	if e == nil {
		w.onCommit = nil
		return fmt.Errorf("memory complete: %w", ErrLeaseLost)
	}
	e.completed = true
	e.resp = resp // Work.Complete takes ownership; reads return copies
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
