package main

import (
	"bufio"
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/retry"
)

// storeBuckets are the upper bounds, in seconds, of the store-latency
// histogram.
var storeBuckets = [...]float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5}

// metrics counts what /metrics reports, in the Prometheus text format
// (version 0.0.4), written by hand.
type metrics struct {
	requests [len(idempotency.EventOutcomes) + 1]atomic.Int64 // by EventOutcome; 0 for unknown

	storeCount   atomic.Int64
	storeSumNs   atomic.Int64
	storeBuckets [len(storeBuckets)]atomic.Int64 // not cumulative; summed when written

	deliveries [2]atomic.Int64 // ok, failed

	mu      sync.Mutex
	retries map[string]int64 // retry events by event and reason

	breaker *retry.Breaker // of the receipts delivery; nil for none
}

func newMetrics(b *retry.Breaker) *metrics {
	return &metrics{retries: make(map[string]int64), breaker: b}
}

// observe is the middleware's observer.
func (m *metrics) observe(_ context.Context, e idempotency.Event) {
	if i := int(e.Outcome); i > 0 && i < len(m.requests) {
		m.requests[i].Add(1)
	} else {
		m.requests[0].Add(1)
	}
	if e.StoreDuration > 0 {
		m.storeCount.Add(1)
		m.storeSumNs.Add(int64(e.StoreDuration))
		s := e.StoreDuration.Seconds()
		for i, le := range storeBuckets {
			if s <= le {
				m.storeBuckets[i].Add(1)
				break
			}
		}
	}
}

// observeRetry is the receipts relay's retry.Policy.Observe.
func (m *metrics) observeRetry(_ context.Context, e retry.Event) {
	k := `event="retry",reason=""`
	if e.GaveUp {
		k = `event="gave_up",reason="` + e.Reason.String() + `"`
	}
	m.mu.Lock()
	m.retries[k]++
	m.mu.Unlock()
}

// delivered counts a receipt delivery.
func (m *metrics) delivered(err error) {
	if err != nil {
		m.deliveries[1].Add(1)
		return
	}
	m.deliveries[0].Add(1)
}

// ServeHTTP writes the metrics.
func (m *metrics) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	b := bufio.NewWriter(w)
	defer b.Flush()

	help := func(name, typ, text string) {
		fmt.Fprintf(b, "# HELP %s %s\n# TYPE %s %s\n", name, text, name, typ)
	}
	help("idemdemo_requests_total", "counter", "Requests handled by the idempotency middleware, by outcome.")
	for _, o := range idempotency.EventOutcomes {
		fmt.Fprintf(b, "idemdemo_requests_total{outcome=%q} %d\n", o.String(), m.requests[o].Load())
	}

	help("idemdemo_store_duration_seconds", "histogram", "Time spent in the idempotency store per request (claim and completion).")
	cum := int64(0)
	for i, le := range storeBuckets {
		cum += m.storeBuckets[i].Load()
		fmt.Fprintf(b, "idemdemo_store_duration_seconds_bucket{le=%q} %d\n", strconv.FormatFloat(le, 'g', -1, 64), cum)
	}
	count := m.storeCount.Load()
	fmt.Fprintf(b, "idemdemo_store_duration_seconds_bucket{le=\"+Inf\"} %d\n", count)
	fmt.Fprintf(b, "idemdemo_store_duration_seconds_sum %s\n",
		strconv.FormatFloat(time.Duration(m.storeSumNs.Load()).Seconds(), 'g', -1, 64))
	fmt.Fprintf(b, "idemdemo_store_duration_seconds_count %d\n", count)

	help("idemdemo_receipt_deliveries_total", "counter", "Receipt delivery attempts by the outbox relay, by result.")
	fmt.Fprintf(b, "idemdemo_receipt_deliveries_total{result=\"ok\"} %d\n", m.deliveries[0].Load())
	fmt.Fprintf(b, "idemdemo_receipt_deliveries_total{result=\"failed\"} %d\n", m.deliveries[1].Load())

	help("idemdemo_retry_events_total", "counter", "Retry events of the receipts relay (retry.Policy.Observe), by event and reason.")
	m.mu.Lock()
	for _, k := range slices.Sorted(maps.Keys(m.retries)) {
		fmt.Fprintf(b, "idemdemo_retry_events_total{%s} %d\n", k, m.retries[k])
	}
	m.mu.Unlock()

	if m.breaker != nil {
		help("idemdemo_breaker_state", "gauge", "State of the receipts relay's circuit breaker: 1 for the current state.")
		cur := m.breaker.State()
		for _, s := range []retry.BreakerState{retry.BreakerClosed, retry.BreakerOpen, retry.BreakerHalfOpen} {
			v := 0
			if s == cur {
				v = 1
			}
			fmt.Fprintf(b, "idemdemo_breaker_state{breaker=\"receipts\",state=%q} %d\n", s.String(), v)
		}
	}
}
