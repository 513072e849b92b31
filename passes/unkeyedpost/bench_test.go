package unkeyedpost_test

import (
	"os"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	gochecker "golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/keyinloop"
	"github.com/idemlint/idemlint/passes/unboundedretry"
	"github.com/idemlint/idemlint/passes/unkeyedpost"
)

// BenchmarkChecks measures the analysis work of keyinloop and unkeyedpost,
// with unboundedretry (the retry model plus a trivial check) as the floor,
// over packages loaded once from source: net/http, and the checks' test
// packages, which are dense in retries, keys and requests. Neither check
// uses SSA.
func BenchmarkChecks(b *testing.B) {
	std, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax}, "net/http")
	if err != nil || packages.PrintErrors(std) > 0 {
		b.Fatal("load errors", err)
	}
	dir := testgopath.Dir(b, analysistest.TestData())
	own := append(loadGOPATH(b, dir, "loops", "libraries", "clients", "lookalikes", "fixes"),
		loadGOPATH(b, testgopath.Dir(b, "../keyinloop/testdata"), "loops", "libraries", "sdks", "lookalikes")...)
	for _, corpus := range []struct {
		name string
		pkgs []*packages.Package
	}{{"net-http", std}, {"testdata", own}} {
		for _, a := range []*analysis.Analyzer{unboundedretry.Analyzer, keyinloop.Analyzer, unkeyedpost.Analyzer} {
			b.Run(corpus.name+"/"+a.Name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := gochecker.Analyze([]*analysis.Analyzer{a}, corpus.pkgs, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// loadGOPATH loads patterns from the GOPATH tree dir.
func loadGOPATH(b *testing.B, dir string, patterns ...string) []*packages.Package {
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  dir,
		Env:  append(os.Environ(), "GOPATH="+dir, "GO111MODULE=off", "GOFLAGS=", "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		b.Fatal("load errors", err)
	}
	return pkgs
}
