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

// The probes: tests that report, at the places of a test package, what one
// question to the model (Result) answers there, for // want comments.

// runProbe runs probe, given the model's result, over the check's test
// package pkg (describe's requirements, probe's reports).
func runProbe(t *testing.T, pkg string, probe func(*analysis.Pass, *retryscope.Result)) {
	t.Helper()
	dir := testgopath.Dir(t, analysistest.TestData())
	d := *describe
	d.Run = func(pass *analysis.Pass) (any, error) {
		probe(pass, pass.ResultOf[retryscope.Analyzer].(*retryscope.Result))
		return 0, nil
	}
	analysistest.Run(t, dir, &d, pkg)
}

// blankSelectors calls fn with each x.field of a `_ = x.field` in files,
// and the function declaration it is in (nil outside one).
func blankSelectors(files []*ast.File, fn func(fd *ast.FuncDecl, sel *ast.SelectorExpr)) {
	for _, f := range files {
		for _, d := range f.Decls {
			fd, _ := d.(*ast.FuncDecl)
			ast.Inspect(d, func(n ast.Node) bool {
				as, ok := n.(*ast.AssignStmt)
				if !ok || len(as.Lhs) != 1 || types.ExprString(as.Lhs[0]) != "_" {
					return true
				}
				if sel, ok := ast.Unparen(as.Rhs[0]).(*ast.SelectorExpr); ok {
					fn(fd, sel)
				}
				return true
			})
		}
	}
}

// TestFieldOfCtor reports, at each _ = x.field, what the field of the
// constructor's result holds there (Result.FieldOfCtor).
func TestFieldOfCtor(t *testing.T) {
	runProbe(t, "ctorfields", func(pass *analysis.Pass, res *retryscope.Result) {
		blankSelectors(pass.Files, func(fd *ast.FuncDecl, sel *ast.SelectorExpr) {
			if fd == nil || fd.Body == nil {
				return
			}
			cf, ok := res.FieldOfCtor(fd, sel)
			if !ok {
				pass.Reportf(sel.Pos(), "field %s: unknown", sel.Sel.Name)
				return
			}
			var out []string
			for _, v := range cf.Values {
				out = append(out, types.ExprString(v.Expr)+" in "+v.Func.Name.Name)
			}
			pass.Reportf(sel.Pos(), "field %s: [%s]", sel.Sel.Name, strings.Join(out, "; "))
		})
	})
}

// TestFieldValues reports, at each _ = x.field, the values the package
// stores in the field (Result.FieldValues) and whether it reaches into
// the field's Timeout (Result.FieldReach) or passes it to a function
// (Result.FieldPassed).
func TestFieldValues(t *testing.T) {
	runProbe(t, "fieldvalues", func(pass *analysis.Pass, res *retryscope.Result) {
		blankSelectors(pass.Files, func(_ *ast.FuncDecl, sel *ast.SelectorExpr) {
			v, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Var)
			if !ok || !v.IsField() {
				return
			}
			vals, ok := res.FieldValues(v)
			if !ok {
				pass.Reportf(sel.Pos(), "field %s: unknown", v.Name())
				return
			}
			var out []string
			for _, val := range vals {
				out = append(out, types.ExprString(val.Value)+" in "+val.Func.Name.Name)
			}
			pass.Reportf(sel.Pos(), "field %s: [%s] reach=%t passed=%t", v.Name(), strings.Join(out, "; "), res.FieldReach(v, "Timeout"), res.FieldPassed(v))
		})
	})
}

// TestFlows reports the scopes, the fields that hold a retrying client
// (Result.FieldClient) at their uses, and the arguments the package
// passes for each parameter (Result.Args) at the parameter.
func TestFlows(t *testing.T) {
	runProbe(t, "flows", func(pass *analysis.Pass, res *retryscope.Result) {
		for _, s := range res.Scopes() {
			pass.Reportf(s.Pos, "%s", Describe(s))
		}
		blankSelectors(pass.Files, func(_ *ast.FuncDecl, sel *ast.SelectorExpr) {
			if v, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Var); ok {
				if s := res.FieldClient(v); s != nil {
					pass.Reportf(sel.Pos(), "field %s holds the client of line %d", v.Name(), pass.Fset.Position(s.Pos).Line)
				}
			}
		})
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				fd, ok := n.(*ast.FuncDecl)
				if !ok {
					return true
				}
				for _, field := range fd.Type.Params.List {
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
				return true
			})
		}
	})
}
