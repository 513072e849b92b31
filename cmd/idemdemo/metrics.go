package main

import (
	"context"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/retry"
)

// storeBuckets are the upper bounds, in seconds, of the store-latency
// histogram.
var storeBuckets = []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5}

// metrics counts what /metrics reports, through prometheus/client_golang
// in a registry of its own (the names are listed in docs/runtime-observability.md).
type metrics struct {
	reg        *prometheus.Registry
	requests   *prometheus.CounterVec // by outcome
	store      prometheus.Histogram
	deliveries *prometheus.CounterVec // by result: ok, failed
	retries    *prometheus.CounterVec // by event and reason
	handler    http.Handler
}

func newMetrics(b *retry.Breaker) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "idemdemo_requests_total",
			Help: "Requests handled by the idempotency middleware, by outcome."}, []string{"outcome"}),
		store: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "idemdemo_store_duration_seconds",
			Help:    "Time spent in the idempotency store per request (claim and completion).",
			Buckets: storeBuckets}),
		deliveries: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "idemdemo_receipt_deliveries_total",
			Help: "Receipt delivery attempts by the outbox relay, by result."}, []string{"result"}),
		retries: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "idemdemo_retry_events_total",
			Help: "Retry events of the receipts relay (retry.Policy.Observe), by event and reason."}, []string{"event", "reason"}),
	}
	m.reg.MustRegister(m.requests, m.store, m.deliveries, m.retries)
	// Every series from the start, at 0, so that rates and alerts see them before the first event.
	for _, o := range idempotency.EventOutcomes {
		m.requests.WithLabelValues(o.String())
	}
	m.deliveries.WithLabelValues("ok")
	m.deliveries.WithLabelValues("failed")
	if b != nil {
		for _, s := range []retry.BreakerState{retry.BreakerClosed, retry.BreakerOpen, retry.BreakerHalfOpen} {
			m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "idemdemo_breaker_state",
				Help:        "State of the receipts relay's circuit breaker: 1 for the current state.",
				ConstLabels: prometheus.Labels{"breaker": "receipts", "state": s.String()}},
				func() float64 {
					if b.State() == s {
						return 1
					}
					return 0
				}))
		}
	}
	m.handler = promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
	return m
}

// observe is the middleware's observer.
func (m *metrics) observe(_ context.Context, e idempotency.Event) {
	m.requests.WithLabelValues(e.Outcome.String()).Inc()
	if e.StoreDuration > 0 {
		m.store.Observe(e.StoreDuration.Seconds())
	}
}

// observeRetry is the receipts relay's retry.Policy.Observe.
func (m *metrics) observeRetry(_ context.Context, e retry.Event) {
	if e.GaveUp {
		m.retries.WithLabelValues("gave_up", e.Reason.Label()).Inc()
		return
	}
	m.retries.WithLabelValues("retry", "").Inc()
}

// delivered counts a receipt delivery.
func (m *metrics) delivered(err error) {
	if err != nil {
		m.deliveries.WithLabelValues("failed").Inc()
		return
	}
	m.deliveries.WithLabelValues("ok").Inc()
}

// ServeHTTP writes the metrics in the Prometheus text format (or OpenMetrics, as the scraper asks).
func (m *metrics) ServeHTTP(w http.ResponseWriter, r *http.Request) { m.handler.ServeHTTP(w, r) }
