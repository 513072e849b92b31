package idempotency_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"

	. "github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/idempotency/storetest"
	"github.com/idemlint/idemlint/runtime/internal/reqtest"
)

// The conformance suites on the memory store, inbox and outbox; the
// PostgreSQL and Redis modules run them on theirs.

func newMemoryBackend(*testing.T) *storetest.Backend {
	return &storetest.Backend{Name: "memory", Store: NewMemoryStore()}
}

func TestMiddlewareMemory(t *testing.T) { storetest.Middleware(t, newMemoryBackend) }

func TestInboxMemory(t *testing.T) {
	storetest.Inbox(t, func(*testing.T) (*Inbox, *sql.DB) { return NewMemoryInbox(), nil })
}

func TestOutboxMemory(t *testing.T) {
	storetest.Outbox(t, func(*testing.T) (*Outbox, Store, *sql.DB) { return NewMemoryOutbox(), NewMemoryStore(), nil })
}

func TestKeyValidation(t *testing.T) {
	b := newMemoryBackend(t)
	h := Middleware(b.Store, WithMaxBodyBytes(64))(storetest.PaymentHandler(b, 0))
	reqtest.WantProblem(t, reqtest.Do(t, h, "POST", "", `{"amount":1}`), 400, ProblemKeyMissing)
	// "a, b" is what two header lines become once an intermediary joins them.
	for _, k := range []string{`""`, "  ", strings.Repeat("k", 256), "caf\u00e9", "a\x01b", `"unterminated`, `"a";p=1`,
		"a, b", "a,b", `"a", "b"`} {
		r := httptest.NewRequest("POST", "/payments", strings.NewReader(`{"amount":1}`))
		r.Header["Idempotency-Key"] = []string{k}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		reqtest.WantProblem(t, reqtest.Answer{Status: w.Code, Header: w.Header(), Body: w.Body.String()}, 400, ProblemKeyInvalid)
	}
	// Two headers are ambiguous.
	r := httptest.NewRequest("POST", "/payments", strings.NewReader(`{"amount":1}`))
	r.Header["Idempotency-Key"] = []string{"a", "b"}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	reqtest.WantProblem(t, reqtest.Answer{Status: w.Code, Header: w.Header(), Body: w.Body.String()}, 400, ProblemKeyInvalid)
	// 255 characters is the limit, accepted.
	if a := reqtest.Do(t, h, "POST", strings.Repeat("k", 255), `{"amount":1}`); a.Status != 201 {
		t.Fatalf("255-character key: status %d", a.Status)
	}
	reqtest.WantProblem(t, reqtest.Do(t, h, "POST", NewKey(), `{"amount":1,"pad":"`+strings.Repeat("x", 64)+`"}`), 413, ProblemBodyTooLarge)
	// A body that fails mid-read.
	r = httptest.NewRequest("POST", "/payments", io.MultiReader(strings.NewReader(`{"am`), iotest.ErrReader(errors.New("reset"))))
	r.Header.Set("Idempotency-Key", NewKey())
	w = httptest.NewRecorder()
	h.ServeHTTP(w, r)
	reqtest.WantProblem(t, reqtest.Answer{Status: w.Code, Header: w.Header(), Body: w.Body.String()}, 400, ProblemBodyUnreadable)
	// GET passes through without a key; PATCH needs one.
	if a := reqtest.Do(t, h, "GET", "", ""); a.Status != 400 || a.Body != `{"title":"bad payment"}` {
		t.Fatalf("GET went through the middleware: %d %s", a.Status, a.Body)
	}
	reqtest.WantProblem(t, reqtest.Do(t, h, "PATCH", "", `{}`), 400, ProblemKeyMissing)
	if n := b.Calls.Load(); n != 2 {
		t.Fatalf("handler ran %d times, want 2 (valid key, GET)", n)
	}
}

// failingStore is a store whose every call fails, as when it is
// unreachable.
type failingStore struct{ Store }

var errDown = errors.New("connection refused")

func (failingStore) Claim(context.Context, ClaimRequest) (ClaimResult, error) {
	return ClaimResult{}, fmt.Errorf("claim: %w", errDown)
}

func TestStoreDown(t *testing.T) {
	check := func(t *testing.T, s Store) {
		var calls atomic.Int64
		var logged atomic.Int64
		h := Middleware(s, WithErrorHandler(func(*http.Request, error) { logged.Add(1) }))(
			http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1) }))
		a := reqtest.Do(t, h, "POST", NewKey(), `{"amount":1}`)
		reqtest.WantProblem(t, a, http.StatusServiceUnavailable, ProblemStoreUnavailable)
		if a.Header.Get("Retry-After") == "" {
			t.Fatalf("503 without Retry-After")
		}
		if calls.Load() != 0 {
			t.Fatalf("handler ran with the store down")
		}
		if logged.Load() != 1 {
			t.Fatalf("error handler called %d times, want 1", logged.Load())
		}
	}
	t.Run("memory", func(t *testing.T) { check(t, failingStore{NewMemoryStore()}) })
}

func TestTakeoverMemory(t *testing.T) {
	clock := reqtest.NewClock(time.Unix(1e9, 0))
	storetest.Takeover(t, func(*testing.T) (Store, func(time.Duration)) {
		return NewMemoryStore(WithClock(clock.Now)), clock.Add
	})
}
