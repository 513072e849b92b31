package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/retry"
)

func get(t *testing.T, url string) (int, http.Header, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// /metrics counts the middleware's outcomes and the store's latency in the
// Prometheus text format, and reports the receipts breaker's state.
func TestDemoMetrics(t *testing.T) {
	br := retry.NewBreaker(retry.BreakerConfig{Name: "receipts"})
	m := newMetrics(br)
	d := newDemo(t, serverConfig{store: idempotency.NewMemoryStore(), payments: newMemoryPayments(), lease: time.Minute,
		metrics: m}, idempotency.NewMemoryOutbox(), newLogReceipts(io.Discard), &syncBuffer{})
	key := idempotency.NewKey()
	for _, body := range []string{`{"amount":1,"currency":"EUR"}`, `{"amount":1,"currency":"EUR"}`, `{"amount":2,"currency":"EUR"}`} {
		post(t, http.DefaultClient, d.base, key, body)
	}
	post(t, http.DefaultClient, d.base, "", `{}`)
	m.observeRetry(context.Background(), retry.Event{Attempt: 1, GaveUp: true, Reason: retry.ReasonCircuitOpen})
	m.delivered(nil)
	m.delivered(errors.New("disk full"))
	status, h, body := get(t, d.base+"/metrics")
	if status != 200 || !strings.HasPrefix(h.Get("Content-Type"), "text/plain; version=0.0.4") {
		t.Fatalf("/metrics: %d %q", status, h.Get("Content-Type"))
	}
	for _, want := range []string{
		"# TYPE idemdemo_requests_total counter\n",
		`idemdemo_requests_total{outcome="executed"} 1` + "\n",
		`idemdemo_requests_total{outcome="replayed"} 1` + "\n",
		`idemdemo_requests_total{outcome="mismatch"} 1` + "\n",
		`idemdemo_requests_total{outcome="bad_request"} 1` + "\n",
		`idemdemo_requests_total{outcome="store_full"} 0` + "\n",
		"# TYPE idemdemo_store_duration_seconds histogram\n",
		`idemdemo_store_duration_seconds_bucket{le="+Inf"} 3` + "\n",
		"idemdemo_store_duration_seconds_count 3\n",
		`idemdemo_receipt_deliveries_total{result="ok"} 1` + "\n",
		`idemdemo_receipt_deliveries_total{result="failed"} 1` + "\n",
		`idemdemo_retry_events_total{event="gave_up",reason="circuit open"} 1` + "\n",
		`idemdemo_breaker_state{breaker="receipts",state="closed"} 1` + "\n",
		`idemdemo_breaker_state{breaker="receipts",state="open"} 0` + "\n",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q:\n%s", want, body)
		}
	}
	// Every sample line is a valid exposition line, and the buckets are cumulative.
	sample := regexp.MustCompile(`^[a-z_]+(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? [0-9.e+-]+$`)
	last := int64(-1)
	for _, l := range strings.Split(strings.TrimSpace(body), "\n") {
		if strings.HasPrefix(l, "#") {
			continue
		}
		if !sample.MatchString(l) {
			t.Errorf("bad sample line %q", l)
		}
		if strings.HasPrefix(l, "idemdemo_store_duration_seconds_bucket") {
			var n int64
			if _, err := fmt.Sscan(l[strings.LastIndexByte(l, ' ')+1:], &n); err != nil || n < last {
				t.Errorf("bucket %q not cumulative (previous %d)", l, last)
			}
			last = n
		}
	}
}

// /healthz answers while the process runs; /readyz follows the store.
func TestDemoHealth(t *testing.T) {
	var down atomic.Bool
	d := newDemo(t, serverConfig{store: idempotency.NewMemoryStore(), payments: newMemoryPayments(), lease: time.Minute,
		ready: func(context.Context) error {
			if down.Load() {
				return errors.New("connection refused")
			}
			return nil
		}}, idempotency.NewMemoryOutbox(), newLogReceipts(io.Discard), &syncBuffer{})
	if status, _, body := get(t, d.base+"/healthz"); status != 200 || !strings.Contains(body, "ok") {
		t.Fatalf("/healthz: %d %s", status, body)
	}
	if status, _, body := get(t, d.base+"/readyz"); status != 200 || !strings.Contains(body, "ready") {
		t.Fatalf("/readyz: %d %s", status, body)
	}
	down.Store(true)
	status, h, body := get(t, d.base+"/readyz")
	if status != 503 || h.Get("Content-Type") != "application/problem+json" || h.Get("Retry-After") == "" ||
		!strings.Contains(body, problemUnavailable) {
		t.Fatalf("/readyz with the store down: %d %q %s", status, h.Get("Content-Type"), body)
	}
	if status, _, _ := get(t, d.base+"/healthz"); status != 200 {
		t.Fatalf("/healthz with the store down: %d, want 200 (the process is alive)", status)
	}
}
