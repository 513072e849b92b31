package idempotency

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"maps"
	"math/bits"
	"net/http"
	"sync"
	"time"
	"unsafe"
)

// MemoryStore is the embedded default Store: keys live in this process only
// (use runtime/pgstore or runtime/redisstore behind a load balancer). It is sharded,
// bounded by a maximum number of entries, and expires entries: an expired
// entry is treated as absent on read, removed when its shard needs room, and
// by Reap.
//
// It never forgets a key inside its window: only expired entries are ever
// removed to make room. When a key's shard is full of live entries (in
// progress or completed within their TTL), Claim fails closed with an error
// wrapping ErrStoreFull, which Middleware answers 503 with Retry-After (the
// time until the shard's first entry may expire) and the problem type
// ProblemStoreFull: the request is not run, so a completed key is never run
// again. Size it with WithMaxEntries for the peak number of keys created per
// TTL. An in-progress entry is kept while its lease is valid even past its
// TTL (a lease longer than the TTL), as the PostgreSQL store does: only then may
// another attempt take it over, or room-making and Reap remove it.
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

// WithMaxEntries bounds the number of keys kept (default
// DefaultMaxEntries), expired ones included until they are removed. The
// bound is enforced per shard (n divided by the number of shards, rounded
// up, at most 2^30), so a claim may find its shard full a little before the
// store holds n live keys: allow some headroom over the peak number of keys
// created per TTL. A claim that finds its shard full of live keys fails
// with ErrStoreFull; no live key is ever evicted.
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

// A shard keeps its entries in a slab (entries, reused through a free
// list) linked in insertion order (head is the oldest), and indexes them
// by key hash in an open-addressing table with linear probing.
//
// A table slot is 0 when empty, else tag<<32 | (index+1), where tag is the
// top 32 bits of the entry's mixed hash (hash * memPhi). The slot's home
// position is the top bits of the same mixed hash, so probing compares
// tags without touching entries, and deletion (backward shift) and growth
// compute home positions from the slots alone.
type memShard struct {
	_ [(memLine - unsafe.Sizeof(memShardState{})%memLine) % memLine]byte // no false sharing
	memShardState
}

const (
	memLine  = 128                // two cache lines (adjacent-line prefetch)
	memPhi   = 0x9E3779B97F4A7C15 // odd: multiplying is a bijection that mixes low bits up
	memNone  = -1                 // no entry
	memLimit = 1 << 30            // entries per shard, so that indexes fit the table's 32 bits
)

type memShardState struct {
	mu         sync.Mutex
	table      []uint64
	shift      uint // 64 - log2(len(table))
	entries    []memEntry
	free       int32 // first free entry, chained by next
	head, tail int32 // insertion order, oldest first
	n          int   // entries held
	max        int
	fence      int64     // last fence handed out by this shard
	minExp     time.Time // no entry becomes removable before this (see removable)
	warmed     int       // see warm
}

type memKey struct{ tenant, key string }

// memEntry puts what eviction reads (links, tag, completed, expiresAt)
// first: unlinking an entry writes its successor's prev, which brings that
// cache line in before the successor becomes the oldest entry.
type memEntry struct {
	prev, next  int32  // insertion order; next also chains free entries
	tag         uint32 // top 32 bits of the mixed key hash (see memShard)
	completed   bool
	expiresAt   time.Time
	fence       int64
	leaseUntil  time.Time
	key         memKey
	fingerprint []byte
	resp        *Response
	steps       map[string]json.RawMessage
}

// DefaultMaxEntries is the default capacity of a MemoryStore (see
// WithMaxEntries).
const DefaultMaxEntries = 100000

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore(opts ...MemoryOption) *MemoryStore {
	cfg := memoryConfig{maxEntries: DefaultMaxEntries, shards: 64, now: time.Now}
	for _, o := range opts {
		o(&cfg)
	}
	cfg.shards = max(cfg.shards, 1)
	cfg.maxEntries = max(cfg.maxEntries, 1)
	per := min((cfg.maxEntries+cfg.shards-1)/cfg.shards, memLimit)
	s := &MemoryStore{shards: make([]memShard, cfg.shards), seed: maphash.MakeSeed(), now: cfg.now, mask: ^uint64(0)}
	for i := range s.shards {
		sh := &s.shards[i]
		sh.max = per
		sh.free, sh.head, sh.tail = memNone, memNone, memNone
		sh.resize(max(2*min(per, 4096), 16))
	}
	return s
}

func (s *MemoryStore) shard(tenant, key string) (*memShard, uint64) {
	sum := maphash.String(s.seed, key)
	if tenant != "" {
		sum ^= bits.RotateLeft64(maphash.String(s.seed, tenant), 29)
	}
	sum &= s.mask
	return &s.shards[sum%uint64(len(s.shards))], sum
}

// resize makes the table hold at least n slots (a power of two) and
// re-inserts the occupied slots. The caller holds sh.mu.
func (sh *memShard) resize(n int) {
	size := 16
	for size < n {
		size *= 2
	}
	old := sh.table
	sh.table = make([]uint64, size)
	sh.shift = uint(64 - bits.TrailingZeros(uint(size)))
	m := size - 1
	for _, v := range old {
		if v == 0 {
			continue
		}
		i := int(v >> 32 >> (sh.shift - 32))
		for sh.table[i] != 0 {
			i = (i + 1) & m
		}
		sh.table[i] = v
	}
}

// get returns the index of k's entry, or memNone. The caller holds sh.mu.
func (sh *memShard) get(hash uint64, k memKey) int32 {
	mixed := hash * memPhi
	tag := mixed >> 32
	m := len(sh.table) - 1
	for i := int(mixed >> sh.shift); ; i = (i + 1) & m {
		v := sh.table[i]
		if v == 0 {
			return memNone
		}
		if v>>32 == tag {
			if j := int32(uint32(v)) - 1; sh.entries[j].key == k {
				return j
			}
		}
	}
}

// put adds a fresh entry for hash, the newest in insertion order, and
// returns its index; the caller fills in the rest. The key must be absent
// and the shard below its bound. The caller holds sh.mu.
func (sh *memShard) put(hash uint64) int32 {
	if 2*(sh.n+1) > len(sh.table) {
		sh.resize(2 * len(sh.table))
	}
	j := sh.free
	if j != memNone {
		sh.free = sh.entries[j].next
	} else {
		if len(sh.entries) == cap(sh.entries) {
			grown := make([]memEntry, len(sh.entries), min(max(2*cap(sh.entries), 16), sh.max))
			copy(grown, sh.entries)
			sh.entries = grown
		}
		j = int32(len(sh.entries))
		sh.entries = sh.entries[:j+1]
	}
	mixed := hash * memPhi
	e := &sh.entries[j]
	e.tag = uint32(mixed >> 32)
	e.prev, e.next = sh.tail, memNone
	if sh.tail != memNone {
		sh.entries[sh.tail].next = j
	} else {
		sh.head = j
	}
	sh.tail = j
	m := len(sh.table) - 1
	i := int(mixed >> sh.shift)
	for sh.table[i] != 0 {
		i = (i + 1) & m
	}
	sh.table[i] = mixed>>32<<32 | uint64(j+1)
	sh.n++
	return j
}

// remove deletes entry j from the shard. The caller holds sh.mu.
func (sh *memShard) remove(j int32) {
	e := &sh.entries[j]
	// Find j's slot, then close the gap by shifting back the entries of
	// the probe run behind it that may move (no tombstones).
	m := len(sh.table) - 1
	i := int(uint64(e.tag) >> (sh.shift - 32))
	for want := uint64(j + 1); uint32(sh.table[i]) != uint32(want); {
		i = (i + 1) & m
	}
	for k := i; ; {
		k = (k + 1) & m
		v := sh.table[k]
		if v == 0 {
			break
		}
		// v may fill the gap at i unless its home lies cyclically in (i, k].
		if home := int(v >> 32 >> (sh.shift - 32)); (k-home)&m >= (k-i)&m {
			sh.table[i] = v
			i = k
		}
	}
	sh.table[i] = 0
	if e.prev != memNone {
		sh.entries[e.prev].next = e.next
	} else {
		sh.head = e.next
	}
	if e.next != memNone {
		sh.entries[e.next].prev = e.prev
	} else {
		sh.tail = e.prev
	}
	*e = memEntry{next: sh.free} // drop the references it held
	sh.free = j
	sh.n--
}

// each calls f for every entry, oldest first; f may remove the entry it is
// given. The caller holds sh.mu.
func (sh *memShard) each(f func(j int32, e *memEntry)) {
	for j := sh.head; j != memNone; {
		e := &sh.entries[j]
		next := e.next
		f(j, e)
		j = next
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
	if err := req.Check(); err != nil {
		return ClaimResult{}, fmt.Errorf("memory claim: %w", err)
	}
	now := s.now()
	k := memKey{req.Tenant, req.Key}
	sh, hash := s.shard(req.Tenant, req.Key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	j := sh.get(hash, k)
	if j != memNone {
		if sh.entries[j].removable(now) {
			sh.remove(j)
			j = memNone
		}
	}
	if j == memNone {
		if sh.n >= sh.max && !sh.makeRoom(now) {
			return ClaimResult{}, &fullError{retryAfter: sh.nextRoom(now)}
		}
		sh.fence++
		j = sh.put(hash) // may move the slab: index it after
		e := &sh.entries[j]
		e.key = k
		e.fingerprint = req.Fingerprint // Claim may keep it (see ClaimRequest)
		e.fence = sh.fence
		e.leaseUntil = now.Add(req.LeaseTTL)
		e.expiresAt = now.Add(req.TTL)
		if sh.minExp.IsZero() || e.expiresAt.Before(sh.minExp) {
			sh.minExp = e.expiresAt
		}
		return ClaimResult{Outcome: Acquired, Lease: Lease{req.Tenant, req.Key, e.fence}}, nil
	}
	e := &sh.entries[j]
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

// makeRoom removes removable (expired, unleased) entries. It reports
// whether there is room. Live entries are never removed: a shard full of
// them refuses new keys. The caller holds sh.mu.
func (sh *memShard) makeRoom(now time.Time) bool {
	// Drop removable entries from the front of the insertion order.
	for sh.head != memNone && sh.entries[sh.head].removable(now) {
		sh.remove(sh.head)
	}
	if sh.n < sh.max {
		sh.warm()
		return true
	}
	// Full of kept entries. If any may have become removable (TTLs and
	// leases differ), sweep the shard for them.
	if !now.Before(sh.minExp) {
		sh.sweep(now)
	}
	return sh.n < sh.max
}

// sweep removes every removable entry and recomputes minExp. The caller
// holds sh.mu.
func (sh *memShard) sweep(now time.Time) {
	sh.minExp = time.Time{}
	sh.each(func(j int32, e *memEntry) {
		if e.removable(now) {
			sh.remove(j)
			return
		}
		at := e.expiresAt // when e becomes removable if nothing changes
		if !e.completed && e.leaseUntil.After(at) {
			at = e.leaseUntil // Complete and Release lower minExp again
		}
		if sh.minExp.IsZero() || at.Before(sh.minExp) {
			sh.minExp = at
		}
	})
}

// nextRoom is how long a full shard waits before an entry may become
// removable, between 1 s and 1 min: the Retry-After of ErrStoreFull. The caller holds
// sh.mu, after makeRoom failed (so minExp is later than now).
func (sh *memShard) nextRoom(now time.Time) time.Duration {
	if sh.minExp.IsZero() {
		return time.Second
	}
	// A release frees room at any time: never ask for more than a minute.
	return min(max(sh.minExp.Sub(now), time.Second), time.Minute)
}

// fullError is the error of a claim refused by a full shard.
type fullError struct{ retryAfter time.Duration }

func (e *fullError) Error() string {
	return fmt.Sprintf("memory claim: %v (room in %v at the earliest)", ErrStoreFull, e.retryAfter)
}

func (e *fullError) Unwrap() error { return ErrStoreFull }

// RetryAfter returns how long until the shard may have room.
func (e *fullError) RetryAfter() time.Duration { return e.retryAfter }

// warm reads the oldest entry's cache lines and its table slot's, which
// the shard's next eviction reads and writes, so that they are loaded
// while this claim runs instead of stalling that one: a full store evicts
// once per claim, oldest first, when TTLs are equal, and the entry and slot are cold (inserted
// about max claims ago, at random positions). The sum keeps the reads.
func (sh *memShard) warm() {
	if sh.head == memNone {
		return
	}
	e := &sh.entries[sh.head]
	sh.warmed += len(e.key.tenant) + len(e.fingerprint) + len(e.steps) + int(sh.table[uint64(e.tag)>>(sh.shift-32)]&1)
}

// Reap removes every expired entry, except in-progress entries whose lease
// is still valid, and returns how many it removed.
func (s *MemoryStore) Reap(ctx context.Context) (int, error) {
	n := 0
	for i := range s.shards {
		if err := ctx.Err(); err != nil {
			return n, fmt.Errorf("memory reap: %w", err)
		}
		sh := &s.shards[i]
		now := s.now()
		sh.mu.Lock()
		sh.each(func(j int32, e *memEntry) {
			if e.removable(now) {
				sh.remove(j)
				n++
			}
		})
		sh.mu.Unlock()
	}
	return n, nil
}

// removable reports whether e may be removed at now: it has expired, and
// no attempt holds a valid lease on it (the PostgreSQL store's Reap rule). A
// completed entry has no lease.
func (e *memEntry) removable(now time.Time) bool {
	return !now.Before(e.expiresAt) && (e.completed || !now.Before(e.leaseUntil))
}

// current returns the index of l's entry if l still owns it, else
// memNone. The caller holds sh.mu.
func (sh *memShard) current(hash uint64, l Lease) int32 {
	j := sh.get(hash, memKey{l.Tenant, l.Key})
	if j != memNone && (sh.entries[j].completed || sh.entries[j].fence != l.Fence) {
		return memNone
	}
	return j
}

// lowerMinExp keeps minExp a bound when an entry's lease ends early
// (Complete, Release): the entry becomes removable at its expiry, which
// may precede minExp if the last sweep counted its lease. The caller holds
// sh.mu.
func (sh *memShard) lowerMinExp(exp time.Time) {
	if exp.Before(sh.minExp) {
		sh.minExp = exp
	}
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
	j := sh.current(hash, l)
	if j == memNone {
		return nil
	}
	if e := &sh.entries[j]; len(e.steps) > 0 {
		e.leaseUntil = time.Time{} // keep the recovery points; end the lease
		sh.lowerMinExp(e.expiresAt)
		return nil
	}
	sh.remove(j)
	return nil
}

// SaveStep implements Store.
func (s *MemoryStore) SaveStep(ctx context.Context, l Lease, step string, result json.RawMessage) error {
	sh, hash := s.shard(l.Tenant, l.Key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	j := sh.current(hash, l)
	if j == memNone {
		return fmt.Errorf("memory save step %q: %w", step, ErrLeaseLost)
	}
	e := &sh.entries[j]
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
	j := sh.get(hash, memKey{tenant, key})
	if j == memNone || !now.Before(sh.entries[j].expiresAt) {
		return nil, fmt.Errorf("memory lookup: %w", ErrNotFound)
	}
	e := &sh.entries[j]
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
	j := sh.current(hash, w.l)
	if j == memNone {
		w.onCommit = nil
		return fmt.Errorf("memory complete: %w", ErrLeaseLost)
	}
	e := &sh.entries[j] // OnCommit functions cannot add to this shard: it is locked
	e.completed = true
	e.resp = resp // Work.Complete takes ownership; reads return copies
	e.leaseUntil = time.Time{}
	sh.lowerMinExp(e.expiresAt)
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
