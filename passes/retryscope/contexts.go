package retryscope

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// The contexts: what ends a retry that is bounded by a context. A context
// the function makes with WithTimeout or WithDeadline is a deadline in
// scope; context.Background(), TODO() and WithoutCancel have none, and
// WithCancel, WithCancelCause and WithValue keep their parent's (a
// cancel-only context ends when its owner cancels it, at no time of its
// own, like a stop channel); a parameter is the caller's context, unless
// every call of its function in the package is known (Result.ArgsOf) and
// passes a context with no deadline (kafka-go's reader.run, given the
// WithCancel(context.Background()) of Reader.start).

// ctxDerivations says, of a context function by full name, whether a
// context it returns has no deadline (ctxRoot), has a deadline of its own
// (ctxDeadline) or keeps its parent's (ctxThrough, the first argument).
var ctxDerivations = map[string]uint8{
	"context.Background": ctxRoot, "context.TODO": ctxRoot, "context.WithoutCancel": ctxRoot,
	"context.WithCancel": ctxThrough, "context.WithCancelCause": ctxThrough, "context.WithValue": ctxThrough,
	"context.WithTimeout": ctxDeadline, "context.WithDeadline": ctxDeadline,
	"context.WithTimeoutCause": ctxDeadline, "context.WithDeadlineCause": ctxDeadline,
}

const (
	ctxRoot uint8 = iota + 1
	ctxThrough
	ctxDeadline
)

// maxCtxDepth bounds the trace of a context across derivations, locals
// and calls.
const maxCtxDepth = 8

// ctxArgKind classifies a context expression: one passed to a library, or
// a wait's.
func (m *model) ctxArgKind(di *defIndex, e ast.Expr) DeadlineKind {
	return m.ctxExprKind(di, e, 0)
}

// ctxKind classifies the context variable o.
func (m *model) ctxKind(di *defIndex, o types.Object) DeadlineKind {
	return m.ctxVarKind(di, o, 0)
}

func (m *model) ctxExprKind(di *defIndex, e ast.Expr, depth int) DeadlineKind {
	if depth > maxCtxDepth {
		return DeadlineCaller
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		switch ctxDerivations[m.calleeName(e)] {
		case ctxRoot:
			return DeadlineNone
		case ctxDeadline:
			return DeadlineInScope
		case ctxThrough:
			if len(e.Args) > 0 {
				return m.ctxExprKind(di, e.Args[0], depth+1)
			}
		}
	case *ast.Ident:
		if o := m.info.Uses[e]; o != nil {
			return m.ctxVarKind(di, o, depth)
		}
	}
	return DeadlineCaller
}

// ctxVarKind: a local made with a deadline (by any of its assignments) is
// in scope; one whose every assignment has no deadline has none; a
// parameter that every known call passes a context with no deadline has
// none; anything else is the caller's.
func (m *model) ctxVarKind(di *defIndex, o types.Object, depth int) DeadlineKind {
	defs := di.defs[o]
	for _, d := range defs {
		if call, ok := ast.Unparen(d.rhs).(*ast.CallExpr); ok && ctxDerivations[m.calleeName(call)] == ctxDeadline {
			return DeadlineInScope
		}
	}
	if !local(o) || depth >= maxCtxDepth {
		return DeadlineCaller
	}
	if IsParam(o) {
		if len(defs) > 0 {
			return DeadlineCaller
		}
		v, _ := o.(*types.Var)
		args, ok := m.res.ArgsOf(v)
		if !ok {
			return DeadlineCaller
		}
		for _, a := range args {
			adi := m.defIndexAt(a.Pos())
			if adi == nil || m.ctxExprKind(adi, a, depth+1) != DeadlineNone {
				return DeadlineCaller
			}
		}
		return DeadlineNone
	}
	if len(defs) == 0 {
		return DeadlineCaller
	}
	for _, d := range defs {
		if !d.Plain() || d.rhs == nil || d.tuple > 0 || m.ctxExprKind(di, d.rhs, depth+1) != DeadlineNone {
			return DeadlineCaller
		}
	}
	return DeadlineNone
}

// defIndexAt returns the def index of the function declaration holding
// pos, or nil.
func (m *model) defIndexAt(pos token.Pos) *defIndex {
	if fd := m.res.DeclAt(pos); fd != nil {
		return m.defIndex(fd)
	}
	return nil
}

// DeclAt returns the function declaration of the package holding pos, or
// nil.
func (r *Result) DeclAt(pos token.Pos) *ast.FuncDecl {
	for _, f := range r.files {
		if pos < f.FileStart || pos > f.FileEnd {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && fd.Pos() <= pos && pos < fd.End() {
				return fd
			}
		}
	}
	return nil
}

// stopWaitArg reports whether call is a wait helper of the package that
// returns false only when a stop signal of its parameters fires (kafka-go's
// sleep(ctx, d): select { case <-timer.C: return true; case <-ctx.Done():
// return false }), and returns the argument passed for that signal: a
// context, or a channel. !sleep(ctx, d) is then an exit on that signal,
// not on the arguments that size the wait.
func (m *model) stopWaitArg(di *defIndex, call *ast.CallExpr) (ast.Expr, bool) {
	fn := m.callee(call)
	if fn == nil || fn.Pkg() != m.pass.Pkg || m.funcs[fn] == nil {
		return nil, false
	}
	sig := fn.Signature()
	if sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool]) || m.waitCall(di, call) == nil {
		return nil, false
	}
	decl := m.funcs[fn]
	isFalse := func(st ast.Stmt) bool {
		ret, ok := st.(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 {
			return false
		}
		tv, ok := m.info.Types[ret.Results[0]]
		return ok && tv.Value != nil && tv.Value.String() == "false"
	}
	falses, onSignal, index := 0, 0, -1
	astq.InspectOwn(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ReturnStmt:
			if isFalse(n) {
				falses++
			}
		case *ast.CommClause:
			u := recvExpr(n.Comm)
			if u == nil {
				return true
			}
			ch := ast.Unparen(u.X)
			if c, ok := ch.(*ast.CallExpr); ok && m.calleeName(c) == "(context.Context).Done" {
				if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
					ch = sel.X
				}
			}
			id, ok := ast.Unparen(ch).(*ast.Ident)
			if !ok {
				return true
			}
			v, ok := m.info.Uses[id].(*types.Var)
			if !ok {
				return true
			}
			i := paramIndex(sig, v)
			if i < 0 || !isContext(v.Type()) && !stopSignal(v.Type()) {
				return true
			}
			for _, st := range n.Body {
				if isFalse(st) {
					if index >= 0 && index != i {
						index = -2
					} else if index != -2 {
						index = i
					}
					onSignal++
				}
			}
		}
		return true
	})
	if falses == 0 || falses != onSignal || index < 0 || index >= len(call.Args) || sig.Variadic() && index == sig.Params().Len()-1 {
		return nil, false
	}
	return call.Args[index], true
}

// unboundedCaller returns a context with no deadline that the package's
// own code (not its tests) passes for the context parameter o, directly
// or through the context parameters of the functions that pass it on, or
// nil: the retry that ends on o has no deadline on that path, though o's
// function, exported, may be given one elsewhere.
func (m *model) unboundedCaller(o types.Object) ast.Expr {
	return m.unboundedCallerDepth(o, 0, map[types.Object]bool{})
}

func (m *model) unboundedCallerDepth(o types.Object, depth int, seen map[types.Object]bool) ast.Expr {
	v, ok := o.(*types.Var)
	if !ok || !IsParam(v) || depth > maxCtxDepth || seen[v] {
		return nil
	}
	seen[v] = true
	if di := m.defIndexAt(v.Pos()); di == nil || len(di.defs[v]) > 0 {
		return nil // assigned in its function: not only what callers pass
	}
	calls, i := m.res.callsOfParam(v)
	for _, call := range calls {
		if astq.InTestFile(m.pass.Fset, call.Pos()) || call.Ellipsis.IsValid() || i >= len(call.Args) {
			continue
		}
		a := call.Args[i]
		adi := m.defIndexAt(a.Pos())
		if adi == nil {
			continue
		}
		// through a parameter first, to the code that makes the context
		if id, ok := ast.Unparen(a).(*ast.Ident); ok {
			if p := m.info.Uses[id]; p != nil {
				if r := m.unboundedCallerDepth(p, depth+1, seen); r != nil {
					return r
				}
			}
		}
		if m.ctxExprKind(adi, a, 0) == DeadlineNone {
			return a
		}
	}
	return nil
}
