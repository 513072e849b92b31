package unkeyedpost_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/packages"

	"github.com/idemlint/idemlint/internal/benchcheck"
	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/keyinloop"
	"github.com/idemlint/idemlint/passes/unboundedretry"
	"github.com/idemlint/idemlint/passes/unkeyedpost"
)

// BenchmarkChecks measures the analysis work of keyinloop and unkeyedpost,
// with unboundedretry (the retry model plus a trivial check) as the floor,
// over packages loaded once from source: net/http, and the checks' test
// packages, which are dense in retries, keys and requests. keyinloop
// builds the package's SSA form (the flow engine's value flow) when a retry
// sets a key; unkeyedpost uses none.
func BenchmarkChecks(b *testing.B) {
	std := benchcheck.Std(b)
	own := append(benchcheck.GOPATH(b, testgopath.Dir(b, analysistest.TestData()), "loops", "libraries", "clients", "lookalikes", "fixes"),
		benchcheck.GOPATH(b, testgopath.Dir(b, "../keyinloop/testdata"), "loops", "libraries", "sdks", "lookalikes")...)
	for _, corpus := range []struct {
		name string
		pkgs []*packages.Package
	}{{"net-http", std}, {"testdata", own}} {
		benchcheck.Each(b, corpus.name+"/", corpus.pkgs, unboundedretry.Analyzer, keyinloop.Analyzer, unkeyedpost.Analyzer)
	}
}
