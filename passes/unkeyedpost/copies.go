package unkeyedpost

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/keys"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// Header copies: a helper of the package that copies the entries of one
// header parameter into another (cloudflare-go's copyHeader(target,
// source): for k, vs := range source { target[k] = vs }) keys its target
// only with what its source holds. The copy is judged where the source is
// known: at the call, by the header passed for it, following the call
// sites the request's method came through (sendInfo.via).

// findCopies records, per package function, the header parameters it
// copies another header parameter into: copies[fn][i] = j when fn writes
// the entries of parameter j, by their own names, into parameter i.
func (c *checker) findCopies() {
	for fn, fd := range c.funcs {
		params := make(map[types.Object]int)
		for id, i := range astq.Params(c.info, fd) {
			params[c.info.Defs[id]] = i
		}
		visit := func(n ast.Node) {
			for _, w := range keys.Writes(c.info, n) {
				src := c.copyOf(fd, w)
				if src == nil {
					continue
				}
				i, ok := params[c.rootObj(w.Header)]
				if j := params[src]; ok && i != j {
					if c.copies[fn] == nil {
						c.copies[fn] = make(map[int]int)
					}
					c.copies[fn][i] = j
				}
			}
		}
		astq.InspectOwn(fd.Body, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.CallExpr, *ast.AssignStmt:
				visit(n)
			}
			return true
		})
	}
}

// copyOf returns the header parameter of fd whose entries the header
// write w copies under their own names (for k, v := range src {
// h[k] = v }, or h.Add(k, vv) in a range over v), or nil.
func (c *checker) copyOf(fd *ast.FuncDecl, w keys.HeaderWrite) *types.Var {
	if w.Const || w.Header == nil {
		return nil
	}
	var name ast.Expr
	switch n := w.Node.(type) {
	case *ast.CallExpr:
		if len(n.Args) > 0 {
			name = n.Args[0]
		}
	case *ast.AssignStmt:
		if len(n.Lhs) == 1 {
			if ix, ok := ast.Unparen(n.Lhs[0]).(*ast.IndexExpr); ok {
				name = ix.Index
			}
		}
	}
	id, ok := ast.Unparen(name).(*ast.Ident)
	if !ok || c.obj(id) == nil {
		return nil
	}
	for _, rs := range c.rangesAround(fd, w.Node) {
		k, ok := rs.Key.(*ast.Ident)
		if !ok || c.obj(k) != c.obj(id) {
			continue
		}
		x, ok := ast.Unparen(rs.X).(*ast.Ident)
		if !ok || !keys.IsHeader(c.info.TypeOf(x)) {
			return nil
		}
		if v, ok := c.obj(x).(*types.Var); ok && isParam(c.info, fd, v) && c.defIndex(fd).Of(v) == nil {
			return v
		}
		return nil
	}
	return nil
}

// copyJudged reports whether the header write w in fd copies a header
// parameter that carries no key (strict counts the copy, as code it
// cannot see into). While the helpers are summarised the copy is left to
// their call sites (copies).
func (c *checker) copyJudged(fd *ast.FuncDecl, w keys.HeaderWrite, strict bool) bool {
	if strict {
		return false
	}
	src := c.copyOf(fd, w)
	if src == nil {
		return false
	}
	if c.inKeySummary {
		// into a parameter: findCopies has it, for the call sites
		v, ok := c.rootObj(w.Header).(*types.Var)
		return ok && isParam(c.info, fd, v)
	}
	return !c.paramMayKey(src)
}

// copiedKey reports whether the call copies into its i-th argument, with
// a helper of the package (copies), a header that may carry a key.
func (c *checker) copiedKey(fd *ast.FuncDecl, fn *types.Func, call *ast.CallExpr, i int) (copied, key bool) {
	sig := fn.Origin().Signature()
	j, ok := c.copies[fn.Origin()][c.paramIndex(fn, i)]
	if !ok || j >= len(call.Args) || sig.Variadic() && j >= sig.Params().Len()-1 {
		return false, false
	}
	if c.inKeySummary {
		return true, true // a copy of the summarised helper's parameter: not known
	}
	return true, c.argMayKey(fd, call.Args[j])
}

// paramMayKey reports whether the header parameter p may carry a key: it
// is judged by the argument bound to it (the call the request's method
// came through, or the helper call being resolved); unbound, its callers
// may pass one.
func (c *checker) paramMayKey(p *types.Var) bool {
	a, ok := c.bound[p]
	if !ok || !c.viaParams || c.depth >= 8 || a.Func == nil {
		return true
	}
	c.depth++
	defer func() { c.depth-- }()
	return c.argMayKey(a.Func, a.Expr)
}

// argMayKey reports whether the header e, read in fd, may carry a key:
// nil, a header the receiver of fd holds for every request, and a local
// header built from literals and constant names none a key carry none.
func (c *checker) argMayKey(fd *ast.FuncDecl, e ast.Expr) bool {
	e = ast.Unparen(e)
	if c.isNil(e) {
		return false
	}
	switch x := e.(type) {
	case *ast.CompositeLit:
		return c.litKeyed(x)
	case *ast.SelectorExpr:
		f, ok := c.info.Uses[x.Sel].(*types.Var)
		return !ok || !f.IsField() || !c.isReceiver(fd, c.rootObj(x))
	case *ast.Ident:
		v, ok := c.info.Uses[x].(*types.Var)
		if !ok {
			return true
		}
		if isParam(c.info, fd, v) {
			if c.defIndex(fd).Of(v) != nil {
				return true
			}
			return c.paramMayKey(v)
		}
		if !retryscope.Local(v) {
			return true
		}
		defs := c.defIndex(fd).Of(v)
		if len(defs) == 0 {
			return true
		}
		for _, d := range defs {
			switch rhs := ast.Unparen(d.RHS()).(type) {
			case *ast.CompositeLit:
				if !d.Plain() || c.litKeyed(rhs) {
					return true
				}
			case *ast.CallExpr:
				// make(http.Header, n)
				id, ok := ast.Unparen(rhs.Fun).(*ast.Ident)
				if _, builtin := c.info.Uses[id].(*types.Builtin); !ok || !builtin || id.Name != "make" || !d.Plain() {
					return true
				}
			default:
				return true
			}
		}
		return c.keyedIn(fd, []types.Object{v}, false)
	}
	return true
}

// litKeyed reports whether an http.Header literal may carry a key.
func (c *checker) litKeyed(lit *ast.CompositeLit) bool {
	for _, w := range keys.Writes(c.info, lit) {
		if !w.Const || c.names.Header(w.Name) {
			return true
		}
	}
	return false
}

// isReceiver reports whether o is fd's receiver.
func (c *checker) isReceiver(fd *ast.FuncDecl, o types.Object) bool {
	if o == nil || fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
		return false
	}
	return c.info.Defs[fd.Recv.List[0].Names[0]] == o
}

// withVia binds, while a send is judged, the parameters of the functions
// its method or request came through to the arguments of those calls;
// the function it returns undoes that.
func (c *checker) withVia(via []retryscope.Arg) func() {
	if len(via) == 0 {
		return func() {}
	}
	saved := c.bound
	c.bound = make(map[*types.Var]retryscope.Arg)
	for p, a := range saved {
		c.bound[p] = a
	}
	for _, a := range via {
		fn := typeutil.StaticCallee(c.info, a.Call)
		if fn == nil {
			continue
		}
		sig := fn.Origin().Signature()
		for i, arg := range a.Call.Args {
			if i >= sig.Params().Len() || sig.Variadic() && i >= sig.Params().Len()-1 {
				break
			}
			if _, ok := c.bound[sig.Params().At(i)]; !ok {
				c.bound[sig.Params().At(i)] = retryscope.Arg{Expr: arg, Func: a.Func, Call: a.Call}
			}
		}
	}
	return func() { c.bound = saved }
}
