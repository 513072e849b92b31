package retryscope

import (
	"go/ast"
	"go/token"
	"go/types"
)

// def is one assignment to a local variable.
type def struct {
	rhs   ast.Expr    // the value; nil for ++ and --
	op    token.Token // DEFINE, ASSIGN, ADD_ASSIGN, MUL_ASSIGN, SHL_ASSIGN, INC, ..., RANGE, VAR
	tuple int         // index into rhs's results when rhs returns several values, else -1
	pos   token.Pos   // where the new value takes effect
}

// fieldSet is an assignment to a field of a local variable: v.F = rhs.
type fieldSet struct {
	field string
	rhs   ast.Expr
	pos   token.Pos
}

// defIndex lists every assignment to each variable in one outermost
// function, closures included.
type defIndex struct {
	defs   map[types.Object][]def
	fields map[types.Object][]fieldSet
}

func buildDefIndex(info *types.Info, fn ast.Node) *defIndex {
	di := &defIndex{defs: make(map[types.Object][]def), fields: make(map[types.Object][]fieldSet)}
	obj := func(e ast.Expr) types.Object {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if o := info.Defs[id]; o != nil {
				return o
			}
			return info.Uses[id]
		}
		return nil
	}
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				var rhs ast.Expr
				tuple := -1
				if len(n.Rhs) == len(n.Lhs) {
					rhs = n.Rhs[i]
				} else if len(n.Rhs) == 1 {
					rhs, tuple = n.Rhs[0], i
				}
				if o := obj(lhs); o != nil {
					// The assignment takes effect at the end of the statement:
					// in b = wrap(b), the b on the right is the earlier value.
					di.defs[o] = append(di.defs[o], def{rhs: rhs, op: n.Tok, tuple: tuple, pos: n.End()})
					continue
				}
				if sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr); ok {
					if o := obj(sel.X); o != nil {
						di.fields[o] = append(di.fields[o], fieldSet{field: sel.Sel.Name, rhs: rhs, pos: n.Pos()})
					}
				}
			}
		case *ast.IncDecStmt:
			if o := obj(n.X); o != nil {
				di.defs[o] = append(di.defs[o], def{op: n.Tok, tuple: -1, pos: n.Pos()})
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				o := info.Defs[name]
				if o == nil {
					continue
				}
				d := def{op: token.VAR, tuple: -1, pos: name.Pos()}
				if len(n.Values) == len(n.Names) {
					d.rhs = n.Values[i]
				} else if len(n.Values) == 1 {
					d.rhs, d.tuple = n.Values[0], i
				}
				di.defs[o] = append(di.defs[o], d)
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if o := obj(e); o != nil {
					di.defs[o] = append(di.defs[o], def{rhs: n.X, op: token.RANGE, tuple: -1, pos: n.Pos()})
				}
			}
		}
		return true
	})
	return di
}

// local reports whether o is a variable declared inside a function (not a
// package-level variable, not a field).
func local(o types.Object) bool {
	v, ok := o.(*types.Var)
	return ok && !v.IsField() && v.Parent() != nil && v.Parent() != v.Pkg().Scope()
}

// in reports whether pos lies within n.
func in(n ast.Node, pos token.Pos) bool {
	return n != nil && n.Pos() <= pos && pos < n.End()
}
