package idemotel

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/idemlint/idemlint/runtime/retry"
)

// Retry records a retry.Policy's retries and give-ups. Install its Observe as the policy's Observe (or call
// it from yours):
//
//	obs, err := idemotel.NewRetry(idemotel.WithName("receipts"))
//	p := retry.Policy{MaxAttempts: 5, Observe: obs.Observe}
type Retry struct {
	attrs   []attribute.KeyValue
	http    bool
	retries metric.Int64Counter
	giveUps metric.Int64Counter
	wait    metric.Float64Histogram
}

// NewRetry returns a Retry recording through the options' MeterProvider.
func NewRetry(opts ...Option) (*Retry, error) {
	c, in := newConfig(opts)
	r := &Retry{
		attrs: c.attrs,
		http:  c.http,
		retries: in.counter(MetricRetries, "{retry}",
			"Retries: failed attempts followed by a wait and another attempt."),
		giveUps: in.counter(MetricGiveUps, "{give_up}",
			"Retry runs that stopped without success, by reason."),
		wait: in.histogram(MetricWait, "s", "Waits before retries.", latencyBuckets),
	}
	if err := in.done("retry"); err != nil {
		return nil, err
	}
	return r, nil
}

// Observe records e: a retry as an EventRetry span event (attempt, wait) and in MetricRetries and
// MetricWait; a give-up as an EventGiveUp span event (attempt, reason) and in MetricGiveUps by reason.
func (r *Retry) Observe(ctx context.Context, e retry.Event) {
	metricAttrs := r.attrs
	eventAttrs := append(append(make([]attribute.KeyValue, 0, len(r.attrs)+6), r.attrs...), AttrAttempt.Int(e.Attempt))
	var se *retry.StatusError
	if errors.As(e.Err, &se) {
		status := AttrStatusCode.Int(se.StatusCode)
		metricAttrs = append(append(make([]attribute.KeyValue, 0, len(r.attrs)+2), r.attrs...), status)
		eventAttrs = append(eventAttrs, status)
	}
	if e.Err != nil {
		eventAttrs = append(eventAttrs, AttrErrorType.String(fmt.Sprintf("%T", e.Err)))
	}
	span := trace.SpanFromContext(ctx)
	if e.GaveUp {
		reason := AttrReason.String(e.Reason.Label())
		r.giveUps.Add(ctx, 1, metric.WithAttributes(append(metricAttrs[:len(metricAttrs):len(metricAttrs)], reason)...))
		if span.IsRecording() {
			span.AddEvent(EventGiveUp, trace.WithAttributes(append(eventAttrs, reason)...))
		}
		return
	}
	r.retries.Add(ctx, 1, metric.WithAttributes(metricAttrs...))
	r.wait.Record(ctx, e.Wait.Seconds(), metric.WithAttributes(r.attrs...))
	if span.IsRecording() {
		eventAttrs = append(eventAttrs, AttrWait.Float64(e.Wait.Seconds()))
		if r.http {
			eventAttrs = append(eventAttrs, AttrResendCount.Int(e.Attempt))
		}
		span.AddEvent(EventRetry, trace.WithAttributes(eventAttrs...))
	}
}

// GRPCCalls records gRPC's per-call retry metrics (proposal A96) from runtime/grpcretry's call statistics.
// Wire it with grpcretry.WithCallObserver:
//
//	calls, err := idemotel.NewGRPCCalls()
//	grpcretry.UnaryClientInterceptor(p, grpcretry.WithCallObserver(func(ctx context.Context, s grpcretry.CallStats) {
//		calls.Record(ctx, s.Method, s.Target, s.Retries, s.RetryDelay)
//	}))
//
// (This package does not import grpcretry, so that it does not require grpc.)
type GRPCCalls struct {
	attrs   []attribute.KeyValue
	retries metric.Int64Histogram
	delay   metric.Float64Histogram
}

// NewGRPCCalls returns a GRPCCalls recording through the options' MeterProvider.
func NewGRPCCalls(opts ...Option) (*GRPCCalls, error) {
	c, in := newConfig(opts)
	g := &GRPCCalls{
		attrs: c.attrs,
		retries: in.intHistogram(MetricGRPCRetries, "{retry}",
			"Number of retry attempts made during the client call; the original attempt is not counted.", countBuckets),
		delay: in.histogram(MetricGRPCRetryDelay, "s",
			"Total time of delay while there is no active attempt during the client call.", latencyBuckets),
	}
	if err := in.done("grpc"); err != nil {
		return nil, err
	}
	return g, nil
}

// Record records one finished call of method (its full name, "/pkg.Service/Method") on target: retries, the
// attempts after the first, in MetricGRPCRetries, and delay, the time without an active attempt, in
// MetricGRPCRetryDelay. Every call is recorded, those without a retry as 0.
func (g *GRPCCalls) Record(ctx context.Context, method, target string, retries int, delay time.Duration) {
	attrs := metric.WithAttributes(append(append(make([]attribute.KeyValue, 0, len(g.attrs)+2), g.attrs...),
		AttrGRPCMethod.String(trimSlash(method)), AttrGRPCTarget.String(target))...)
	g.retries.Record(ctx, int64(retries), attrs)
	g.delay.Record(ctx, delay.Seconds(), attrs)
}

// trimSlash drops the leading slash of a full method name, as A66's grpc.method has it
// ("pkg.Service/Method").
func trimSlash(method string) string {
	if len(method) > 0 && method[0] == '/' {
		return method[1:]
	}
	return method
}
