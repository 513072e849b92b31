package nestedretry

import (
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/internal/benchcheck"
	"github.com/idemlint/idemlint/passes/unboundedretry"
)

// BenchmarkStd measures the analysis work over net/http and its
// dependencies (about 180 standard packages), loaded once from source:
// the fact-free unboundedretry check runs on net/http alone, nestedretry
// on every dependency too (facts), once skipping standard packages as it
// does by default and once analysing them.
func BenchmarkStd(b *testing.B) {
	pkgs := benchcheck.Std(b)
	for _, bc := range []struct {
		name    string
		a       *analysis.Analyzer
		skipStd bool
	}{
		{"unboundedretry", unboundedretry.Analyzer, true},
		{"nestedretry", Analyzer, true},
		{"nestedretry-analysing-std", Analyzer, false},
	} {
		b.Run(bc.name, func(b *testing.B) {
			skipStd = bc.skipStd
			defer func() { skipStd = true }()
			benchcheck.Loop(b, bc.a, pkgs)
		})
	}
}
