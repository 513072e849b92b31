package retrystatus_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	gochecker "golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/idemlint/idemlint/passes/retrystatus"
	"github.com/idemlint/idemlint/passes/unboundedretry"
)

// BenchmarkStd measures the check over net/http, loaded once from source,
// next to unboundedretry, which reads the same retry model and nothing else.
func BenchmarkStd(b *testing.B) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax}, "net/http")
	if err != nil {
		b.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		b.Fatal("load errors")
	}
	for _, a := range []*analysis.Analyzer{unboundedretry.Analyzer, retrystatus.Analyzer} {
		b.Run(a.Name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := gochecker.Analyze([]*analysis.Analyzer{a}, pkgs, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
