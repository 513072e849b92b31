package main

import (
	"context"
	"errors"
	"io"
	"math"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

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

// /metrics, scraped and parsed with the Prometheus text parser, counts the
// middleware's outcomes (every outcome's series present, at 0 until seen),
// the store's latency, the receipts' deliveries and retry events, and
// reports the receipts breaker's state.
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
	m.observeRetry(context.Background(), retry.Event{Attempt: 1, Wait: time.Millisecond})
	m.observeRetry(context.Background(), retry.Event{Attempt: 1, GaveUp: true, Reason: retry.ReasonCircuitOpen})
	m.delivered(nil)
	m.delivered(errors.New("disk full"))

	resp, err := http.Get(d.base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain; version=0.0.4") {
		t.Fatalf("/metrics: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("/metrics does not parse: %v", err)
	}
	// value returns the value of the sample of family name whose labels are labels (name, value pairs).
	value := func(name string, typ dto.MetricType, labels ...string) float64 {
		t.Helper()
		f := families[name]
		if f == nil || f.GetType() != typ {
			t.Fatalf("family %s: %v, want a %v", name, f, typ)
		}
	next:
		for _, s := range f.GetMetric() {
			if len(s.GetLabel()) != len(labels)/2 {
				continue
			}
			for i, l := range s.GetLabel() {
				if l.GetName() != labels[2*i] || l.GetValue() != labels[2*i+1] {
					continue next
				}
			}
			switch typ {
			case dto.MetricType_COUNTER:
				return s.GetCounter().GetValue()
			case dto.MetricType_GAUGE:
				return s.GetGauge().GetValue()
			}
		}
		t.Fatalf("family %s has no sample %v", name, labels)
		return 0
	}
	for _, c := range []struct {
		outcome string
		want    float64
	}{{"executed", 1}, {"replayed", 1}, {"mismatch", 1}, {"bad_request", 1}, {"store_full", 0}, {"in_progress", 0}} {
		if got := value("idemdemo_requests_total", dto.MetricType_COUNTER, "outcome", c.outcome); got != c.want {
			t.Errorf("idemdemo_requests_total{outcome=%q} = %v, want %v", c.outcome, got, c.want)
		}
	}
	if n := len(families["idemdemo_requests_total"].GetMetric()); n != len(idempotency.EventOutcomes) {
		t.Errorf("idemdemo_requests_total has %d series, want one per outcome (%d)", n, len(idempotency.EventOutcomes))
	}
	h := families["idemdemo_store_duration_seconds"]
	if h.GetType() != dto.MetricType_HISTOGRAM || len(h.GetMetric()) != 1 {
		t.Fatalf("idemdemo_store_duration_seconds: %v, want one histogram", h)
	}
	hist := h.GetMetric()[0].GetHistogram()
	buckets := hist.GetBucket() // the parser gives the +Inf bucket too
	if hist.GetSampleCount() != 3 || hist.GetSampleSum() <= 0 || len(buckets) != len(storeBuckets)+1 {
		t.Fatalf("store histogram count %d sum %v with %d buckets; want the 3 requests that reached the store, %d buckets and +Inf",
			hist.GetSampleCount(), hist.GetSampleSum(), len(buckets), len(storeBuckets))
	}
	for i, b := range buckets {
		le := math.Inf(1)
		if i < len(storeBuckets) {
			le = storeBuckets[i]
		}
		if b.GetUpperBound() != le || (i > 0 && b.GetCumulativeCount() < buckets[i-1].GetCumulativeCount()) {
			t.Errorf("bucket %d: le %v count %d, want le %v, cumulative", i, b.GetUpperBound(), b.GetCumulativeCount(), le)
		}
	}
	if last := buckets[len(buckets)-1]; last.GetCumulativeCount() != 3 {
		t.Errorf("+Inf bucket %d, want 3", last.GetCumulativeCount())
	}
	for _, c := range []struct {
		name   string
		typ    dto.MetricType
		labels []string
		want   float64
	}{
		{"idemdemo_receipt_deliveries_total", dto.MetricType_COUNTER, []string{"result", "ok"}, 1},
		{"idemdemo_receipt_deliveries_total", dto.MetricType_COUNTER, []string{"result", "failed"}, 1},
		{"idemdemo_retry_events_total", dto.MetricType_COUNTER, []string{"event", "gave_up", "reason", "circuit_open"}, 1},
		{"idemdemo_retry_events_total", dto.MetricType_COUNTER, []string{"event", "retry", "reason", ""}, 1},
		{"idemdemo_breaker_state", dto.MetricType_GAUGE, []string{"breaker", "receipts", "state", "closed"}, 1},
		{"idemdemo_breaker_state", dto.MetricType_GAUGE, []string{"breaker", "receipts", "state", "open"}, 0},
		{"idemdemo_breaker_state", dto.MetricType_GAUGE, []string{"breaker", "receipts", "state", "half-open"}, 0},
	} {
		if got := value(c.name, c.typ, c.labels...); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
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
