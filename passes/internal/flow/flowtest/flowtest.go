// Package flowtest runs the flow engine on a package of a test's testdata,
// the set-up the tests of flow and of flow/policy share.
package flowtest

import (
	"reflect"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/passes/internal/flow"
)

// Analyzer returns an analyzer whose result is the flow engine's package
// of the pass. report, when not nil, first reports on that package (the
// diagnostics the testdata's wants match); an error of it fails the pass.
func Analyzer(name, doc string, report func(*analysis.Pass, *flow.Package) error) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:       name,
		Doc:        doc,
		Requires:   []*analysis.Analyzer{flow.Analyzer},
		ResultType: reflect.TypeFor[*flow.Package](),
		Run: func(pass *analysis.Pass) (any, error) {
			p := pass.ResultOf[flow.Analyzer].(*flow.Handle).Get()
			if report != nil {
				if err := report(pass, p); err != nil {
					return nil, err
				}
			}
			return p, nil
		},
	}
}

// Run runs a, made by Analyzer, on the package pkg of the test's testdata
// directory (analysistest.TestData) and returns the flow engine's package
// and the pass. It fails t when there is no package.
func Run(t *testing.T, a *analysis.Analyzer, pkg string) (*flow.Package, *analysis.Pass) {
	t.Helper()
	results := analysistest.Run(t, analysistest.TestData(), a, pkg)
	if len(results) == 0 {
		t.Fatalf("%s: no result", pkg)
	}
	p, _ := results[0].Result.(*flow.Package)
	if p == nil {
		t.Fatalf("%s: no flow package: %v", pkg, results[0].Err)
	}
	return p, results[0].Pass
}
