package retrystatus_test

import (
	"testing"

	"github.com/idemlint/idemlint/internal/benchcheck"
	"github.com/idemlint/idemlint/passes/retrystatus"
	"github.com/idemlint/idemlint/passes/unboundedretry"
)

// BenchmarkStd measures the check over net/http, loaded once from source,
// next to unboundedretry, which reads the same retry model and nothing else.
func BenchmarkStd(b *testing.B) {
	benchcheck.Each(b, "", benchcheck.Std(b), unboundedretry.Analyzer, retrystatus.Analyzer)
}
