package retryscope

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// What a struct field of the package can hold by default (issue 19's
// stored clients): a client whose every send goes through c.HTTPClient
// holds what the package's own code stores there (the constructor's
// literal, a fallback if c.HTTPClient == nil { c.HTTPClient =
// http.DefaultClient }), unless its users pass their own (a client
// option's parameter). The model gives the values; a check judges them
// (retrytimeout: whether each is a client with no timeout).

// A FieldValue is a value the package's own code stores in a field.
type FieldValue struct {
	// Value is the stored expression as written (a local variable is not
	// resolved: what the function does to it after is the check's to read).
	Value ast.Expr
	// Func is the function declaration making the store.
	Func *ast.FuncDecl
}

// FieldValues returns the values the package's non-test code stores in
// field v, its own defaults: every store (an assignment, a composite
// literal's element) but nil and those passing on a parameter of the
// storing function (a client option's WithHTTPClient(hc), a
// constructor's argument: what its users choose). ok is false when a
// store cannot be read (a tuple, op=, the field's address taken, a store
// at package level).
func (r *Result) FieldValues(v *types.Var) (vals []FieldValue, ok bool) {
	m := r.model
	for _, s := range m.fieldStores()[v] {
		e, di := m.storedValue(s)
		if e == nil || s.fn == nil {
			return nil, false
		}
		if astq.IsNil(m.info, e) || m.fromParam(di, s, e) {
			continue
		}
		vals = append(vals, FieldValue{Value: s.rhs, Func: s.fn})
	}
	return vals, true
}

// FieldReach reports whether the package's non-test code stores into a
// field named one of names of the value field v holds (x.v.Timeout = d,
// &x.v.Timeout).
func (r *Result) FieldReach(v *types.Var, names ...string) bool {
	m := r.model
	found := false
	m.eachUse(v, func(n ast.Node, sel *ast.SelectorExpr) {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				found = found || ast.Unparen(lhs) == sel && slices.Contains(names, sel.Sel.Name)
			}
		case *ast.UnaryExpr:
			found = found || n.Op == token.AND && ast.Unparen(n.X) == sel && slices.Contains(names, sel.Sel.Name)
		}
	})
	return found
}

// FieldPassed reports whether the package's non-test code passes the
// value field v holds to a function (configure(x.v)), which may change it.
func (r *Result) FieldPassed(v *types.Var) bool {
	m := r.model
	found := false
	for _, f := range m.pass.Files {
		if strings.HasSuffix(m.pass.Fset.File(f.Pos()).Name(), "_test.go") {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				for _, a := range call.Args {
					found = found || m.fieldOf(a) == v
				}
			}
			return !found
		})
	}
	return found
}

// eachUse calls f with each assignment or & expression of the package's
// non-test code and each selector x.v.F in it.
func (m *model) eachUse(v *types.Var, f func(ast.Node, *ast.SelectorExpr)) {
	for _, file := range m.pass.Files {
		if strings.HasSuffix(m.pass.Fset.File(file.Pos()).Name(), "_test.go") {
			continue
		}
		ast.Inspect(file, func(n ast.Node) bool {
			var xs []ast.Expr
			switch n := n.(type) {
			case *ast.AssignStmt:
				xs = n.Lhs
			case *ast.UnaryExpr:
				xs = []ast.Expr{n.X}
			default:
				return true
			}
			for _, x := range xs {
				if sel, ok := ast.Unparen(x).(*ast.SelectorExpr); ok && m.fieldOf(sel.X) == v {
					f(n, sel)
				}
			}
			return true
		})
	}
}
