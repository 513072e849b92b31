package idempotency

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/internal/reqtest"
)

// modelEntry is one key of memModel.
type modelEntry struct {
	tenant, key string
	fp          byte
	completed   bool
	steps       bool
	status      int
	fence       int64
	leaseUntil  time.Time
	expiresAt   time.Time
}

// memModel is a plain reference of the memory store's documented
// behaviour, one shard: entries in insertion order, linear search.
type memModel struct {
	max     int
	fence   int64
	entries []*modelEntry
}

func (m *memModel) find(tenant, key string) int {
	for i, e := range m.entries {
		if e.tenant == tenant && e.key == key {
			return i
		}
	}
	return -1
}

func (m *memModel) drop(i int) { m.entries = append(m.entries[:i], m.entries[i+1:]...) }

// removable reports whether e may be removed at now: it has expired, and
// no attempt holds a valid lease on it (PostgresStore.Reap's rule).
func (e *modelEntry) removable(now time.Time) bool {
	return !now.Before(e.expiresAt) && (e.completed || !now.Before(e.leaseUntil))
}

// dropRemovable removes every removable entry and returns how many.
func (m *memModel) dropRemovable(now time.Time) int {
	n := len(m.entries)
	live := m.entries[:0]
	for _, e := range m.entries {
		if !e.removable(now) {
			live = append(live, e)
		}
	}
	m.entries = live
	return n - len(live)
}

// makeRoom: removable entries at the front of the insertion order go
// first; then, still full, every removable entry. A live entry (completed
// within its TTL, or in progress) is never removed: a shard full of them
// refuses the claim. An in-progress entry with a valid lease stays, expired
// or not.
func (m *memModel) makeRoom(now time.Time) bool {
	for len(m.entries) > 0 && m.entries[0].removable(now) {
		m.drop(0)
	}
	if len(m.entries) < m.max {
		return true
	}
	m.dropRemovable(now)
	return len(m.entries) < m.max
}

func (m *memModel) claim(now time.Time, tenant, key string, fp byte, lease, ttl time.Duration) (ClaimResult, error) {
	i := m.find(tenant, key)
	if i >= 0 {
		if m.entries[i].removable(now) {
			m.drop(i)
			i = -1
		}
	}
	if i < 0 {
		if len(m.entries) >= m.max && !m.makeRoom(now) {
			return ClaimResult{}, ErrStoreFull
		}
		m.fence++
		m.entries = append(m.entries, &modelEntry{tenant: tenant, key: key, fp: fp, fence: m.fence,
			leaseUntil: now.Add(lease), expiresAt: now.Add(ttl)})
		return ClaimResult{Outcome: Acquired, Lease: Lease{tenant, key, m.fence}}, nil
	}
	e := m.entries[i]
	switch {
	case e.fp != fp:
		return ClaimResult{Outcome: Mismatch}, nil
	case e.completed:
		return ClaimResult{Outcome: Completed, Response: &Response{Status: e.status}}, nil
	case now.Before(e.leaseUntil):
		return ClaimResult{Outcome: InProgress, RetryAfter: e.leaseUntil.Sub(now)}, nil
	}
	m.fence++
	e.fence = m.fence
	e.leaseUntil = now.Add(lease)
	return ClaimResult{Outcome: TakenOver, Lease: Lease{tenant, key, e.fence}}, nil
}

// current returns the index of l's entry if l owns it, else -1.
func (m *memModel) current(l Lease) int {
	i := m.find(l.Tenant, l.Key)
	if i < 0 || m.entries[i].completed || m.entries[i].fence != l.Fence {
		return -1
	}
	return i
}

// checkShard verifies a shard's internal structure: every table slot is
// reachable from its home position and names a listed entry with its tag,
// the insertion list is consistent, and held plus free entries account for
// the slab.
func checkShard(t *testing.T, sh *memShard) {
	t.Helper()
	size := len(sh.table)
	if size&(size-1) != 0 || 64-int(sh.shift) != bitsLen(size) {
		t.Fatalf("table size %d, shift %d", size, sh.shift)
	}
	listed := map[int32]bool{}
	prev := int32(memNone)
	for j := sh.head; j != memNone; j = sh.entries[j].next {
		if listed[j] || len(listed) > sh.n {
			t.Fatalf("insertion list loops at %d", j)
		}
		if sh.entries[j].prev != prev {
			t.Fatalf("entry %d: prev %d, want %d", j, sh.entries[j].prev, prev)
		}
		listed[j] = true
		prev = j
	}
	if prev != sh.tail || len(listed) != sh.n || sh.n > sh.max {
		t.Fatalf("list of %d ending at %d; tail %d, n %d, max %d", len(listed), prev, sh.tail, sh.n, sh.max)
	}
	free := 0
	for j := sh.free; j != memNone; j = sh.entries[j].next {
		if listed[j] || free > len(sh.entries) {
			t.Fatalf("free list holds %d (listed %v) or loops", j, listed[j])
		}
		free++
	}
	if free+sh.n != len(sh.entries) {
		t.Fatalf("%d free + %d held != %d in the slab", free, sh.n, len(sh.entries))
	}
	slotted := map[int32]bool{}
	for i, v := range sh.table {
		if v == 0 {
			continue
		}
		j := int32(uint32(v)) - 1
		if !listed[j] || slotted[j] {
			t.Fatalf("slot %d names entry %d (listed %v, twice %v)", i, j, listed[j], slotted[j])
		}
		slotted[j] = true
		if sh.entries[j].tag != uint32(v>>32) {
			t.Fatalf("slot %d: tag %x, entry %d has %x", i, v>>32, j, sh.entries[j].tag)
		}
		for k := int(v >> 32 >> (sh.shift - 32)); k != i; k = (k + 1) % size {
			if sh.table[k] == 0 {
				t.Fatalf("slot %d unreachable: empty slot %d after its home", i, k)
			}
		}
	}
	if len(slotted) != sh.n {
		t.Fatalf("%d slots for %d entries", len(slotted), sh.n)
	}
}

func bitsLen(n int) int {
	b := 0
	for ; n > 1; n >>= 1 {
		b++
	}
	return b
}

func sameClaim(got, want ClaimResult) bool {
	if got.Outcome != want.Outcome || got.Lease != want.Lease || got.RetryAfter != want.RetryAfter {
		return false
	}
	return (got.Response == nil) == (want.Response == nil) && (got.Response == nil || got.Response.Status == want.Response.Status)
}

// The memory store behaves as a plain reference model under random
// claims, completions, releases, steps, lookups, clock moves and reaps,
// with normal hashes and with hashes forced to collide (few distinct
// values, so probe runs are long and wrap around the table), and its
// table, lists and slab stay consistent after every operation.
func TestMemoryMatchesModel(t *testing.T) {
	for _, c := range []struct {
		name   string
		shards int
		max    int
		mask   uint64
	}{
		{"hashed", 1, 16, ^uint64(0)},
		{"4-hashes", 1, 16, 3},
		{"1-hash", 1, 12, 0},
		{"shards", 4, 40, ^uint64(0)},
		{"shards-colliding", 3, 30, 7},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			clock := reqtest.NewClock(time.Unix(1e9, 0))
			s := NewMemoryStore(WithShards(c.shards), WithMaxEntries(c.max), WithClock(clock.Now))
			s.mask = c.mask
			models := make([]memModel, c.shards)
			for i := range models {
				models[i].max = (c.max + c.shards - 1) / c.shards
			}
			model := func(tenant, key string) *memModel {
				_, h := s.shard(tenant, key)
				return &models[h%uint64(c.shards)]
			}
			rng := rand.New(rand.NewPCG(1, uint64(len(c.name))))
			var leases []Lease
			pick := func() Lease { // mostly one of the latest, sometimes a stale one
				if rng.IntN(4) > 0 {
					return leases[len(leases)-1-rng.IntN(min(3, len(leases)))]
				}
				return leases[rng.IntN(len(leases))]
			}
			name := func() (string, string) {
				return []string{"", "a"}[rng.IntN(2)], fmt.Sprintf("k%d", rng.IntN(40))
			}
			for step := range 20000 {
				now := clock.Now()
				switch op := rng.IntN(100); {
				case op < 40:
					tenant, key := name()
					fp := byte(1 + rng.IntN(4)/3) // mostly 1
					lease := time.Duration(1+rng.IntN(5)) * time.Minute
					ttl := time.Duration(1+rng.IntN(12)) * time.Minute
					got, gerr := s.Claim(ctx, ClaimRequest{Tenant: tenant, Key: key, Fingerprint: []byte{fp}, LeaseTTL: lease, TTL: ttl})
					want, werr := model(tenant, key).claim(now, tenant, key, fp, lease, ttl)
					if !errors.Is(gerr, werr) || !sameClaim(got, want) {
						t.Fatalf("step %d: claim %q/%q = %+v, %v; want %+v, %v", step, tenant, key, got, gerr, want, werr)
					}
					if got.Outcome == Acquired || got.Outcome == TakenOver {
						leases = append(leases, got.Lease)
					}
				case op < 65 && len(leases) > 0:
					l := pick()
					m := model(l.Tenant, l.Key)
					w, _ := s.Begin(ctx, l)
					status := 200 + rng.IntN(10)
					ran := false
					w.(*memWork).addOnCommit(func() { ran = true })
					err := w.Complete(ctx, &Response{Status: status})
					i := m.current(l)
					if (i >= 0) != (err == nil) || (err != nil && !errors.Is(err, ErrLeaseLost)) || ran != (err == nil) {
						t.Fatalf("step %d: complete %+v = %v (on-commit ran %v); model owner %v", step, l, err, ran, i >= 0)
					}
					if i >= 0 {
						e := m.entries[i]
						e.completed, e.status, e.leaseUntil = true, status, time.Time{}
					}
				case op < 72 && len(leases) > 0:
					l := pick()
					m := model(l.Tenant, l.Key)
					if err := s.Release(ctx, l); err != nil {
						t.Fatal(err)
					}
					if i := m.current(l); i >= 0 {
						if m.entries[i].steps {
							m.entries[i].leaseUntil = time.Time{}
						} else {
							m.drop(i)
						}
					}
				case op < 78 && len(leases) > 0:
					l := pick()
					m := model(l.Tenant, l.Key)
					err := s.SaveStep(ctx, l, "s", []byte(`1`))
					i := m.current(l)
					if (i >= 0) != (err == nil) {
						t.Fatalf("step %d: save step %+v = %v; model owner %v", step, l, err, i >= 0)
					}
					if i >= 0 {
						m.entries[i].steps = true
					}
				case op < 92:
					tenant, key := name()
					m := model(tenant, key)
					rec, err := s.Lookup(ctx, tenant, key)
					i := m.find(tenant, key)
					if i < 0 || !now.Before(m.entries[i].expiresAt) {
						if !errors.Is(err, ErrNotFound) {
							t.Fatalf("step %d: lookup %q/%q = %+v, %v; want not found", step, tenant, key, rec, err)
						}
						break
					}
					e := m.entries[i]
					if err != nil || rec.Completed != e.completed || rec.Fence != e.fence || !rec.ExpiresAt.Equal(e.expiresAt) ||
						rec.Fingerprint[0] != e.fp || (len(rec.Steps) > 0) != e.steps {
						t.Fatalf("step %d: lookup %q/%q = %+v, %v; want %+v", step, tenant, key, rec, err, e)
					}
				case op < 99:
					clock.Add(time.Duration(rng.IntN(90)) * time.Second)
				default:
					n, err := s.Reap(ctx)
					want := 0
					for i := range models {
						want += models[i].dropRemovable(now)
					}
					if err != nil || n != want {
						t.Fatalf("step %d: reap = %d, %v; want %d", step, n, err, want)
					}
				}
				want := 0
				for i := range models {
					want += len(models[i].entries)
				}
				if s.Len() != want {
					t.Fatalf("step %d: Len = %d, want %d", step, s.Len(), want)
				}
				for i := range s.shards {
					checkShard(t, &s.shards[i])
				}
			}
		})
	}
}

// A shard bounded above its initial table grows the table (and the slab)
// while it fills, keeps every key findable, refuses new keys once full of
// live ones, and makes room from expired entries in insertion order.
func TestMemoryTableGrowth(t *testing.T) {
	for _, mask := range []uint64{^uint64(0), 0xff} {
		t.Run(fmt.Sprintf("mask-%x", mask), func(t *testing.T) {
			ctx := context.Background()
			const max = 10000
			clock := reqtest.NewClock(time.Unix(1e9, 0))
			s := NewMemoryStore(WithShards(1), WithMaxEntries(max), WithClock(clock.Now))
			s.mask = mask
			sh := &s.shards[0]
			initial := len(sh.table)
			key := func(i int) string { return fmt.Sprintf("key-%d", i) }
			claim := func(i int) error {
				r, err := s.Claim(ctx, ClaimRequest{Key: key(i), Fingerprint: []byte{1}, LeaseTTL: time.Minute, TTL: time.Hour})
				if err != nil {
					return err
				}
				if r.Outcome != Acquired {
					t.Fatalf("claim %d = %v", i, r.Outcome)
				}
				w, _ := s.Begin(ctx, r.Lease)
				if err := w.Complete(ctx, &Response{Status: 200}); err != nil {
					t.Fatal(err)
				}
				return nil
			}
			for i := range max / 2 {
				if err := claim(i); err != nil {
					t.Fatalf("claim %d: %v", i, err)
				}
			}
			clock.Add(30 * time.Minute)
			for i := max / 2; i < max; i++ {
				if err := claim(i); err != nil {
					t.Fatalf("claim %d: %v", i, err)
				}
			}
			if err := claim(max); !errors.Is(err, ErrStoreFull) {
				t.Fatalf("claim past the bound: %v, want ErrStoreFull", err)
			}
			clock.Add(31 * time.Minute) // the first half has expired
			for i := max + 1; i < max+1+max/2; i++ {
				if err := claim(i); err != nil {
					t.Fatalf("claim %d after the first half expired: %v", i, err)
				}
			}
			if len(sh.table) <= initial || s.Len() != max || len(sh.entries) != max {
				t.Fatalf("table %d slots (initially %d), Len %d, slab %d; want a grown table, %d entries", len(sh.table), initial, s.Len(), len(sh.entries), max)
			}
			checkShard(t, sh)
			for i := max / 2; i < max+1+max/2; i++ {
				_, err := s.Lookup(ctx, "", key(i))
				if absent := i == max; absent != errors.Is(err, ErrNotFound) {
					t.Fatalf("key %d: lookup %v; want found: %v", i, err, !absent)
				}
			}
		})
	}
}
