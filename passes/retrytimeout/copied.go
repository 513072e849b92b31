package retrytimeout

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/internal/suppress"
	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/names"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// A go-retryablehttp client whose HTTPClient.Timeout is copied from
// another client (godo's New: retryableClient.HTTPClient.Timeout =
// c.HTTPClient.Timeout) has the timeout of that client: none when the
// package itself passes one without (godo's NewFromToken, an
// oauth2.NewClient client). Its requests go through StandardClient(), each
// on its caller's context, whose deadline, if any, spans all the attempts.

const retryable = "github.com/hashicorp/go-retryablehttp"

// maxZeroSteps bounds the values zeroTimeout reads for one copy: a
// parameter's callers fan out.
const maxZeroSteps = 256

// A zero is a client proven to have a zero Timeout: what it is, where it
// is made (when in the analysed code) and, when it reaches the copy as an
// argument of a call of the package, that call and the function making
// it.
type zero struct {
	desc     string
	made     string // how the related information names it, if not desc
	pos, end token.Pos
	via      *ast.CallExpr
	caller   *ast.FuncDecl
}

// checkCopied reports the copies of HTTPClient.Timeout into the retrying
// client that retryablehttp.NewClient() call makes, when every copy reads
// a client proven to have a zero Timeout, the client retries, keeps its
// HTTPClient and hands its sends on through StandardClient().
func (c *checker) checkCopied(s *retryscope.Scope, call *ast.CallExpr) {
	if fn := astq.Callee(c.info, call); fn == nil || fn.FullName() != retryable+".NewClient" {
		return
	}
	if s.Cap.Kind == retryscope.CapKnown && s.Cap.N <= 1 {
		return
	}
	fd := c.declAt(call.Pos())
	f := c.flowAt(call.Pos())
	if fd == nil || f == nil {
		return
	}
	o := assignedTo(c.info, fd, call)
	if o == nil || !f.local(o) || len(f.di.Of(o)) != 1 || f.di.Escapes(o) || f.sets(o, "HTTPClient") {
		return
	}
	copies, standard, ok := c.httpClientUses(fd, o)
	if !ok || len(copies) == 0 || !standard || c.timeoutStored(copies) {
		return
	}
	var first zero
	var src ast.Expr
	for i, as := range copies {
		x, ok := c.timeoutOf(as.Rhs[0])
		if !ok {
			return
		}
		z, ok := c.zeroTimeout(fd, x, 0)
		if !ok {
			return
		}
		if i == 0 {
			first, src = z, x
		}
	}
	what := first.desc
	var related []analysis.RelatedInformation
	if first.pos.IsValid() {
		made := first.desc
		if first.made != "" {
			made = first.made
		}
		related = append(related, analysis.RelatedInformation{Pos: first.pos, End: first.end, Message: "the client without a Timeout: " + made})
	}
	if first.via != nil {
		caller := names.In(c.info.Defs[first.caller.Name], c.pass.Pkg)
		what += " of " + caller
		related = append(related, analysis.RelatedInformation{Pos: first.via.Pos(), End: first.via.Fun.End(), Message: "passed by " + caller})
	}
	as := copies[0]
	suppress.Report(c.pass, Name, analysis.Diagnostic{
		Pos: as.Pos(), End: as.End(), Related: related,
		Message: "copied " + types.ExprString(src) + ".Timeout is 0 (" + what + "): no attempt times out; default it when 0",
	})
}

// assignedTo returns the variable that fd assigns call to, one to one.
func assignedTo(info *types.Info, fd *ast.FuncDecl, call *ast.CallExpr) types.Object {
	var o types.Object
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || o != nil || len(as.Lhs) != len(as.Rhs) {
			return o == nil
		}
		for i, rhs := range as.Rhs {
			if ast.Unparen(rhs) == call {
				if id, ok := as.Lhs[i].(*ast.Ident); ok {
					o = info.ObjectOf(id)
				}
			}
		}
		return o == nil
	})
	return o
}

// httpClientUses reads the uses in fd of o.HTTPClient, o a go-retryablehttp
// client: the assignments of its Timeout (o.HTTPClient.Timeout = x, one to
// one), whether fd calls o.StandardClient(), and false when fd uses
// o.HTTPClient otherwise than to read or assign its Timeout (its Transport
// set, the client passed or copied).
func (c *checker) httpClientUses(fd *ast.FuncDecl, o types.Object) (copies []*ast.AssignStmt, standard, ok bool) {
	ok = true
	var stack []ast.Node
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		stack = append(stack, n)
		sel, isSel := n.(*ast.SelectorExpr)
		if !isSel || c.info.Uses[identOf(sel.X)] != o {
			return true
		}
		if fn, _ := c.info.Uses[sel.Sel].(*types.Func); fn != nil && fn.FullName() == "(*"+retryable+".Client).StandardClient" {
			standard = true
			return true
		}
		v, _ := c.info.Uses[sel.Sel].(*types.Var)
		if v == nil || !v.IsField() || v.Name() != "HTTPClient" || v.Pkg() == nil || v.Pkg().Path() != retryable {
			return true
		}
		// stack: ..., [assign], timeout selector, sel
		if len(stack) < 2 {
			ok = false
			return true
		}
		outer, isSel := stack[len(stack)-2].(*ast.SelectorExpr)
		if !isSel || outer.Sel.Name != "Timeout" || c.info.Selections[outer] == nil {
			ok = false
			return true
		}
		if len(stack) >= 3 {
			if as, isAs := stack[len(stack)-3].(*ast.AssignStmt); isAs && slicesContains(as.Lhs, outer) {
				if len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Tok != token.ASSIGN {
					ok = false
					return true
				}
				copies = append(copies, as)
			}
			if u, isU := stack[len(stack)-3].(*ast.UnaryExpr); isU && u.Op == token.AND {
				ok = false
			}
		}
		return true
	})
	return copies, standard, ok
}

func slicesContains(xs []ast.Expr, x ast.Expr) bool {
	for _, e := range xs {
		if ast.Unparen(e) == x {
			return true
		}
	}
	return false
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// timeoutOf returns x when e reads x.Timeout, x an http.Client.
func (c *checker) timeoutOf(e ast.Expr) (ast.Expr, bool) {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Timeout" || !isClient(c.info.TypeOf(sel.X)) {
		return nil, false
	}
	if s, ok := c.info.Selections[sel]; !ok || s.Kind() != types.FieldVal {
		return nil, false
	}
	return sel.X, true
}

// timeoutStored reports whether the package's non-test code assigns the
// Timeout of an http.Client anywhere but in copies, or takes its address:
// such a store may reach the client a copy reads. Stores into the
// HTTPClient of a go-retryablehttp client (NewClient's own
// cleanhttp.DefaultPooledClient()) are not, unless the package replaces
// that HTTPClient somewhere, maybe with a client a copy reads.
func (c *checker) timeoutStored(copies []*ast.AssignStmt) bool {
	found := false
	isField := func(id *ast.Ident) bool {
		v, _ := c.info.Uses[id].(*types.Var)
		return v != nil && v.IsField() && v.Name() == "HTTPClient" && v.Pkg() != nil && v.Pkg().Path() == retryable
	}
	retryableHTTPClient := func(e ast.Expr) bool {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		return ok && isField(sel.Sel)
	}
	replaced := false
	for _, file := range c.pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				replaced = replaced || slices.ContainsFunc(n.Lhs, retryableHTTPClient)
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok {
					replaced = replaced || isField(id)
				}
			}
			return !replaced
		})
	}
	isTimeout := func(e ast.Expr) bool {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		return ok && sel.Sel.Name == "Timeout" && isClient(c.info.TypeOf(sel.X)) && (replaced || !retryableHTTPClient(sel.X))
	}
	for file := range astq.NonTestFiles(c.pass.Fset, c.pass.Files) {
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if slices.Contains(copies, n) {
					return true
				}
				for _, lhs := range n.Lhs {
					found = found || isTimeout(lhs)
				}
			case *ast.UnaryExpr:
				found = found || n.Op == token.AND && isTimeout(n.X)
			}
			return !found
		})
	}
	return found
}

// zeroTimeout reports whether the http.Client e, read in fd, is proven to
// have a zero Timeout (its Transport aside: the copy takes the Timeout
// only), given that the package assigns no client's Timeout
// (timeoutStored): http.DefaultClient, a literal without Timeout,
// new(http.Client), cleanhttp's clients, an oauth2.NewClient of a context
// carrying no client, traced through local variables, the field of a
// constructor's result (FieldOfCtor) and, for a parameter, the argument one
// call of the package passes.
func (c *checker) zeroTimeout(fd *ast.FuncDecl, e ast.Expr, depth int) (zero, bool) {
	if depth == 0 {
		c.zeroSteps = 0
	}
	c.zeroSteps++
	f := c.flowAt(fd.Pos())
	if depth > maxDepth || c.zeroSteps > maxZeroSteps || f == nil {
		return zero{}, false
	}
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		if lit, ok := ast.Unparen(u.X).(*ast.CompositeLit); ok {
			return c.zeroLit(lit, u)
		}
		return zero{}, false
	}
	if c.isDefaultClient(e) {
		return zero{desc: "http.DefaultClient"}, !c.defaultSet
	}
	switch e := e.(type) {
	case *ast.CompositeLit:
		return c.zeroLit(e, e)
	case *ast.CallExpr:
		fn := astq.Callee(c.info, e)
		if fn == nil {
			return zero{}, false
		}
		switch fn.FullName() {
		case cleanhttp + ".DefaultClient", cleanhttp + ".DefaultPooledClient":
			return zero{desc: "cleanhttp." + fn.Name() + "()", pos: e.Pos(), end: e.End()}, true
		}
		if i, ok := retryscope.ContextClient(fn); ok && i < len(e.Args) {
			if _, ok := f.contextWithoutClient(e.Args[i], 0); ok {
				return zero{desc: fn.Pkg().Name() + "." + fn.Name(), made: types.ExprString(e), pos: e.Pos(), end: e.End()}, !c.defaultSet
			}
			return zero{}, false
		}
		if id, ok := ast.Unparen(e.Fun).(*ast.Ident); ok && id.Name == "new" && len(e.Args) == 1 {
			if _, ok := c.info.Uses[id].(*types.Builtin); ok && isClient(c.info.TypeOf(e.Args[0])) {
				return zero{desc: "new(http.Client)", pos: e.Pos(), end: e.End()}, true
			}
		}
	case *ast.SelectorExpr:
		v, _ := c.info.Uses[e.Sel].(*types.Var)
		if v == nil || !v.IsField() || v.Pkg() != c.pass.Pkg || !isClient(v.Type()) || c.res.FieldReach(v, "Timeout") || c.fieldLeaves(v) {
			return zero{}, false
		}
		cf, ok := c.res.FieldOfCtor(fd, e)
		if !ok || len(cf.Values) == 0 {
			return zero{}, false
		}
		var first zero
		for i, val := range cf.Values {
			z, ok := c.zeroTimeout(val.Func, val.Expr, depth+1)
			if !ok {
				return zero{}, false
			}
			if i == 0 {
				first = z
			}
		}
		return first, true
	case *ast.Ident:
		o, _ := c.info.Uses[e].(*types.Var)
		if o == nil || !retryscope.Local(o) || !c.passedInPackage(fd, o) || f.sets(o, "Timeout") {
			return zero{}, false
		}
		if retryscope.IsParam(o) {
			if len(f.di.Of(o)) > 0 {
				return zero{}, false
			}
			for _, a := range c.res.Args(o) {
				if z, ok := c.zeroTimeout(a.Func, a.Expr, depth+1); ok {
					if z.via == nil {
						z.via, z.caller = a.Call, a.Func
					}
					return z, true
				}
			}
			return zero{}, false
		}
		var first zero
		for i, d := range f.di.Of(o) {
			if !d.Plain() || d.Tuple() != -1 || d.RHS() == nil {
				return zero{}, false
			}
			z, ok := c.zeroTimeout(fd, d.RHS(), depth+1)
			if !ok {
				return zero{}, false
			}
			if i == 0 {
				first = z
			}
		}
		return first, len(f.di.Of(o)) > 0
	}
	return zero{}, false
}

// zeroLit reports whether an http.Client literal leaves Timeout zero.
func (c *checker) zeroLit(lit *ast.CompositeLit, at ast.Expr) (zero, bool) {
	if !isClient(c.info.TypeOf(lit)) {
		return zero{}, false
	}
	f := c.flowAt(lit.Pos())
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return zero{}, false
		}
		if key, _ := kv.Key.(*ast.Ident); key == nil || key.Name == "Timeout" && (f == nil || !f.isZero(kv.Value)) {
			return zero{}, false
		}
	}
	return zero{desc: "an http.Client literal", pos: at.Pos(), end: at.End()}, true
}

// passedInPackage reports whether every use of o in fd that may let it go
// is an argument of a call of a function of the package (which
// timeoutStored and the field checks read), not of another package's.
func (c *checker) passedInPackage(fd *ast.FuncDecl, o types.Object) bool {
	f := c.flowAt(fd.Pos())
	if f == nil {
		return false
	}
	if !f.di.Escapes(o) {
		return true
	}
	ok := true
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, isCall := n.(*ast.CallExpr)
		if !isCall || !ok {
			return ok
		}
		fn := astq.Callee(c.info, call)
		for _, a := range call.Args {
			if c.info.Uses[identOf(a)] == o && (fn == nil || fn.Pkg() != c.pass.Pkg) {
				ok = false
			}
		}
		return ok
	})
	if !ok {
		return false
	}
	// the other uses that escape: stored, returned, its address taken
	esc := false
	astq.Parents(fd.Body, func(n, parent ast.Node) bool {
		id, isID := n.(*ast.Ident)
		if !isID || c.info.Uses[id] != o {
			return true
		}
		switch p := parent.(type) {
		case *ast.SelectorExpr, *ast.BinaryExpr, *ast.IfStmt, *ast.ExprStmt, *ast.CallExpr:
			return true
		case *ast.AssignStmt:
			if slicesContains(p.Lhs, id) {
				return true
			}
		}
		esc = true
		return true
	})
	return !esc
}

// fieldLeaves reports whether the package's non-test code passes the value
// of field v to a function of another package (or a func value), which may
// set its Timeout.
func (c *checker) fieldLeaves(v *types.Var) bool {
	found := false
	for file := range astq.NonTestFiles(c.pass.Fset, c.pass.Files) {
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || found {
				return !found
			}
			fn := astq.Callee(c.info, call)
			for _, a := range call.Args {
				sel, ok := ast.Unparen(a).(*ast.SelectorExpr)
				if ok && c.info.Uses[sel.Sel] == v && (fn == nil || fn.Pkg() != c.pass.Pkg) {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// contextWithoutClient reports whether the context e is proven to carry
// no value (so no oauth2.HTTPClient): context.Background() or TODO(), or
// derived from them by WithCancel, WithTimeout, WithDeadline or
// WithoutCancel, traced through local variables.
func (f *flow) contextWithoutClient(e ast.Expr, depth int) (string, bool) {
	return f.contextRoot(e, depth, valueless)
}

// valueless: the contexts that carry no value.
var valueless = contextRoots{
	"context.Background": rootCtx, "context.TODO": rootCtx,
	"context.WithCancel": throughCtx, "context.WithCancelCause": throughCtx, "context.WithTimeout": throughCtx,
	"context.WithDeadline": throughCtx, "context.WithoutCancel": throughCtx,
}
