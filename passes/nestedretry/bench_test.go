package nestedretry

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	gochecker "golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/idemlint/idemlint/passes/unboundedretry"
)

// BenchmarkStd measures the analysis work over net/http and its
// dependencies (about 180 standard packages), loaded once from source:
// the fact-free unboundedretry check runs on net/http alone, nestedretry
// on every dependency too (facts), once skipping standard packages as it
// does by default and once analysing them.
func BenchmarkStd(b *testing.B) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax}, "net/http")
	if err != nil {
		b.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		b.Fatal("load errors")
	}
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
			b.ReportAllocs()
			for b.Loop() {
				if _, err := gochecker.Analyze([]*analysis.Analyzer{bc.a}, pkgs, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
