package idemotel_test

import (
	"errors"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/metric/noop"

	"github.com/idemlint/idemlint/runtime/idemotel"
)

var errRefused = errors.New("instrument refused")

// refusingMeter fails every instrument it is asked for.
type refusingMeter struct{ noop.Meter }

func (refusingMeter) Int64Counter(string, ...metric.Int64CounterOption) (metric.Int64Counter, error) {
	return noop.Int64Counter{}, errRefused
}

func (refusingMeter) Int64Histogram(string, ...metric.Int64HistogramOption) (metric.Int64Histogram, error) {
	return noop.Int64Histogram{}, errRefused
}

func (refusingMeter) Float64Histogram(string, ...metric.Float64HistogramOption) (metric.Float64Histogram, error) {
	return noop.Float64Histogram{}, errRefused
}

type refusingProvider struct{ noop.MeterProvider }

func (refusingProvider) Meter(string, ...metric.MeterOption) metric.Meter { return refusingMeter{} }

// TestInstrumentErrors checks that each constructor fails, naming its
// instruments, when its meter refuses them, and succeeds on a meter that
// does not.
func TestInstrumentErrors(t *testing.T) {
	for _, c := range []struct {
		what string
		make func(...idemotel.Option) error
	}{
		{"retry", func(o ...idemotel.Option) error { _, err := idemotel.NewRetry(o...); return err }},
		{"idempotency", func(o ...idemotel.Option) error { _, err := idemotel.NewIdempotency(o...); return err }},
		{"grpc", func(o ...idemotel.Option) error { _, err := idemotel.NewGRPCCalls(o...); return err }},
	} {
		err := c.make(idemotel.WithMeterProvider(refusingProvider{}))
		if !errors.Is(err, errRefused) || !strings.HasPrefix(err.Error(), "idemotel: "+c.what+" instruments: ") {
			t.Errorf("%s on a refusing meter: err = %v, want idemotel: %s instruments: %v", c.what, err, c.what, errRefused)
		}
		if err := c.make(idemotel.WithMeterProvider(noop.NewMeterProvider())); err != nil {
			t.Errorf("%s on a noop meter: %v", c.what, err)
		}
	}
}
