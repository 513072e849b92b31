package retryscope

import (
	"go/ast"
	"go/token"
	"go/types"
	"sync"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// This file is the suite's one value flow: a syntactic def-use index of
// one function, which answers where a local variable's value comes from
// (its defs, its field stores, Origin) and whether it may go where the
// code does not look (Escapes). The model and the checks (unkeyedpost,
// retrytimeout, keyinloop) all read values through it; a check gets the
// model's index of a function declaration from Result.Defs.
//
// The rules, once for every user:
//
//   - Every assignment is a def: = and := (Op ASSIGN, DEFINE), op= (Op
//     ADD_ASSIGN, ...), ++ and -- (Op INC, DEC; no right-hand side), a var
//     declaration (Op VAR; no right-hand side when it has no value) and a
//     range clause's key and value (Op RANGE; the right-hand side is the
//     ranged expression).
//   - Multi-value assignments: v, err := f() gives each variable result
//     number Tuple of f(); a plain assignment has Tuple -1. Binds counts the
//     first result of a call as the call's value (a request and its error,
//     a key and its error); later results bind nothing.
//   - := and = are both plain defs (Plain); := also declares, which the
//     index does not tell apart: a variable's defs are all its assignments.
//   - A def takes effect where its statement ends (in b = wrap(b) the b on
//     the right is the earlier value); a var declaration's at its name, ++
//     and -- and a range clause's where they start. Origin follows the
//     last plain def before a position.
//   - Closures: the index covers the function it is built over and every
//     function literal in it, so an assignment in a closure is a def of the
//     variable it captures. The index is flow-insensitive apart from
//     positions: it does not know whether a closure runs.
//   - Field stores: v.F = x on a variable v is a FieldSet of v, not a def.
//   - Address-taken and escaping variables: a variable whose value is
//     used other than as a selector's operand, an assignment's left-hand
//     side or a comparison operand (passed to a call, stored elsewhere,
//     &v) Escapes: code the index does not see may change or read it.

// Def is one assignment to a variable (see the rules above). It holds
// the value, not what is assigned: an index holds a def per variable
// (Of); All and EachDef give what each def assigns beside it.
type Def struct {
	rhs   ast.Expr    // the value; nil for ++ and --, and a var without value
	op    token.Token // DEFINE, ASSIGN, ADD_ASSIGN, MUL_ASSIGN, SHL_ASSIGN, INC, ..., RANGE, VAR
	tuple int         // index into rhs's results when rhs returns several values, else -1
	pos   token.Pos   // where the new value takes effect
}

type def = Def

// RHS returns the assigned expression: nil for ++ and -- and a var
// declaration without value; the ranged expression of a range clause.
func (d Def) RHS() ast.Expr { return d.rhs }

// Op returns the def's token (see Def).
func (d Def) Op() token.Token { return d.op }

// Tuple returns the index of the def's value among its right-hand side's
// results, or -1 when the right-hand side is the value.
func (d Def) Tuple() int { return d.tuple }

// Pos returns where the def's value takes effect.
func (d Def) Pos() token.Pos { return d.pos }

// Plain reports whether the def gives the variable a value of its own
// (=, :=, var) rather than changing the one it had (op=, ++, --) or
// stepping through a range.
func (d Def) Plain() bool {
	return d.op == token.DEFINE || d.op == token.ASSIGN || d.op == token.VAR
}

// Binds returns the expression whose value the def gives its left-hand
// side: the right-hand side, also of op=, or the call of a multi-value
// assignment whose first result it takes. It returns nil for later results,
// ++ and --, a range clause and a var declaration without value.
func (d Def) Binds() ast.Expr {
	if d.op == token.RANGE || d.tuple > 0 {
		return nil
	}
	return d.rhs
}

// EachDef calls yield with every def the node n makes and what it
// assigns (a variable's identifier, or an expression such as x.F, m[k],
// *p), in source order: an assignment, ++ or --, a value spec or a range
// clause; other nodes make none.
func EachDef(n ast.Node, yield func(lhs ast.Expr, d Def)) {
	switch n := n.(type) {
	case *ast.AssignStmt:
		for i, lhs := range n.Lhs {
			rhs, tuple := value(i, len(n.Lhs), n.Rhs)
			yield(lhs, Def{rhs: rhs, op: n.Tok, tuple: tuple, pos: n.End()})
		}
	case *ast.IncDecStmt:
		yield(n.X, Def{op: n.Tok, tuple: -1, pos: n.Pos()})
	case *ast.ValueSpec:
		for i, name := range n.Names {
			rhs, tuple := value(i, len(n.Names), n.Values)
			yield(name, Def{rhs: rhs, op: token.VAR, tuple: tuple, pos: name.Pos()})
		}
	case *ast.RangeStmt:
		for _, e := range []ast.Expr{n.Key, n.Value} {
			if e != nil {
				yield(e, Def{rhs: n.X, op: token.RANGE, tuple: -1, pos: n.Pos()})
			}
		}
	}
}

// Assign is a def with what it assigns.
type Assign struct {
	Lhs ast.Expr
	Def
}

// value is the multi-value rule: the value the i-th of n left-hand sides
// gets from rhs, and its index among the results of a call that returns
// several (-1 when the expression is the value itself); nil when there is
// no value.
func value(i, n int, rhs []ast.Expr) (ast.Expr, int) {
	switch len(rhs) {
	case n:
		return rhs[i], -1
	case 1:
		return rhs[0], i
	}
	return nil, -1
}

// FieldSet is an assignment to a field of a variable: v.F = rhs.
type FieldSet struct {
	field string
	rhs   ast.Expr
	pos   token.Pos
}

type fieldSet = FieldSet

// Field returns the name of the field assigned.
func (fs FieldSet) Field() string { return fs.field }

// RHS returns the assigned expression (the call, for x.F, err = f()).
func (fs FieldSet) RHS() ast.Expr { return fs.rhs }

// Pos returns the position of the assignment.
func (fs FieldSet) Pos() token.Pos { return fs.pos }

// DefIndex lists every assignment to each variable in one function (or
// file), closures included.
type DefIndex struct {
	info   *types.Info
	root   ast.Node
	defs   map[types.Object][]Def
	fields map[types.Object][]FieldSet

	// all and escapes are computed the first time a check asks: the
	// model asks neither.
	allOnce    sync.Once
	all        []Assign
	escapeOnce sync.Once
	escapes    map[types.Object]bool
}

type defIndex = DefIndex

// BuildDefIndex indexes the defs of fn, a function or any other node.
func BuildDefIndex(info *types.Info, fn ast.Node) *DefIndex {
	di := &DefIndex{info: info, root: fn, defs: make(map[types.Object][]Def), fields: make(map[types.Object][]FieldSet)}
	ast.Inspect(fn, func(n ast.Node) bool {
		EachDef(n, func(lhs ast.Expr, d Def) { di.add(n, lhs, d) })
		return true
	})
	return di
}

// add records the def d of stmt, which assigns lhs.
func (di *DefIndex) add(stmt ast.Node, lhs ast.Expr, d Def) {
	if o := di.obj(lhs); o != nil {
		di.defs[o] = append(di.defs[o], d)
		return
	}
	if d.op == token.RANGE || d.op == token.VAR {
		return
	}
	if sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr); ok && d.op != token.INC && d.op != token.DEC {
		if o := di.obj(sel.X); o != nil {
			di.fields[o] = append(di.fields[o], FieldSet{field: sel.Sel.Name, rhs: d.rhs, pos: stmt.Pos()})
		}
	}
}

func buildDefIndex(info *types.Info, fn ast.Node) *DefIndex { return BuildDefIndex(info, fn) }

// obj returns the variable the identifier e names, or nil.
func (di *DefIndex) obj(e ast.Expr) types.Object {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if o := di.info.Defs[id]; o != nil {
			return o
		}
		return di.info.Uses[id]
	}
	return nil
}

// Of returns the defs of o in source order.
func (di *DefIndex) Of(o types.Object) []Def { return di.defs[o] }

// FieldSets returns the field stores on o in source order.
func (di *DefIndex) FieldSets(o types.Object) []FieldSet { return di.fields[o] }

// All returns every def of the index in source order, whatever it assigns
// (x.F, m[k] and *p as well as variables); it walks the node once, the
// first time it is asked.
func (di *DefIndex) All() []Assign {
	di.allOnce.Do(func() {
		ast.Inspect(di.root, func(n ast.Node) bool {
			EachDef(n, func(lhs ast.Expr, d Def) { di.all = append(di.all, Assign{Lhs: lhs, Def: d}) })
			return true
		})
	})
	return di.all
}

// Origin resolves a local variable to the value last assigned to it by a
// plain def before pos, again and again (v := w; w := f() resolves v to
// f()). The first result of a multi-value call counts as the call (req,
// err := http.NewRequest(...)); a later result, a variable without a plain
// def before pos (a parameter) and any other expression are returned as
// they are, without parentheses.
func (di *DefIndex) Origin(e ast.Expr, before token.Pos) ast.Expr {
	return di.resolve(e, before, false)
}

// resolve is Origin; with strict, the retry model's rule: it also looks
// through &x, and a variable whose last plain def is any result of a
// multi-value call is not resolved (b, err := newBackoff() leaves b as b),
// nor is one that a multi-value def sets only (such defs are passed over).
func (di *DefIndex) resolve(e ast.Expr, before token.Pos, strict bool) ast.Expr {
	for range maxDepth {
		e = ast.Unparen(e)
		if u, ok := e.(*ast.UnaryExpr); ok && strict && u.Op == token.AND {
			e = ast.Unparen(u.X)
		}
		id, ok := e.(*ast.Ident)
		if !ok {
			return e
		}
		o := di.info.Uses[id]
		if o == nil || !Local(o) {
			return e
		}
		var best *Def
		for i, d := range di.defs[o] {
			if d.Plain() && d.rhs != nil && d.pos < before && (!strict || d.tuple < 0) && (best == nil || d.pos > best.pos) {
				best = &di.defs[o][i]
			}
		}
		if best == nil || best.tuple > 0 {
			return e
		}
		e, before = best.rhs, best.pos
	}
	return e
}

// Escapes reports whether a use of o in the index's node may let its
// value or address go where the index does not see (see the rules above).
func (di *DefIndex) Escapes(o types.Object) bool {
	di.escapeOnce.Do(di.findEscapes)
	return di.escapes[o]
}

func (di *DefIndex) findEscapes() {
	di.escapes = make(map[types.Object]bool)
	astq.Parents(di.root, func(n, parent ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		o := di.info.Uses[id]
		if o == nil {
			return true
		}
		switch p := parent.(type) {
		case *ast.SelectorExpr:
			// v.Method(...) or v.Field: a use that does not let v's value go.
			if p.X == id {
				return true
			}
		case *ast.AssignStmt:
			for _, lhs := range p.Lhs {
				if lhs == id {
					return true
				}
			}
		case *ast.BinaryExpr:
			return true // compared
		case *ast.IfStmt, *ast.ExprStmt:
			return true
		}
		di.escapes[o] = true
		return true
	})
}

// Local reports whether o is a variable declared inside a function (not a
// package-level variable, not a field).
func Local(o types.Object) bool {
	v, ok := o.(*types.Var)
	return ok && !v.IsField() && v.Parent() != nil && v.Parent() != v.Pkg().Scope()
}

func local(o types.Object) bool { return Local(o) }

// IsParam reports whether o is a parameter, a result or a receiver of a
// function or function literal: a variable whose first value comes from
// outside.
func IsParam(o types.Object) bool {
	v, ok := o.(*types.Var)
	if !ok {
		return false
	}
	switch v.Kind() {
	case types.ParamVar, types.ResultVar, types.RecvVar:
		return true
	}
	return false
}

// in reports whether pos lies within n.
func in(n ast.Node, pos token.Pos) bool {
	return n != nil && n.Pos() <= pos && pos < n.End()
}

// Defs returns the def index of the function declaration fd that the
// model built; the index is shared by every pass that asks and must not
// be changed.
func (r *Result) Defs(fd *ast.FuncDecl) *DefIndex {
	if di := r.defs[fd]; di != nil {
		return di
	}
	return BuildDefIndex(r.info, fd) // not a function the model saw
}
