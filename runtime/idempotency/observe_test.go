package idempotency_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"

	"strings"
	"sync"
	"testing"
	"time"

	. "github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/idempotency/storetest"
	"github.com/idemlint/idemlint/runtime/internal/reqtest"
)

// The observer sees every outcome of the middleware once, with the scope,
// the key's hash (never the key), the status and the store error.
func TestObserverSeesEachOutcome(t *testing.T) {
	var mu sync.Mutex
	var got []Event
	obs := func(_ context.Context, e Event) {
		mu.Lock()
		got = append(got, e)
		mu.Unlock()
	}
	b := newMemoryBackend(t)
	h := Middleware(b.Store, WithScope(storetest.TenantScope), WithObserver(obs))(storetest.PaymentHandler(b, 0))
	key := NewKey()
	reqtest.Do(t, h, "POST", key, `{"amount":1}`, "X-Account", "a")      // executed
	reqtest.Do(t, h, "POST", key, `{"amount":1}`, "X-Account", "a")      // replayed
	reqtest.Do(t, h, "POST", key, `{"amount":2}`, "X-Account", "a")      // mismatch
	reqtest.Do(t, h, "POST", "", `{"amount":1}`)                         // missing key
	reqtest.Do(t, h, "POST", NewKey(), `{"amount":0}`, "X-Account", "a") // 400 from the handler: stored
	reqtest.Do(t, h, "GET", key, ``)                                     // passes through: no event
	down := Middleware(failingStore{}, WithObserver(obs))(storetest.PaymentHandler(b, 0))
	reqtest.Do(t, down, "POST", key, `{"amount":1}`)
	want := []struct {
		o      EventOutcome
		status int
	}{{OutcomeExecuted, 201}, {OutcomeReplayed, 201}, {OutcomeMismatch, 422}, {OutcomeBadRequest, 400},
		{OutcomeExecuted, 400}, {OutcomeStoreUnavailable, 503}}
	if len(got) != len(want) {
		t.Fatalf("%d events, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		e := got[i]
		if e.Outcome != w.o || e.Status != w.status || e.Duration <= 0 {
			t.Errorf("event %d = %v %d (%v), want %v %d", i, e.Outcome, e.Status, e.Duration, w.o, w.status)
		}
	}
	if e := got[0]; e.Scope != "a" || e.KeyHash != KeyHash("a", key) || len(e.KeyHash) != 16 || strings.Contains(e.KeyHash, key) || e.StoreDuration <= 0 {
		t.Fatalf("first event = %+v", e)
	}
	if e := got[5]; e.Err == nil || e.Outcome.String() != "store_unavailable" {
		t.Fatalf("store event = %+v, want its error", e)
	}
}

// SlogObserver logs store outcomes at Warn with their error, others at
// Debug, and never the key.
func TestSlogObserver(t *testing.T) {
	var buf bytes.Buffer
	obs := SlogObserver(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelWarn})))
	obs(context.Background(), Event{Outcome: OutcomeReplayed, Scope: "a", KeyHash: "00", Status: 201})
	if buf.Len() != 0 {
		t.Fatalf("replay logged at Warn: %s", buf.String())
	}
	obs(context.Background(), Event{Outcome: OutcomeStoreFull, Scope: "a", KeyHash: "abcd", Status: 503,
		Duration: time.Millisecond, Err: errors.New("store full")})
	for _, want := range []string{"level=WARN", "outcome=store_full", "scope=a", "key_hash=abcd", "status=503", `error="store full"`} {
		if !strings.Contains(buf.String(), want) {
			t.Fatalf("log %q lacks %q", buf.String(), want)
		}
	}
}

// Every outcome has a distinct name.
func TestEventOutcomeNames(t *testing.T) {
	seen := map[string]bool{}
	for _, o := range EventOutcomes {
		n := o.String()
		if n == "unknown" || seen[n] {
			t.Fatalf("outcome %d named %q", o, n)
		}
		seen[n] = true
	}
}
