package idemotel_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/idemlint/idemlint/runtime/idemotel"
	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/retry"
)

// sdk is an in-memory OpenTelemetry SDK: spans end in an exporter, metrics are read on demand.
type sdk struct {
	spans  *tracetest.InMemoryExporter
	tp     *sdktrace.TracerProvider
	reader *sdkmetric.ManualReader
	mp     *sdkmetric.MeterProvider
}

func newSDK(t *testing.T) *sdk {
	s := &sdk{spans: tracetest.NewInMemoryExporter(), reader: sdkmetric.NewManualReader()}
	s.tp = sdktrace.NewTracerProvider(sdktrace.WithSyncer(s.spans))
	s.mp = sdkmetric.NewMeterProvider(sdkmetric.WithReader(s.reader))
	t.Cleanup(func() {
		s.tp.Shutdown(context.Background())
		s.mp.Shutdown(context.Background())
	})
	return s
}

// metrics collects the metrics of idemotel's scope by name.
func (s *sdk) metrics(t *testing.T) map[string]metricdata.Aggregation {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := s.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	got := map[string]metricdata.Aggregation{}
	for _, sm := range rm.ScopeMetrics {
		if sm.Scope.Name != idemotel.ScopeName {
			continue
		}
		for _, m := range sm.Metrics {
			got[m.Name] = m.Data
		}
	}
	return got
}

// sum returns the int64 sum's value at the point with exactly attrs, and whether there is one.
func sum(t *testing.T, a metricdata.Aggregation, attrs ...attribute.KeyValue) (int64, bool) {
	t.Helper()
	s, ok := a.(metricdata.Sum[int64])
	if !ok {
		t.Fatalf("aggregation %T, want an int64 sum", a)
	}
	want := attribute.NewSet(attrs...)
	for _, p := range s.DataPoints {
		if p.Attributes.Equals(&want) {
			return p.Value, true
		}
	}
	return 0, false
}

func attrsOf(kvs []attribute.KeyValue) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range kvs {
		m[kv.Key] = kv.Value
	}
	return m
}

// A run with two retries and a give-up: two retry events and a give-up event on the caller's span, and
// the counters, the reason and the waits in the metrics.
func TestRetryTwoRetriesThenGiveUp(t *testing.T) {
	s := newSDK(t)
	obs, err := idemotel.NewRetry(idemotel.WithMeterProvider(s.mp), idemotel.WithName("receipts"), idemotel.WithHTTP())
	if err != nil {
		t.Fatal(err)
	}
	var waits []time.Duration
	p := retry.Policy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: 4 * time.Millisecond, Deadline: 5 * time.Second,
		Observe: obs.Observe, OnRetry: func(_ int, _ error, w time.Duration) { waits = append(waits, w) }}
	ctx, span := s.tp.Tracer("test").Start(context.Background(), "deliver")
	errDown := errors.New("connection refused")
	err = retry.Do(ctx, p, func(context.Context) error { return errDown })
	span.End()
	var re *retry.Error
	if !errors.As(err, &re) || re.Reason != retry.ReasonExhausted || re.Attempts != 3 || len(waits) != 2 {
		t.Fatalf("Do = %v (%d waits); want exhausted after 3 attempts, 2 waits", err, len(waits))
	}

	spans := s.spans.GetSpans()
	if len(spans) != 1 {
		t.Fatalf("%d spans, want 1", len(spans))
	}
	events := spans[0].Events
	if len(events) != 3 {
		t.Fatalf("events %+v, want 2 retries and a give-up", events)
	}
	for i, e := range events[:2] {
		a := attrsOf(e.Attributes)
		if e.Name != idemotel.EventRetry || a[idemotel.AttrAttempt].AsInt64() != int64(i+1) ||
			a[idemotel.AttrWait].AsFloat64() != waits[i].Seconds() || a[idemotel.AttrResendCount].AsInt64() != int64(i+1) ||
			a[idemotel.AttrPolicy].AsString() != "receipts" || a[idemotel.AttrErrorType].AsString() != "*errors.errorString" {
			t.Errorf("event %d = %s %v; want a retry of attempt %d waiting %v", i, e.Name, a, i+1, waits[i])
		}
	}
	if g, a := events[2], attrsOf(events[2].Attributes); g.Name != idemotel.EventGiveUp || a[idemotel.AttrAttempt].AsInt64() != 3 ||
		a[idemotel.AttrReason].AsString() != "attempts_exhausted" {
		t.Errorf("last event = %s %v; want the give-up of attempt 3, attempts_exhausted", g.Name, a)
	}

	m := s.metrics(t)
	policy := idemotel.AttrPolicy.String("receipts")
	if n, _ := sum(t, m[idemotel.MetricRetries], policy); n != 2 {
		t.Errorf("%s = %d, want 2", idemotel.MetricRetries, n)
	}
	if n, _ := sum(t, m[idemotel.MetricGiveUps], policy, idemotel.AttrReason.String("attempts_exhausted")); n != 1 {
		t.Errorf("%s{attempts_exhausted} = %d, want 1", idemotel.MetricGiveUps, n)
	}
	h, ok := m[idemotel.MetricWait].(metricdata.Histogram[float64])
	if !ok || len(h.DataPoints) != 1 {
		t.Fatalf("%s = %#v, want one histogram point", idemotel.MetricWait, m[idemotel.MetricWait])
	}
	if p := h.DataPoints[0]; p.Count != 2 || p.Sum != waits[0].Seconds()+waits[1].Seconds() {
		t.Errorf("%s count %d sum %v; want 2 waits summing %v", idemotel.MetricWait, p.Count, p.Sum, waits[0]+waits[1])
	}
}

// A retried HTTP status is on the metrics and the events as http.response.status_code.
func TestRetryStatusCode(t *testing.T) {
	s := newSDK(t)
	obs, err := idemotel.NewRetry(idemotel.WithMeterProvider(s.mp))
	if err != nil {
		t.Fatal(err)
	}
	ctx, span := s.tp.Tracer("test").Start(context.Background(), "call")
	obs.Observe(ctx, retry.Event{Attempt: 1, Err: &retry.StatusError{StatusCode: 503}, Wait: time.Millisecond})
	span.End()
	if n, _ := sum(t, s.metrics(t)[idemotel.MetricRetries], idemotel.AttrStatusCode.Int(503)); n != 1 {
		t.Errorf("%s{503} = %d, want 1", idemotel.MetricRetries, n)
	}
	if a := attrsOf(s.spans.GetSpans()[0].Events[0].Attributes); a[idemotel.AttrStatusCode].AsInt64() != 503 {
		t.Errorf("event attributes %v, want status 503", a)
	}
}

// A keyed request and its replay: an event on each request's span with the outcome and the same key hash,
// and the outcomes and store latency in the metrics.
func TestIdempotencyReplay(t *testing.T) {
	s := newSDK(t)
	obs, err := idemotel.NewIdempotency(idemotel.WithMeterProvider(s.mp))
	if err != nil {
		t.Fatal(err)
	}
	runs := 0
	h := idempotency.Middleware(idempotency.NewMemoryStore(), idempotency.WithObserver(obs.Observe))(
		http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			runs++
			w.WriteHeader(http.StatusCreated)
			w.Write([]byte(`{"id":1}`))
		}))
	tracer := s.tp.Tracer("test")
	key := idempotency.NewKey()
	for range 2 {
		r := httptest.NewRequest(http.MethodPost, "/payments", strings.NewReader(`{"amount":1}`))
		r.Header.Set("Idempotency-Key", key)
		ctx, span := tracer.Start(r.Context(), "POST /payments")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r.WithContext(ctx))
		span.End()
		if w.Code != http.StatusCreated {
			t.Fatalf("status %d", w.Code)
		}
	}
	if runs != 1 {
		t.Fatalf("handler ran %d times, want 1", runs)
	}

	spans := s.spans.GetSpans()
	if len(spans) != 2 {
		t.Fatalf("%d spans, want 2", len(spans))
	}
	wantHash := idempotency.KeyHash("", key)
	for i, want := range []string{"executed", "replayed"} {
		ev := spans[i].Events
		if len(ev) != 1 {
			t.Fatalf("span %d events %+v, want 1", i, ev)
		}
		a := attrsOf(ev[0].Attributes)
		if ev[0].Name != idemotel.EventRequest || a[idemotel.AttrOutcome].AsString() != want ||
			a[idemotel.AttrStatusCode].AsInt64() != 201 || a[idemotel.AttrKeyHash].AsString() != wantHash ||
			a[idemotel.AttrStoreDuration].AsFloat64() <= 0 {
			t.Errorf("span %d event %s %v; want %s, 201, key hash %s, a store time", i, ev[0].Name, a, want, wantHash)
		}
	}

	m := s.metrics(t)
	for _, o := range []string{"executed", "replayed"} {
		if n, _ := sum(t, m[idemotel.MetricRequests], idemotel.AttrOutcome.String(o), idemotel.AttrStatusCode.Int(201)); n != 1 {
			t.Errorf("%s{%s,201} = %d, want 1", idemotel.MetricRequests, o, n)
		}
	}
	hist, ok := m[idemotel.MetricStoreDuration].(metricdata.Histogram[float64])
	if !ok || len(hist.DataPoints) != 2 {
		t.Fatalf("%s = %#v, want a point per outcome", idemotel.MetricStoreDuration, m[idemotel.MetricStoreDuration])
	}
	for _, p := range hist.DataPoints {
		if p.Count != 1 || p.Sum <= 0 {
			t.Errorf("%s point %v: count %d sum %v, want one positive duration", idemotel.MetricStoreDuration,
				p.Attributes.ToSlice(), p.Count, p.Sum)
		}
	}
}

// GRPCCalls records A96's per-call histograms under grpc.method (without the leading slash) and grpc.target.
func TestGRPCCalls(t *testing.T) {
	s := newSDK(t)
	calls, err := idemotel.NewGRPCCalls(idemotel.WithMeterProvider(s.mp))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	calls.Record(ctx, "/payments.v1.Payments/Create", "dns:///payments:443", 2, 300*time.Millisecond)
	calls.Record(ctx, "/payments.v1.Payments/Create", "dns:///payments:443", 0, 0)
	m := s.metrics(t)
	want := attribute.NewSet(idemotel.AttrGRPCMethod.String("payments.v1.Payments/Create"),
		idemotel.AttrGRPCTarget.String("dns:///payments:443"))
	r, ok := m[idemotel.MetricGRPCRetries].(metricdata.Histogram[int64])
	if !ok || len(r.DataPoints) != 1 || !r.DataPoints[0].Attributes.Equals(&want) || r.DataPoints[0].Count != 2 ||
		r.DataPoints[0].Sum != 2 {
		t.Errorf("%s = %#v; want 2 calls, 2 retries in all, under %v", idemotel.MetricGRPCRetries, m[idemotel.MetricGRPCRetries], want.ToSlice())
	}
	d, ok := m[idemotel.MetricGRPCRetryDelay].(metricdata.Histogram[float64])
	if !ok || len(d.DataPoints) != 1 || d.DataPoints[0].Count != 2 || d.DataPoints[0].Sum != 0.3 {
		t.Errorf("%s = %#v; want 2 calls, 0.3s in all", idemotel.MetricGRPCRetryDelay, m[idemotel.MetricGRPCRetryDelay])
	}
}
