package retryscope_test

import (
	"go/ast"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// fieldValuesRun reports, at each _ = x.field, the values the package
// stores in the field (Result.FieldValues) and whether it reaches into
// the field's Timeout (Result.FieldReach) or passes it to a function
// (Result.FieldPassed).
func fieldValuesRun(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[retryscope.Analyzer].(*retryscope.Result)
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || types.ExprString(as.Lhs[0]) != "_" {
				return true
			}
			sel, ok := ast.Unparen(as.Rhs[0]).(*ast.SelectorExpr)
			if !ok {
				return true
			}
			v, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Var)
			if !ok || !v.IsField() {
				return true
			}
			vals, ok := res.FieldValues(v)
			if !ok {
				pass.Reportf(sel.Pos(), "field %s: unknown", v.Name())
				return true
			}
			var out []string
			for _, val := range vals {
				out = append(out, types.ExprString(val.Value)+" in "+val.Func.Name.Name)
			}
			pass.Reportf(sel.Pos(), "field %s: [%s] reach=%t passed=%t", v.Name(), strings.Join(out, "; "), res.FieldReach(v, "Timeout"), res.FieldPassed(v))
			return true
		})
	}
	return 0, nil
}

func TestFieldValues(t *testing.T) {
	dir := testgopath.Dir(t, analysistest.TestData())
	d := *describe
	d.Run = fieldValuesRun
	analysistest.Run(t, dir, &d, "fieldvalues")
}
