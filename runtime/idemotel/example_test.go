package idemotel_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/idemlint/idemlint/runtime/idemotel"
	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/retry"
)

func ExampleNewRetry() {
	// In a service the MeterProvider is the global one the SDK set up (otel.SetMeterProvider); the
	// option is for tests and for services with several.
	obs, err := idemotel.NewRetry(idemotel.WithName("receipts"))
	if err != nil {
		log.Fatal(err)
	}
	p := retry.Policy{MaxAttempts: 5, Observe: obs.Observe}
	client := &http.Client{Transport: retry.NewTransport(nil, p)}
	_ = client
}

func ExampleNewIdempotency() {
	reader := sdkmetric.NewManualReader()
	obs, err := idemotel.NewIdempotency(idemotel.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))))
	if err != nil {
		log.Fatal(err)
	}
	h := idempotency.Middleware(idempotency.NewMemoryStore(), idempotency.WithObserver(obs.Observe))(
		http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusCreated) }))
	for range 3 {
		r := httptest.NewRequest("POST", "/payments", strings.NewReader(`{}`))
		r.Header.Set("Idempotency-Key", "order-42")
		h.ServeHTTP(httptest.NewRecorder(), r)
	}
	var rm metricdata.ResourceMetrics
	reader.Collect(context.Background(), &rm)
	for _, m := range rm.ScopeMetrics[0].Metrics {
		if m.Name != idemotel.MetricRequests {
			continue
		}
		for _, p := range m.Data.(metricdata.Sum[int64]).DataPoints {
			o, _ := p.Attributes.Value(idemotel.AttrOutcome)
			fmt.Println(o.AsString(), p.Value)
		}
	}
	// Unordered output:
	// executed 1
	// replayed 2
}
