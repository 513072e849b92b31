package retryscope

import (
	"go/ast"
	"go/constant"
	"go/token"
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
func (w *loopWalk) neverRetries(o types.Object) bool {
	if b, ok := o.Type().Underlying().(*types.Basic); !ok || b.Kind() != types.Bool {
		return false
	}
	found := false
	for _, d := range w.di.defs[o] {
		if !in(w.loop, d.pos) {
			continue
		}
		call, ok := ast.Unparen(d.rhs).(*ast.CallExpr)
		if !ok {
			return false
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		fn := w.m.callee(call)
		if !ok || fn == nil {
			return false
		}
		if recv := fn.Signature().Recv(); recv == nil || !types.IsInterface(recv.Type()) {
			return false
		}
		idx := max(d.tuple, 0)
		ts, ok := w.m.defaultTypes(w.di, sel.X, 0)
		if !ok || len(ts) == 0 {
			return false
		}
		for _, t := range ts {
			if !w.m.saysNo(t, fn.Name(), idx) {
				return false
			}
		}
		found = true
		w.policyAsks = append(w.policyAsks, d.pos)
	}
	return found
}

// policyOnly reports whether the loop starts a new pass only after asking
// its policy (neverRetries): each continue of its body follows a policy
// call made in a block that holds it (wait, ok, _ := r.Retry(...); ...;
// time.Sleep(wait); continue), or is a one-shot pass (if !retried { ...;
// retried = true; continue }: olivere's single pass after a health check
// when no connection was up, before any request went out). A continue on a
// counter of its own (if i < 2 { continue }) retries whatever the policy
// says.
func (w *loopWalk) policyOnly() bool {
	parents := make(map[ast.Node]ast.Node)
	astq.Parents(w.body, func(n, parent ast.Node) bool {
		parents[n] = parent
		return true
	})
	for _, c := range w.contNodes {
		if w.afterAsk(c, parents) || oneShot(w.m.info, c, parents) {
			continue
		}
		return false
	}
	return true
}

// afterAsk reports whether continue c comes after a policy call of the
// pass in a block that holds c.
func (w *loopWalk) afterAsk(c *ast.BranchStmt, parents map[ast.Node]ast.Node) bool {
	for _, at := range w.policyAsks {
		if at >= c.Pos() {
			continue
		}
		for n := parents[c]; n != nil && n != w.loop; n = parents[n] {
			if b, ok := n.(*ast.BlockStmt); ok && b.Pos() <= at && at < b.End() {
				return true
			}
		}
	}
	return false
}

// oneShot reports whether continue c is in the branch of if !flag that
// sets flag = true: it starts at most one more pass.
func oneShot(info *types.Info, c *ast.BranchStmt, parents map[ast.Node]ast.Node) bool {
	for n := parents[c]; n != nil; n = parents[n] {
		ifs, ok := n.(*ast.IfStmt)
		if !ok {
			continue
		}
		u, ok := ast.Unparen(ifs.Cond).(*ast.UnaryExpr)
		if !ok || u.Op != token.NOT {
			continue
		}
		id, ok := ast.Unparen(u.X).(*ast.Ident)
		if !ok {
			continue
		}
		flag := info.Uses[id]
		set := false
		ast.Inspect(ifs.Body, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == 1 && len(as.Rhs) == 1 && as.Pos() < c.Pos() {
				if l, ok := ast.Unparen(as.Lhs[0]).(*ast.Ident); ok && info.Uses[l] == flag && flag != nil {
					if tv, ok := info.Types[as.Rhs[0]]; ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && constant.BoolVal(tv.Value) {
						set = true
					}
				}
			}
			return !set
		})
		if set {
			return true
		}
	}
	return false
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
