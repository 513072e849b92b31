package idemotel

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

// Idempotency records what idempotency.Middleware did with each request. Install its Observe with
// idempotency.WithObserver:
//
//	obs, err := idemotel.NewIdempotency()
//	h := idempotency.Middleware(store, idempotency.WithObserver(obs.Observe))(handler)
type Idempotency struct {
	attrs    []attribute.KeyValue
	requests metric.Int64Counter
	store    metric.Float64Histogram
}

// NewIdempotency returns an Idempotency recording through the options' MeterProvider.
func NewIdempotency(opts ...Option) (*Idempotency, error) {
	c, in := newConfig(opts)
	o := &Idempotency{
		attrs: c.attrs,
		requests: in.counter(MetricRequests, "{request}",
			"Requests handled by the idempotency middleware, by outcome."),
		store: in.histogram(MetricStoreDuration, "s",
			"Time a request spent in the idempotency store (claim and completion).", latencyBuckets),
	}
	if err := in.done("idempotency"); err != nil {
		return nil, err
	}
	return o, nil
}

// Observe records e: in MetricRequests by outcome and status, in MetricStoreDuration when the request
// reached the store, and as an EventRequest span event (outcome, status, key hash, store time) on the
// request's span.
func (o *Idempotency) Observe(ctx context.Context, e idempotency.Event) {
	attrs := append(make([]attribute.KeyValue, 0, len(o.attrs)+5), o.attrs...)
	attrs = append(attrs, AttrOutcome.String(e.Outcome.String()))
	outcomeOnly := attrs[:len(attrs):len(attrs)]
	if e.Status != 0 {
		attrs = append(attrs, AttrStatusCode.Int(e.Status))
	}
	o.requests.Add(ctx, 1, metric.WithAttributes(attrs...))
	if e.StoreDuration > 0 {
		o.store.Record(ctx, e.StoreDuration.Seconds(), metric.WithAttributes(outcomeOnly...))
	}
	if span := trace.SpanFromContext(ctx); span.IsRecording() {
		if e.KeyHash != "" {
			attrs = append(attrs, AttrKeyHash.String(e.KeyHash))
		}
		attrs = append(attrs, AttrStoreDuration.Float64(e.StoreDuration.Seconds()))
		if e.Err != nil {
			attrs = append(attrs, AttrErrorType.String(fmt.Sprintf("%T", e.Err)))
		}
		span.AddEvent(EventRequest, trace.WithAttributes(attrs...))
	}
}
