package idempotency

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/internal/reqtest"
)

// An in-progress entry whose lease outlives its TTL is kept while the
// lease is valid, as Claim and PostgresStore.Reap keep it: a full shard
// removes other expired entries instead (or fails with ErrStoreFull), Reap
// leaves it, and its owner completes with its fence. Once the lease has
// run out, room-making and Reap remove it and the owner's completion fails.
func TestMemoryKeepsLeasedExpiredEntry(t *testing.T) {
	ctx := context.Background()
	const lease, ttl = 10 * time.Minute, time.Minute
	setup := func(t *testing.T, max int) (*MemoryStore, *reqtest.Clock) {
		clock := reqtest.NewClock(time.Unix(1e9, 0))
		return NewMemoryStore(WithShards(1), WithMaxEntries(max), WithClock(clock.Now)), clock
	}
	claim := func(t *testing.T, s *MemoryStore, key string, lease, ttl time.Duration) Lease {
		t.Helper()
		r, err := s.Claim(ctx, claimReq(key, 1, lease, ttl))
		if err != nil || r.Outcome != Acquired {
			t.Fatalf("claim %s = %v, %v; want acquired", key, r.Outcome, err)
		}
		return r.Lease
	}
	complete := func(t *testing.T, s *MemoryStore, l Lease) error {
		t.Helper()
		w, _ := s.Begin(ctx, l)
		ran := false
		w.(*memWork).addOnCommit(func() { ran = true })
		err := w.Complete(ctx, &Response{Status: 201})
		if ran != (err == nil) {
			t.Fatalf("complete %s = %v, on-commit ran %v", l.Key, err, ran)
		}
		return err
	}
	inProgress := func(t *testing.T, s *MemoryStore, key string, retryAfter time.Duration) {
		t.Helper()
		r, err := s.Claim(ctx, claimReq(key, 1, lease, ttl))
		if err != nil || r.Outcome != InProgress || r.RetryAfter != retryAfter {
			t.Fatalf("claim %s again = %v (retry after %v), %v; want in progress, retry after %v", key, r.Outcome, r.RetryAfter, err, retryAfter)
		}
	}

	t.Run("eviction", func(t *testing.T) {
		s, clock := setup(t, 3)
		held := claim(t, s, "held", lease, ttl) // the oldest entry
		for _, k := range []string{"a", "b"} {
			if err := complete(t, s, claim(t, s, k, time.Minute, ttl)); err != nil {
				t.Fatal(err)
			}
		}
		clock.Add(2 * time.Minute) // past the TTLs, within held's lease
		claim(t, s, "c", time.Minute, time.Hour)
		claim(t, s, "d", time.Minute, time.Hour)
		if _, err := s.Lookup(ctx, "t", "a"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("lookup a = %v; want a removed, held kept", err)
		}
		inProgress(t, s, "held", lease-2*time.Minute)
		if r, err := s.Claim(ctx, claimReq("e", 1, time.Minute, time.Hour)); !errors.Is(err, ErrStoreFull) {
			t.Fatalf("claim e = %v, %v; want the store full of in-progress entries", r.Outcome, err)
		}
		if err := complete(t, s, held); err != nil {
			t.Fatalf("held's owner completes: %v", err)
		}
		if s.Len() != 3 {
			t.Fatalf("Len = %d, want 3", s.Len())
		}
	})

	t.Run("eviction-after-lease", func(t *testing.T) {
		s, clock := setup(t, 2)
		held := claim(t, s, "held", lease, ttl)
		claim(t, s, "a", time.Hour, time.Hour)
		clock.Add(lease) // the lease has run out
		claim(t, s, "b", time.Minute, time.Hour)
		if err := complete(t, s, held); !errors.Is(err, ErrLeaseLost) {
			t.Fatalf("held's owner completes after eviction: %v; want lease lost", err)
		}
	})

	// held is not the oldest entry: a full shard sweeps for removable
	// entries, keeps held, and must sweep again once held completes.
	t.Run("sweep", func(t *testing.T) {
		s, clock := setup(t, 4)
		for _, c := range []struct {
			k   string
			ttl time.Duration
		}{{"old1", time.Minute}, {"old2", time.Hour}} {
			if err := complete(t, s, claim(t, s, c.k, time.Minute, c.ttl)); err != nil {
				t.Fatal(err)
			}
		}
		held := claim(t, s, "held", lease, ttl)
		claim(t, s, "x", time.Hour, time.Hour)
		clock.Add(2 * time.Minute)
		claim(t, s, "y", time.Hour, time.Hour) // removes old1 (expired), keeps held
		inProgress(t, s, "held", lease-2*time.Minute)
		if err := complete(t, s, held); err != nil {
			t.Fatalf("held's owner completes: %v", err)
		}
		claim(t, s, "z", time.Hour, time.Hour) // held is expired and completed: it goes, not old2
		r, err := s.Claim(ctx, claimReq("old2", 1, time.Minute, time.Hour))
		if err != nil || r.Outcome != Completed {
			t.Fatalf("claim old2 = %v, %v; want its completed entry kept", r.Outcome, err)
		}
	})

	t.Run("reap", func(t *testing.T) {
		s, clock := setup(t, 10)
		held := claim(t, s, "held", lease, ttl)
		gone := claim(t, s, "gone", ttl, ttl)
		clock.Add(2 * time.Minute)
		if n, err := s.Reap(ctx); err != nil || n != 1 {
			t.Fatalf("reap = %d, %v; want 1 (the entry whose lease ran out)", n, err)
		}
		if err := complete(t, s, gone); !errors.Is(err, ErrLeaseLost) {
			t.Fatalf("reaped owner completes: %v; want lease lost", err)
		}
		inProgress(t, s, "held", lease-2*time.Minute)
		if err := complete(t, s, held); err != nil {
			t.Fatalf("held's owner completes: %v", err)
		}
		if n, err := s.Reap(ctx); err != nil || n != 1 || s.Len() != 0 {
			t.Fatalf("reap = %d, %v, Len %d; want held removed once completed", n, err, s.Len())
		}

		held = claim(t, s, "held2", lease, ttl)
		clock.Add(lease)
		if n, err := s.Reap(ctx); err != nil || n != 1 {
			t.Fatalf("reap after the lease = %d, %v; want 1", n, err)
		}
		if err := complete(t, s, held); !errors.Is(err, ErrLeaseLost) {
			t.Fatalf("held2's owner completes after reap: %v; want lease lost", err)
		}
	})
}
