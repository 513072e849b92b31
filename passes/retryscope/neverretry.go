package retryscope

import (
	"go/ast"
	"go/constant"
	"go/types"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// A retry loop may ask a policy value whether to try again: olivere/elastic's
// PerformRequest runs wait, ok, err := retrier.Retry(ctx, n, req, resp, err)
// and leaves when !ok. When that value is, by the package's own defaults,
// of a type whose method says no on every path (the client's retrier is
// noRetries, a *StopRetrier whose Retry returns 0, false, nil, unless a
// user's SetRetrier gives another; the request's own Retrier is nil unless
// a user's Retrier(r) sets one), the loop makes one attempt by default: it
// retries only for the users who configure a policy, which is their layer,
// not the package's.

// neverRetries reports whether o, a policy's decision the loop leaves on
// (fromCounterDecision), is false by the package's defaults: every call
// that gives it a value is a method of an interface, on a value whose
// default types (defaultTypes) all return the constant false in its place.
func (r *condReader) neverRetries(o types.Object) bool {
	if b, ok := o.Type().Underlying().(*types.Basic); !ok || b.Kind() != types.Bool {
		return false
	}
	found := false
	for _, d := range r.di.defs[o] {
		if !in(r.loop, d.pos) {
			continue
		}
		call, ok := ast.Unparen(d.rhs).(*ast.CallExpr)
		if !ok {
			return false
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		fn := r.m.callee(call)
		if !ok || fn == nil {
			return false
		}
		if recv := fn.Signature().Recv(); recv == nil || !types.IsInterface(recv.Type()) {
			return false
		}
		idx := max(d.tuple, 0)
		ts, ok := r.m.defaultTypes(r.di, sel.X, 0)
		if !ok || len(ts) == 0 {
			return false
		}
		for _, t := range ts {
			if !r.m.saysNo(t, fn.Name(), idx) {
				return false
			}
		}
		found = true
	}
	return found
}

// defaultTypes returns the concrete types of the values e holds by the
// package's defaults: a local's values, a field's (fieldTypes), or e's own
// type when it is no interface. ok is false when some value cannot be
// followed.
func (m *model) defaultTypes(di *defIndex, e ast.Expr, depth int) ([]types.Type, bool) {
	if depth > 4 {
		return nil, false
	}
	e = ast.Unparen(e)
	if t := m.info.TypeOf(e); t != nil && !types.IsInterface(t) {
		return []types.Type{t}, true
	}
	if id, ok := e.(*ast.Ident); ok {
		o := m.info.Uses[id]
		if o == nil || !local(o) || di == nil || len(di.defs[o]) == 0 {
			return nil, false // a parameter, a package variable of an interface type
		}
		var out []types.Type
		for _, d := range di.defs[o] {
			if d.rhs == nil || d.tuple >= 0 {
				return nil, false
			}
			ts, ok := m.defaultTypes(di, d.rhs, depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, ts...)
		}
		return out, true
	}
	if v := m.fieldOf(e); v != nil {
		return m.fieldTypes(v, depth+1)
	}
	return nil, false
}

// fieldTypes returns the concrete types of what the package's code stores
// in field v of its own by default: nil, and the stores of a setter or an
// option's closure (optionStore: its users' choice), give none, so a field
// only users set is nil by default.
func (m *model) fieldTypes(v *types.Var, depth int) ([]types.Type, bool) {
	if v.Pkg() != m.pass.Pkg {
		return nil, false
	}
	var out []types.Type
	for _, s := range m.fieldStores()[v] {
		e, di := m.storedValue(s)
		if e == nil {
			return nil, false
		}
		if astq.IsNil(m.info, e) || m.optionStore(s) && (s.fn.Recv == nil || m.fromParam(di, s, e)) {
			continue // an option's closure, a setter's parameter
		}
		if m.fromParam(di, s, e) {
			return nil, false // a constructor's parameter: what every user passes
		}
		ts, ok := m.defaultTypes(di, e, depth)
		if !ok {
			return nil, false
		}
		out = append(out, ts...)
	}
	return out, true
}

// saysNo reports whether the method name of type t, declared in this
// package, returns the constant false as its result i on every return.
func (m *model) saysNo(t types.Type, name string, i int) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, m.pass.Pkg, name)
	fn, ok := obj.(*types.Func)
	if !ok || fn.Pkg() != m.pass.Pkg {
		return false
	}
	decl := m.funcs[fn]
	if decl == nil || decl.Body == nil {
		return false
	}
	returns := astq.Returns(decl.Body)
	for _, r := range returns {
		if i >= len(r.Results) {
			return false
		}
		if tv, ok := m.info.Types[r.Results[i]]; !ok || tv.Value == nil || tv.Value.Kind() != constant.Bool || constant.BoolVal(tv.Value) {
			return false
		}
	}
	return len(returns) > 0
}
