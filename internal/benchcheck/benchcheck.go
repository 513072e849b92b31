// Package benchcheck holds what the checks' benchmarks share: packages
// loaded once from source and the timed loop that analyses them.
package benchcheck

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	gochecker "golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/idemlint/idemlint/internal/testgopath"
)

// Std loads net/http and its dependencies from source.
func Std(b *testing.B) []*packages.Package {
	b.Helper()
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax}, "net/http")
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		b.Fatal("load errors", err)
	}
	return pkgs
}

// GOPATH loads patterns from source in gopath, a directory made by
// testgopath.Dir.
func GOPATH(b *testing.B, gopath string, patterns ...string) []*packages.Package {
	b.Helper()
	pkgs := testgopath.Load(b, gopath, packages.LoadAllSyntax, patterns...)
	if packages.PrintErrors(pkgs) > 0 {
		b.Fatal("load errors")
	}
	return pkgs
}

// Loop measures a over pkgs, with its allocations.
func Loop(b *testing.B, a *analysis.Analyzer, pkgs []*packages.Package) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := gochecker.Analyze([]*analysis.Analyzer{a}, pkgs, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// Each measures every analyzer over pkgs, each in a sub-benchmark named
// prefix and the analyzer's name.
func Each(b *testing.B, prefix string, pkgs []*packages.Package, as ...*analysis.Analyzer) {
	for _, a := range as {
		b.Run(prefix+a.Name, func(b *testing.B) { Loop(b, a, pkgs) })
	}
}
