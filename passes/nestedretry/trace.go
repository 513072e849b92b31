package nestedretry

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// maxDepth bounds how far a value is traced back through variables,
// fields and function results.
const maxDepth = 8

// index records, for the whole package, the values assigned to each
// variable and field, so that a client value can be traced back to where
// it is built and configured.
type index struct {
	pkg    *types.Package
	info   *types.Info
	defs   map[types.Object][]ast.Expr // values assigned to a variable or to a field of this package's types
	uses   map[types.Object][]ast.Node // v.F = x statements and v.M(...) calls on a local variable v
	zero   map[types.Object]bool       // declared without a value (var v T)
	open   map[types.Object]bool       // parameters, results and range variables: values from elsewhere
	funcs  map[*types.Func]*ast.FuncDecl
	skip   map[*ast.FuncLit]bool // closures stored, returned or put in literals: reached only by calls
	encl   map[*ast.FuncLit]*ast.FuncDecl
	litOf  map[types.Object]*ast.FuncLit // a local variable whose only value is a closure
	params map[types.Object]bool
	// regions holds the region of each variable traced from the start
	// (region of an expression that is the variable): a package's calls
	// of one client share it (each stripe-go service method's c.B).
	regions map[*types.Var]*region
	// returns holds each function's returned expressions, once listed.
	returns map[*ast.FuncDecl][]ast.Expr
}

func buildIndex(pkg *types.Package, info *types.Info, files []*ast.File) *index {
	x := &index{
		pkg: pkg, info: info,
		defs:    make(map[types.Object][]ast.Expr),
		uses:    make(map[types.Object][]ast.Node),
		zero:    make(map[types.Object]bool),
		open:    make(map[types.Object]bool),
		funcs:   make(map[*types.Func]*ast.FuncDecl),
		skip:    make(map[*ast.FuncLit]bool),
		encl:    make(map[*ast.FuncLit]*ast.FuncDecl),
		litOf:   make(map[types.Object]*ast.FuncLit),
		regions: make(map[*types.Var]*region),
		returns: make(map[*ast.FuncDecl][]ast.Expr),
	}
	for _, f := range files {
		var decl *ast.FuncDecl
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				decl = n
				if fn, ok := info.Defs[n.Name].(*types.Func); ok && n.Body != nil {
					x.funcs[fn] = n
				}
				x.fields(n.Recv)
			case *ast.FuncType:
				x.fields(n.Params)
				x.fields(n.Results)
			case *ast.FuncLit:
				if decl != nil {
					x.encl[n] = decl
				}
			case *ast.AssignStmt:
				x.assign(n)
			case *ast.ValueSpec:
				for i, name := range n.Names {
					o := info.Defs[name]
					if o == nil {
						continue
					}
					switch {
					case len(n.Values) == len(n.Names):
						x.def(o, n.Values[i])
					case len(n.Values) == 1:
						x.def(o, n.Values[0])
					default:
						x.zero[o] = true
					}
				}
			case *ast.RangeStmt:
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if id, ok := e.(*ast.Ident); ok {
						if o := x.obj(id); o != nil {
							x.open[o] = true
						}
					}
				}
			case *ast.CompositeLit:
				for _, elt := range n.Elts {
					v := elt
					if kv, ok := elt.(*ast.KeyValueExpr); ok {
						v = kv.Value
						if id, ok := kv.Key.(*ast.Ident); ok {
							if fld, ok := info.Uses[id].(*types.Var); ok && fld.IsField() {
								x.defs[fld] = append(x.defs[fld], kv.Value)
							}
						}
					}
					if lit, ok := ast.Unparen(v).(*ast.FuncLit); ok {
						x.skip[lit] = true
					}
				}
			case *ast.ReturnStmt:
				for _, r := range n.Results {
					if lit, ok := ast.Unparen(r).(*ast.FuncLit); ok {
						x.skip[lit] = true
					}
				}
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
					if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok {
						if v, ok := info.Uses[id].(*types.Var); ok && x.local(v) {
							x.uses[v] = append(x.uses[v], n)
						}
					}
				}
			}
			return true
		})
	}
	for o, defs := range x.defs {
		if len(defs) == 1 {
			if lit, ok := ast.Unparen(defs[0]).(*ast.FuncLit); ok {
				x.litOf[o] = lit
			}
		}
	}
	return x
}

func (x *index) fields(fl *ast.FieldList) {
	if fl == nil {
		return
	}
	for _, f := range fl.List {
		for _, name := range f.Names {
			if o := x.info.Defs[name]; o != nil {
				x.open[o] = true
			}
		}
	}
}

func (x *index) obj(id *ast.Ident) types.Object {
	if o := x.info.Defs[id]; o != nil {
		return o
	}
	return x.info.Uses[id]
}

func (x *index) def(o types.Object, v ast.Expr) {
	x.defs[o] = append(x.defs[o], v)
	if lit, ok := ast.Unparen(v).(*ast.FuncLit); ok {
		x.skip[lit] = true
	}
}

func (x *index) assign(n *ast.AssignStmt) {
	if n.Tok != token.ASSIGN && n.Tok != token.DEFINE {
		return
	}
	for i, lhs := range n.Lhs {
		var rhs ast.Expr
		switch {
		case len(n.Rhs) == len(n.Lhs):
			rhs = n.Rhs[i]
		case len(n.Rhs) == 1:
			rhs = n.Rhs[0]
		default:
			continue
		}
		switch l := ast.Unparen(lhs).(type) {
		case *ast.Ident:
			if o := x.obj(l); o != nil {
				x.def(o, rhs)
			}
		case *ast.SelectorExpr:
			if fld, ok := x.info.Uses[l.Sel].(*types.Var); ok && fld.IsField() {
				x.def(fld, rhs)
			}
			if id, ok := ast.Unparen(l.X).(*ast.Ident); ok {
				if v, ok := x.info.Uses[id].(*types.Var); ok && x.local(v) {
					x.uses[v] = append(x.uses[v], n)
				}
			}
		}
	}
}

// local reports whether v is a variable declared in a function.
func (x *index) local(v *types.Var) bool {
	return !v.IsField() && v.Pkg() == x.pkg && v.Parent() != nil && v.Parent() != x.pkg.Scope()
}

// region is the code that builds and configures a value: the expressions it
// comes from, the statements that set its fields or call its methods, and,
// recursively, the same for the variables those mention. Open means some of
// it comes from outside the package or the function (a parameter, a field
// never assigned here, another package's variable).
type region struct {
	nodes []ast.Node
	open  bool
}

// region traces the values of es. The region of a variable is traced
// once: it depends on the variable alone (the index does not change).
func (x *index) region(es ...ast.Expr) *region {
	var v *types.Var
	if len(es) == 1 {
		if v = x.varOf(strip(es[0])); v != nil {
			if r := x.regions[v]; r != nil {
				return r
			}
		}
	}
	t := &tracer{x: x, r: &region{}, seen: make(map[types.Object]bool), seenNode: make(map[ast.Node]bool)}
	for _, e := range es {
		t.expr(e, 0)
	}
	if v != nil {
		x.regions[v] = t.r
	}
	return t.r
}

// strip removes the parentheses, & and * around e: the value traced is
// the one they hold.
func strip(e ast.Expr) ast.Expr {
	for {
		switch v := ast.Unparen(e).(type) {
		case *ast.UnaryExpr:
			if v.Op != token.AND {
				return v
			}
			e = v.X
		case *ast.StarExpr:
			e = v.X
		default:
			return v
		}
	}
}

// varOf returns the variable that e (stripped) is traced as: a variable,
// a field of this package's types, another package's variable; nil for
// anything else.
func (x *index) varOf(e ast.Expr) *types.Var {
	switch v := e.(type) {
	case *ast.Ident:
		o, _ := x.info.Uses[v].(*types.Var)
		return o
	case *ast.SelectorExpr:
		if sel, ok := x.info.Selections[v]; ok {
			if sel.Kind() == types.FieldVal && sel.Obj().Pkg() == x.pkg {
				return sel.Obj().(*types.Var)
			}
			return nil
		}
		o, _ := x.info.Uses[v.Sel].(*types.Var) // another package's variable
		return o
	}
	return nil
}

type tracer struct {
	x        *index
	r        *region
	seen     map[types.Object]bool
	seenNode map[ast.Node]bool
}

// expr adds the sources of e's value.
func (t *tracer) expr(e ast.Expr, depth int) {
	if e == nil {
		return
	}
	if depth > maxDepth {
		t.r.open = true
		return
	}
	e = strip(e)
	switch v := e.(type) {
	case *ast.Ident:
		if o := t.x.varOf(v); o != nil {
			t.variable(o, depth)
		}
		return
	case *ast.SelectorExpr:
		if o := t.x.varOf(v); o != nil {
			t.variable(o, depth)
		} else if _, ok := t.x.info.Selections[v]; ok {
			// another package's field, or a method value: trace the
			// value it is selected from
			t.expr(v.X, depth+1)
		}
		return
	}
	t.node(e, depth)
}

// variable adds the values assigned to a variable or field.
func (t *tracer) variable(v *types.Var, depth int) {
	if t.seen[v] {
		return
	}
	t.seen[v] = true
	defs := t.x.defs[v]
	if t.x.open[v] || len(defs) == 0 && !t.x.zero[v] {
		t.r.open = true
	}
	for _, d := range defs {
		t.expr(d, depth+1)
	}
	// Statements that set its fields count with the values they set;
	// calls of its methods count by themselves (their other arguments
	// are not the variable's configuration).
	for _, u := range t.x.uses[v] {
		if t.seenNode[u] {
			continue
		}
		t.seenNode[u] = true
		t.r.nodes = append(t.r.nodes, u)
		if as, ok := u.(*ast.AssignStmt); ok {
			for i, lhs := range as.Lhs {
				if sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr); ok && len(as.Rhs) == len(as.Lhs) {
					if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && t.x.info.Uses[id] == v {
						t.expr(as.Rhs[i], depth+1)
					}
				}
			}
		}
	}
}

// node adds n and traces the variables it mentions and the results of this
// package's functions it calls.
func (t *tracer) node(n ast.Node, depth int) {
	if t.seenNode[n] {
		return
	}
	t.seenNode[n] = true
	t.r.nodes = append(t.r.nodes, n)
	ast.Inspect(n, func(c ast.Node) bool {
		switch c := c.(type) {
		case *ast.Ident:
			if v, ok := t.x.info.Uses[c].(*types.Var); ok && follows(v.Type()) {
				if v.IsField() {
					return true // keys of composite literals; selections are traced below
				}
				t.variable(v, depth+1)
			}
		case *ast.SelectorExpr:
			if sel, ok := t.x.info.Selections[c]; ok && sel.Kind() == types.FieldVal && sel.Obj().Pkg() == t.x.pkg && follows(sel.Obj().Type()) {
				t.variable(sel.Obj().(*types.Var), depth+1)
			}
		case *ast.CallExpr:
			if fn := typeutil.StaticCallee(t.x.info, c); fn != nil {
				if d := t.x.funcs[fn.Origin()]; d != nil && d.Type.Results != nil && depth < maxDepth {
					t.results(d, depth+1)
				}
			}
		}
		return true
	})
}

// results adds the values a function of this package returns.
func (t *tracer) results(d *ast.FuncDecl, depth int) {
	for _, r := range t.x.returned(d) {
		t.expr(r, depth)
	}
}

// returned lists the expressions d's return statements return (not its
// closures'), in order, once.
func (x *index) returned(d *ast.FuncDecl) []ast.Expr {
	rs, ok := x.returns[d]
	if ok {
		return rs
	}
	astq.InspectOwn(d.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ReturnStmt:
			rs = append(rs, n.Results...)
		}
		return true
	})
	x.returns[d] = rs
	return rs
}

// follows reports whether a variable of type typ may carry client
// configuration: not a number, string, bool, error or context.
func follows(typ types.Type) bool {
	switch u := typ.Underlying().(type) {
	case *types.Basic:
		return false
	case *types.Interface:
		if n, ok := types.Unalias(typ).(*types.Named); ok && n.Obj().Pkg() != nil {
			switch n.Obj().Pkg().Path() + "." + n.Obj().Name() {
			case "context.Context":
				return false
			}
		}
		if types.Identical(typ, types.Universe.Lookup("error").Type()) {
			return false
		}
		_ = u
	}
	return true
}
