package retryscope

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// A retry helper whose bounds come in a struct parameter (nats.go's
// retryWithBackoff(f, opts backoffOpts): if opts.attempts > 0 && i >=
// opts.attempts-1 { break }, and select { case <-opts.cancel: return nil
// ... }) is bounded by what each call passes: its loop's cap is only
// bounded, its stop channel the caller's. A call's scope reads the
// argument's fields: an attempts field that is not positive (a constant,
// or a field of the package whose every default is: nats.go's
// MaxResetAttempts, -1 when unset) leaves the cap's exit untaken, so the
// call has no cap; a stop channel field given a signal of the package's
// own (c.subscription.done) is no deadline.

// paramField is a field of one of a function's parameters: opts.attempts.
type paramField struct {
	param int
	field *types.Var
}

// gateOf returns the parameter field that guard conjunct e requires to be
// positive (P.f > 0, 0 < P.f), where P is a parameter of fn.
func (m *model) gateOf(fn ast.Node, e ast.Expr) *paramField {
	b, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok {
		return nil
	}
	var x ast.Expr
	switch {
	case b.Op == token.GTR && m.isZero(b.Y):
		x = b.X
	case b.Op == token.LSS && m.isZero(b.X):
		x = b.Y
	default:
		return nil
	}
	return m.paramFieldOf(fn, x)
}

// paramFieldOf returns the parameter field that e reads (P.f), P a
// parameter of fn.
func (m *model) paramFieldOf(fn ast.Node, e ast.Expr) *paramField {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return nil
	}
	p, ok := m.info.Uses[id].(*types.Var)
	if !ok || !isParamOf(fn, p) {
		return nil
	}
	f, ok := m.info.Uses[sel.Sel].(*types.Var)
	if !ok || !f.IsField() {
		return nil
	}
	ft, _ := astq.Func(fn)
	if ft == nil {
		return nil
	}
	i := 0
	for _, fld := range ft.Params.List {
		for _, n := range fld.Names {
			if m.info.Defs[n] == p {
				return &paramField{param: i, field: f}
			}
			i++
		}
		if len(fld.Names) == 0 {
			i++
		}
	}
	return nil
}

// argField returns the value that arg, a struct passed to a helper, holds
// in field f: the keyed element of its composite literal, directly or
// through a local assigned once and never set field by field; nil when the
// model cannot tell.
func (m *model) argField(di *defIndex, arg ast.Expr, f *types.Var) ast.Expr {
	e := ast.Unparen(arg)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	lit, _ := e.(*ast.CompositeLit)
	if id, ok := e.(*ast.Ident); ok {
		o := m.info.Uses[id]
		if o == nil || !local(o) || IsParam(o) || len(di.defs[o]) != 1 || len(di.FieldSets(o)) > 0 || m.addressTaken(o) {
			return nil
		}
		d := di.defs[o][0]
		if !d.Plain() || d.tuple >= 0 || d.rhs == nil {
			return nil
		}
		lit, _ = ast.Unparen(d.rhs).(*ast.CompositeLit)
	}
	if lit == nil {
		return nil
	}
	v, _ := astq.KeyedValue(m.info, lit, func(v *types.Var, _ *ast.Ident) bool { return v == f })
	return v
}

// nonPositive reports whether e, an attempts value, is known to be 0 or
// less: a constant, or a field of the package whose every default is.
func (m *model) nonPositive(e ast.Expr) bool {
	if n, ok := m.intConst(e); ok {
		return n <= 0
	}
	if f := m.fieldOf(e); f != nil {
		if n, ok := m.intDefault(f, 0); ok {
			return n <= 0
		}
	}
	return false
}
