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

// flowsRun reports the scopes, the fields that hold a retrying client
// (Result.FieldClient) at their uses, and the arguments the package
// passes for each parameter (Result.Args) at the parameter.
func flowsRun(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[retryscope.Analyzer].(*retryscope.Result)
	for _, s := range res.Scopes() {
		pass.Reportf(s.Pos, "%s", Describe(s))
	}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				// _ = c.field
				if sel, ok := ast.Unparen(n.Rhs[0]).(*ast.SelectorExpr); ok && len(n.Lhs) == 1 && types.ExprString(n.Lhs[0]) == "_" {
					if v, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Var); ok {
						if s := res.FieldClient(v); s != nil {
							pass.Reportf(sel.Pos(), "field %s holds the client of line %d", v.Name(), pass.Fset.Position(s.Pos).Line)
						}
					}
				}
			case *ast.FuncDecl:
				for _, field := range n.Type.Params.List {
					for _, name := range field.Names {
						v := pass.TypesInfo.Defs[name].(*types.Var)
						var vals []string
						for _, a := range res.Args(v) {
							vals = append(vals, types.ExprString(a.Expr))
						}
						if len(vals) > 0 {
							pass.Reportf(name.Pos(), "%s: %s", v.Name(), strings.Join(vals, ", "))
						}
					}
				}
			}
			return true
		})
	}
	return 0, nil
}

func TestFlows(t *testing.T) {
	dir := testgopath.Dir(t, analysistest.TestData())
	d := *describe
	d.Run = flowsRun
	analysistest.Run(t, dir, &d, "flows")
}
