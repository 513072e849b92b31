package unkeyedpost

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/flow/value"
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
		root := func(w keys.HeaderWrite) types.Object {
			if p, ok := c.base(c.headerOf(w)).(*ssa.Parameter); ok && p.Parent() == c.vf.P.Func(fd) {
				return p.Object()
			}
			return nil
		}
		visit := func(n ast.Node) {
			for _, w := range keys.Writes(c.info, n) {
				src := c.copyOf(fd, w)
				if src == nil {
					continue
				}
				i, ok := params[root(w)]
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
// h[k] = v }, or h.Add(k, vv) in a range over v), or nil: the name written
// is the key of a range (flow/value) over a header that is fd's parameter,
// as it came in.
func (c *checker) copyOf(fd *ast.FuncDecl, w keys.HeaderWrite) *types.Var {
	if w.Const || w.Header == nil || len(c.rangesAround(fd, w.Node)) == 0 {
		return nil // no range around it: the SSA form is not needed
	}
	_, name, _ := c.written(w)
	rng, key := c.values().Ranged(name, nil)
	if rng == nil || !key || !keys.IsHeader(rng.X.Type()) {
		return nil
	}
	origins := c.vf.Origins(rng.X, nil)
	if len(origins) != 1 {
		return nil
	}
	p, ok := origins[0].(*ssa.Parameter)
	if !ok || p.Parent() != c.vf.P.Func(fd) {
		return nil
	}
	v, _ := p.Object().(*types.Var)
	return v
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
		p, ok := c.base(c.headerOf(w)).(*ssa.Parameter)
		return ok && c.param(fd, p.Object()) == p
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
	if c.inKeySummary || c.values() == nil {
		return true, true // a copy of the summarised helper's parameter: not known
	}
	return true, c.argMayKey(fd, c.vf.Arg(call, j))
}

// paramMayKey reports whether the header parameter p may carry a key: it
// is judged by the argument bound to it (the call the request's method
// came through, or the helper call being resolved); unbound, its callers
// may pass one.
func (c *checker) paramMayKey(p *types.Var) bool {
	a, ok := c.bound[p]
	if !ok || !c.viaParams || c.depth >= 8 || a.Func == nil || c.values() == nil {
		return true
	}
	c.depth++
	defer func() { c.depth-- }()
	return c.argMayKey(a.Func, c.operand(a.Call, a.Expr))
}

// argMayKey reports whether the header v, read in fd, may carry a key:
// none does when every origin of v (flow/value) is nil, a header field of
// fd's receiver (one header for every request), a parameter of fd bound
// to a header that carries none, or a header made in fd (a literal,
// make) that carries no key there.
func (c *checker) argMayKey(fd *ast.FuncDecl, v ssa.Value) bool {
	if v == nil || c.values() == nil {
		return true
	}
	fn := c.vf.P.Func(fd)
	q := &value.Query{Stop: fieldRead}
	for _, o := range c.vf.Origins(v, q) {
		switch o := o.(type) {
		case *ssa.Const:
			if !o.IsNil() {
				return true
			}
		case *ssa.Parameter:
			pv, _ := o.Object().(*types.Var)
			if o.Parent() != fn || pv == nil || c.paramMayKey(pv) {
				return true
			}
		case *ssa.UnOp, *ssa.Field:
			if fd.Recv == nil || fn == nil || len(fn.Params) == 0 || c.base(o) != fn.Params[0] {
				return true
			}
		case *ssa.MakeMap:
			if c.keyedIn(fd, []ssa.Value{o}, false) {
				return true
			}
		case *ssa.Alloc:
			// a variable's cell: what is stored in it is walked
		default:
			return true
		}
	}
	return q.Exhausted
}

// base returns the value at the root of a request, a header or a field
// read: through any chain of fields (c.opts.header: c, req.Header: req),
// the requests a copy method is called on (aliasOf: req.WithContext(ctx),
// req.Raw()), conversions, and a captured variable's cell to the one value
// stored in it.
func (c *checker) base(v ssa.Value) ssa.Value {
	for range 16 {
		switch x := v.(type) {
		case *ssa.Call:
			a := c.aliasOf(x)
			if a == nil {
				return v
			}
			v = a
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return v
			}
			v = x.X
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.Field:
			v = x.X
		case *ssa.FreeVar:
			cell := c.vf.Cell(x)
			if cell == nil {
				return v
			}
			v = cell
		case *ssa.Alloc:
			var stored []ssa.Value
			for _, st := range c.vf.CellStores(x) {
				if _, elem := st.Addr.(*ssa.IndexAddr); !elem {
					stored = append(stored, st.Val)
				}
			}
			if len(stored) != 1 {
				return v
			}
			v = stored[0]
		default:
			return v
		}
	}
	return v
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
