package flow_test

import (
	"go/types"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/passes/internal/flow"
	"github.com/idemlint/idemlint/passes/internal/flow/flowtest"
	"github.com/idemlint/idemlint/passes/internal/flow/modeldiff"
)

// describeAttempts reports each loop and call-graph cycle of the package
// with its attempts, as the testdata's wants spell them.
var describeAttempts = flowtest.Analyzer("flowattempts", "describe the flow engine's attempts and cycles",
	func(pass *analysis.Pass, p *flow.Package) error {
		for _, fn := range p.Funcs {
			loops := append(slices.Clone(p.Loops(fn).Loops), p.Cycles(fn)...)
			for _, l := range loops {
				var as []string
				for _, a := range l.Attempts() {
					s := modeldiff.CallName(a.Call) + ":" + a.Test.String()
					if a.OnSuccess {
						s += ":on-success"
					}
					if a.Pred != nil && a.Test != flow.ErrNil && modeldiff.CallName(a.Pred) != "errors.Is" {
						s += " pred=" + modeldiff.CallName(a.Pred)
					}
					as = append(as, s)
				}
				kind := modeldiff.StmtKind(l.Syntax)
				if l.Site() != nil {
					kind = "call"
				}
				pass.Reportf(l.Syntax.Pos(), "loop %s %s attempts=[%s]", l.Kind, kind, strings.Join(as, " "))
			}
		}
		return nil
	})

func TestAttempts(t *testing.T) {
	t.Parallel() // each loads its packages from source: the loads overlap
	p, pass := flowtest.Run(t, describeAttempts, "attempts")
	scope := pass.Pkg.Scope()
	for name, want := range map[string]bool{"fatal": true, "die": true, "op": false, "walk": false} {
		fn, _ := scope.Lookup(name).(*types.Func)
		if got := p.NeverReturns(fn); got != want {
			t.Errorf("NeverReturns(%s) = %t, want %t", name, got, want)
		}
	}
}
