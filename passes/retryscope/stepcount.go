package retryscope

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// A loop can count its attempts in a field of a local value rather than
// in a variable: for b.Steps > 0 { ...; time.Sleep(b.Step()) }, where the
// method Step (pointer receiver, this package) decrements b.Steps. This is
// the apimachinery wait.ExponentialBackoff loop, copied into many modules
// (go-containerregistry's internal/retry/wait among them): it is bounded
// by the Steps it was given, a number the model does not read.

// fieldCounter returns the field that e counts in: x.F where x is a local
// variable and F an integer field, or nil.
func (r *condReader) fieldCounter(e ast.Expr) types.Object {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	base := r.obj(sel.X)
	if base == nil || !local(base) {
		return nil
	}
	f, ok := r.m.info.Uses[sel.Sel].(*types.Var)
	if !ok || !f.IsField() || !isInteger(f.Type()) {
		return nil
	}
	return f
}

// countsDownIn records, for a call x.M() on a local x whose method M (of
// this package, pointer receiver) decrements a field of its receiver, that
// field as a counter counting down.
func (r *condReader) countsDownIn(call *ast.CallExpr) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	if base := r.obj(sel.X); base == nil || !local(base) {
		return
	}
	fn, ok := r.m.info.Uses[sel.Sel].(*types.Func)
	if !ok {
		return
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return
	}
	if _, ok := recv.Type().(*types.Pointer); !ok {
		return // a value receiver decrements a copy
	}
	fd := r.m.funcs[fn.Origin()]
	if fd == nil || fd.Body == nil || fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
		return
	}
	rv := r.m.info.Defs[fd.Recv.List[0].Names[0]]
	if rv == nil {
		return
	}
	astq.InspectOwn(fd.Body, func(n ast.Node) bool {
		var lhs ast.Expr
		switch n := n.(type) {
		case *ast.IncDecStmt:
			if n.Tok == token.DEC {
				lhs = n.X
			}
		case *ast.AssignStmt:
			if n.Tok == token.SUB_ASSIGN && len(n.Lhs) == 1 {
				lhs = n.Lhs[0]
			}
		}
		if s, ok := ast.Unparen(lhs).(*ast.SelectorExpr); ok {
			if id, ok := ast.Unparen(s.X).(*ast.Ident); ok && r.m.info.Uses[id] == rv {
				if f, ok := r.m.info.Uses[s.Sel].(*types.Var); ok && f.IsField() && isInteger(f.Type()) {
					r.counts[f] = true
					r.down[f] = true
				}
			}
		}
		return true
	})
}
