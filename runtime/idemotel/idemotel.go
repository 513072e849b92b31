// Package idemotel reports the idempotency runtime to OpenTelemetry: the retries and give-ups of a
// retry.Policy (Retry, its Observe method), the outcomes of idempotency.Middleware and the latency of its
// store (Idempotency), and the per-call retry figures of runtime/grpcretry under the names of gRPC's proposal
// A96 (GRPCCalls). Each records span events on the span in the context it is given, when that span records,
// and metrics through a meter of the MeterProvider it is given (the global one by default).
//
// It depends on the OpenTelemetry API only (go.opentelemetry.io/otel, .../metric, .../trace); the
// application chooses and configures the SDK. Every metric and attribute name is listed in
// docs/runtime-observability.md.
package idemotel

import (
	"errors"
	"fmt"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// ScopeName is the instrumentation scope of the meters this package makes.
const ScopeName = "github.com/idemlint/idemlint/runtime/idemotel"

// The names of the attributes this package sets. Where OpenTelemetry's semantic conventions (or gRPC's
// proposal A66) define one it is used; the others are in the idemlint namespace.
const (
	// AttrAttempt (int) is the number of the attempt that failed, from 1, on a retry or give-up event.
	AttrAttempt = attribute.Key("idemlint.retry.attempt")
	// AttrWait (double, seconds) is the wait before the next attempt, on a retry event.
	AttrWait = attribute.Key("idemlint.retry.wait")
	// AttrReason (string) is why a run gave up: retry.Reason.Label(), such as "attempts_exhausted" or
	// "circuit_open".
	AttrReason = attribute.Key("idemlint.retry.reason")
	// AttrPolicy (string) names the retry policy, when WithName is given.
	AttrPolicy = attribute.Key("idemlint.retry.policy")
	// AttrResendCount (int) is the semantic conventions' http.request.resend_count: on a retry event of an
	// HTTP policy (WithHTTP), the resend count of the request about to be sent (the failed attempt's number).
	AttrResendCount = attribute.Key("http.request.resend_count")
	// AttrStatusCode (int) is the semantic conventions' http.response.status_code: the status a retried
	// response had (retry.StatusError), or the status Middleware answered.
	AttrStatusCode = attribute.Key("http.response.status_code")
	// AttrErrorType (string) is the semantic conventions' error.type: the Go type of the failed attempt's
	// error ("*net.OpError"), on retry and give-up events.
	AttrErrorType = attribute.Key("error.type")
	// AttrOutcome (string) is what Middleware did with a request: idempotency.EventOutcome.String(), such
	// as "executed", "replayed", "in_progress", "mismatch" or "store_unavailable".
	AttrOutcome = attribute.Key("idemlint.idempotency.outcome")
	// AttrKeyHash (string) is idempotency.KeyHash of the request's scope and key, on the request's event: it
	// correlates the attempts of one operation without recording the key. It is never a metric attribute.
	AttrKeyHash = attribute.Key("idemlint.idempotency.key_hash")
	// AttrStoreDuration (double, seconds) is the time spent in the store, on the request's event.
	AttrStoreDuration = attribute.Key("idemlint.idempotency.store.duration")
	// AttrGRPCMethod and AttrGRPCTarget are gRPC's grpc.method and grpc.target (A66).
	AttrGRPCMethod = attribute.Key("grpc.method")
	AttrGRPCTarget = attribute.Key("grpc.target")
)

// The names of the span events.
const (
	// EventRetry is recorded before each wait of a retry run.
	EventRetry = "idemlint.retry"
	// EventGiveUp is recorded when a retry run stops without success.
	EventGiveUp = "idemlint.retry.give_up"
	// EventRequest is recorded when Middleware has handled a request.
	EventRequest = "idemlint.idempotency.request"
)

// The names of the metrics.
const (
	// MetricRetries (counter, {retry}) counts retries: failed attempts followed by a wait and another
	// attempt.
	MetricRetries = "idemlint.retry.retries"
	// MetricGiveUps (counter, {give_up}) counts the runs that stopped without success, by AttrReason.
	MetricGiveUps = "idemlint.retry.give_ups"
	// MetricWait (histogram, s) is the distribution of the waits before retries.
	MetricWait = "idemlint.retry.wait"
	// MetricRequests (counter, {request}) counts the requests Middleware handled, by AttrOutcome and
	// AttrStatusCode.
	MetricRequests = "idemlint.idempotency.requests"
	// MetricStoreDuration (histogram, s) is the time each request spent in the store (claim and completion),
	// by AttrOutcome; requests that did not reach the store are not recorded.
	MetricStoreDuration = "idemlint.idempotency.store.duration"
	// MetricGRPCRetries (histogram, {retry}) is gRPC's grpc.client.call.retries (A96): the attempts after
	// the first, per call, by AttrGRPCMethod and AttrGRPCTarget.
	MetricGRPCRetries = "grpc.client.call.retries"
	// MetricGRPCRetryDelay (histogram, s) is gRPC's grpc.client.call.retry_delay (A96): the time per call
	// without an active attempt.
	MetricGRPCRetryDelay = "grpc.client.call.retry_delay"
)

// Bucket boundaries advised to the SDK: latencies as gRPC's proposal A66 has them (seconds), counts as
// powers of two.
var (
	latencyBuckets = []float64{0, 0.00001, 0.00005, 0.0001, 0.0003, 0.0006, 0.0008, 0.001, 0.002, 0.003, 0.004,
		0.005, 0.006, 0.008, 0.01, 0.013, 0.016, 0.02, 0.025, 0.03, 0.04, 0.05, 0.065, 0.08, 0.1, 0.13, 0.16, 0.2,
		0.25, 0.3, 0.4, 0.5, 0.65, 0.8, 1, 2, 5, 10, 20, 50, 100}
	countBuckets = []float64{0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}
)

// Option configures Retry, Idempotency and GRPCCalls.
type Option func(*config)

type config struct {
	mp    metric.MeterProvider
	attrs []attribute.KeyValue
	http  bool
}

// WithMeterProvider sets the MeterProvider (default: otel.GetMeterProvider()).
func WithMeterProvider(mp metric.MeterProvider) Option { return func(c *config) { c.mp = mp } }

// WithName names a retry policy (AttrPolicy) on its events and metrics, to tell several apart.
func WithName(name string) Option {
	return func(c *config) { c.attrs = append(c.attrs, AttrPolicy.String(name)) }
}

// WithAttributes adds attrs to every event and metric point. Keep them few and of low cardinality.
func WithAttributes(attrs ...attribute.KeyValue) Option {
	return func(c *config) { c.attrs = append(c.attrs, attrs...) }
}

// WithHTTP marks a retry policy as an HTTP client's (retry.NewTransport): its retry events carry
// http.request.resend_count.
func WithHTTP() Option { return func(c *config) { c.http = true } }

func newConfig(opts []Option) (config, *instruments) {
	var c config
	for _, o := range opts {
		o(&c)
	}
	if c.mp == nil {
		c.mp = otel.GetMeterProvider()
	}
	return c, &instruments{m: c.mp.Meter(ScopeName)}
}

// instruments makes the instruments of one recorder on a meter, joining
// their errors for err.
type instruments struct {
	m   metric.Meter
	err error
}

func (in *instruments) counter(name, unit, desc string) metric.Int64Counter {
	c, err := in.m.Int64Counter(name, metric.WithUnit(unit), metric.WithDescription(desc))
	in.err = errors.Join(in.err, err)
	return c
}

func (in *instruments) intHistogram(name, unit, desc string, buckets []float64) metric.Int64Histogram {
	h, err := in.m.Int64Histogram(name, metric.WithUnit(unit), metric.WithDescription(desc),
		metric.WithExplicitBucketBoundaries(buckets...))
	in.err = errors.Join(in.err, err)
	return h
}

func (in *instruments) histogram(name, unit, desc string, buckets []float64) metric.Float64Histogram {
	h, err := in.m.Float64Histogram(name, metric.WithUnit(unit), metric.WithDescription(desc),
		metric.WithExplicitBucketBoundaries(buckets...))
	in.err = errors.Join(in.err, err)
	return h
}

// done returns the errors of the instruments made, as those of the
// recorder's what instruments.
func (in *instruments) done(what string) error {
	if in.err != nil {
		return fmt.Errorf("idemotel: %s instruments: %w", what, in.err)
	}
	return nil
}
