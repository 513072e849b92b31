package retryscope

import (
	"go/ast"
	"go/types"
	"slices"

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
// x.v.Timeout++, &x.v.Timeout).
func (r *Result) FieldReach(v *types.Var, names ...string) bool {
	m := r.model
	found := false
	for file := range astq.NonTestFiles(m.pass.Fset, m.pass.Files) {
		ast.Inspect(file, func(n ast.Node) bool {
			for _, x := range astq.Written(n) {
				sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
				found = found || ok && slices.Contains(names, sel.Sel.Name) && m.fieldOf(sel.X) == v
			}
			return !found
		})
	}
	return found
}

// FieldPassed reports whether the package's non-test code passes the
// value field v holds to a function (configure(x.v)), which may change it.
func (r *Result) FieldPassed(v *types.Var) bool {
	m := r.model
	found := false
	for f := range astq.NonTestFiles(m.pass.Fset, m.pass.Files) {
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
