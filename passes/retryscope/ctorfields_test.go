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

// ctorFieldsRun reports, at each _ = x.field, what the field of the
// constructor's result holds there (Result.FieldOfCtor).
func ctorFieldsRun(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[retryscope.Analyzer].(*retryscope.Result)
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				as, ok := n.(*ast.AssignStmt)
				if !ok || len(as.Lhs) != 1 || types.ExprString(as.Lhs[0]) != "_" {
					return true
				}
				sel, ok := ast.Unparen(as.Rhs[0]).(*ast.SelectorExpr)
				if !ok {
					return true
				}
				cf, ok := res.FieldOfCtor(fd, sel)
				if !ok {
					pass.Reportf(sel.Pos(), "field %s: unknown", sel.Sel.Name)
					return true
				}
				var out []string
				for _, v := range cf.Values {
					out = append(out, types.ExprString(v.Expr)+" in "+v.Func.Name.Name)
				}
				pass.Reportf(sel.Pos(), "field %s: [%s]", sel.Sel.Name, strings.Join(out, "; "))
				return true
			})
		}
	}
	return 0, nil
}

func TestFieldOfCtor(t *testing.T) {
	dir := testgopath.Dir(t, analysistest.TestData())
	d := *describe
	d.Run = ctorFieldsRun
	analysistest.Run(t, dir, &d, "ctorfields")
}
