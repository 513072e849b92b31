package unkeyedpost

import (
	"go/ast"
	"go/constant"
	"go/types"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/internal/suppress"
	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// Retrying clients behind a client field: a constructor of the package
// stores the *http.Client of a go-retryablehttp client (StandardClient())
// in a struct field, and the package sends its requests through that
// field, in another function or through a sending helper it passes the
// field to (godo's c.HTTPClient = retryableClient.StandardClient(), then
// DoRequestWithClient(ctx, c.HTTPClient, req)). When the client's retry
// policy retries every method (none set on a NewClient(), or
// DefaultRetryPolicy, or a func literal, function or method of the
// package that never looks at the method) and an unkeyed POST or PATCH of the package is
// sent through the field, the client re-sends it: reported at the client.

// fieldStore is a store of a retrying client's StandardClient() in a
// struct field.
type fieldStore struct {
	field *types.Var
	scope *retryscope.Scope
}

// checkClientFields reports the retrying clients stored in client fields
// that the package's POSTs are sent through.
func (c *checker) checkClientFields() {
	var stores []fieldStore
	seen := make(map[*retryscope.Scope]bool)
	for _, f := range c.pass.Files {
		if ast.IsGenerated(f) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			store := func(key *ast.Ident, rhs ast.Expr) {
				field, ok := c.info.Uses[key].(*types.Var)
				if !ok || !field.IsField() || !astq.IsPointerTo(field.Type(), "net/http", "Client") {
					return
				}
				sc := c.standardClientScope(fd, rhs)
				if sc == nil || seen[sc] || sc.Func != ast.Node(fd) || !c.everyMethod(fd, sc) || c.transportReplaced(fd, field) {
					return
				}
				seen[sc] = true
				stores = append(stores, fieldStore{field, sc})
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.AssignStmt: // c.HTTPClient = rc.StandardClient()
					if len(n.Lhs) != len(n.Rhs) {
						break
					}
					for i, lhs := range n.Lhs {
						if sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr); ok {
							store(sel.Sel, n.Rhs[i])
						}
					}
				case *ast.KeyValueExpr: // &Client{hc: rc.StandardClient()}
					if id, ok := n.Key.(*ast.Ident); ok {
						store(id, n.Value)
					}
				}
				return true
			})
		}
	}
	for _, st := range stores {
		if s := c.fieldSend(st.field); s != nil {
			c.reportClientField(st, s)
		}
	}
}

// everyMethod reports whether the retrying client sc, built in fd,
// retries every method: its CheckRetry is left unset on a NewClient(), or
// every value given it is a policy that retries every method alike
// (everyMethodPolicy).
func (c *checker) everyMethod(fd *ast.FuncDecl, sc *retryscope.Scope) bool {
	var values []ast.Expr
	call, isCall := sc.Node.(*ast.CallExpr)
	if lit, ok := sc.Node.(*ast.CompositeLit); ok {
		for _, elt := range lit.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok && c.predicateField(kv.Key) {
				values = append(values, kv.Value)
			}
		}
	} else if !isCall || len(call.Args) != 0 {
		return false
	}
	di := c.defIndex(fd)
	for _, a := range di.All() {
		rhs := a.Binds()
		if rhs == nil {
			continue
		}
		if u, ok := ast.Unparen(rhs).(*ast.UnaryExpr); ok {
			rhs = u.X
		}
		if ast.Unparen(rhs) != sc.Node {
			continue
		}
		id, ok := ast.Unparen(a.Lhs).(*ast.Ident)
		if !ok {
			return false // stored elsewhere at once: its policy is set where the check does not look
		}
		o := c.obj(id)
		if o == nil || di.Escapes(o) {
			return false
		}
		for _, fs := range di.FieldSets(o) {
			if fs.Field() == "CheckRetry" {
				values = append(values, fs.RHS())
			}
		}
	}
	if len(values) == 0 {
		return isCall // NewClient() sets DefaultRetryPolicy
	}
	for _, v := range values {
		if !c.everyMethodPolicy(v) {
			return false
		}
	}
	return true
}

// resendsEveryMethod reports whether the retrying client sc re-sends a
// POST as it does a GET: every CheckRetry the package gives it, in its
// literal or after construction (retryscope.ClientSettings), is a policy
// that retries every method alike (everyMethodPolicy), or it has none (the
// library's default). A policy the check cannot read, or one that reads
// the request's method, may leave POSTs alone: no finding (issue 47).
func (c *checker) resendsEveryMethod(sc *retryscope.Scope) bool {
	for _, v := range c.res.ClientSettings(sc, "CheckRetry") {
		if !c.everyMethodPolicy(v) {
			return false
		}
	}
	return true
}

// predicateField reports whether key names the retry predicate field of
// a client literal (retryablehttp's Client.CheckRetry).
func (c *checker) predicateField(key ast.Expr) bool {
	id, ok := key.(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := c.info.Uses[id].(*types.Var)
	return ok && retryscope.PredicateField(v)
}

// everyMethodPolicy reports whether the retry policy v (a client's
// CheckRetry) re-sends a POST as it does a GET: a stock policy of the
// library that retries every method alike, or a func literal, function or
// method of the package that can return true and never reads a request's
// method, directly or through a helper of the package it calls
// (go-gitlab's c.retryHTTPCheck, which tests the status alone). A policy
// that reads the method (resp.Request.Method, a comparison or switch on
// it, a helper given it), or that never retries, leaves POSTs alone; so
// may a policy of another package the check cannot read: false.
func (c *checker) everyMethodPolicy(v ast.Expr) bool {
	var body *ast.BlockStmt
	switch x := ast.Unparen(v).(type) {
	case *ast.FuncLit:
		body = x.Body
	case *ast.Ident, *ast.SelectorExpr:
		id, _ := x.(*ast.Ident)
		if sel, ok := x.(*ast.SelectorExpr); ok {
			id = sel.Sel
		}
		fn, ok := c.info.Uses[id].(*types.Func)
		if !ok {
			return false
		}
		if retryscope.EveryMethodPolicy(fn) {
			return true
		}
		fd := c.funcs[fn.Origin()]
		if fd == nil || fd.Body == nil {
			return false
		}
		body = fd.Body
	default:
		return false
	}
	return c.mayRetry(body) && !c.readsMethod(body, 0)
}

// readsMethod reports whether body reads a request's method (the Method
// field of an *http.Request, or of a client library's mirror of it), or
// calls a function or method of the package that does (depth bounds the
// helpers followed).
func (c *checker) readsMethod(body ast.Node, depth int) bool {
	return astq.Search(body, func(n ast.Node, found *bool) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if v, ok := c.info.Uses[n.Sel].(*types.Var); ok && (methodField(v) || n.Sel.Name == "Method" && retryscope.HTTPMirrorType(c.info.TypeOf(n.X), "Request")) {
				*found = true
			}
		case *ast.CallExpr:
			if depth >= 2 {
				break
			}
			fn := typeutil.StaticCallee(c.info, n)
			if fn == nil {
				break
			}
			if fd := c.funcs[fn.Origin()]; fd != nil && fd.Body != nil && fd.Body != body && c.readsMethod(fd.Body, depth+1) {
				*found = true
			}
		}
		return !*found
	})
}

// methodField reports whether v is the Method field of net/http's Request.
func methodField(v *types.Var) bool {
	if !v.IsField() || v.Name() != "Method" || v.Pkg() == nil || v.Pkg().Path() != "net/http" {
		return false
	}
	tn, ok := v.Pkg().Scope().Lookup("Request").(*types.TypeName)
	if !ok {
		return false
	}
	st, ok := tn.Type().Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for f := range st.Fields() {
		if f == v {
			return true
		}
	}
	return false
}

// mayRetry reports whether the policy whose body is body can say retry:
// some return of its own (not of a func literal in it) has a first result
// that is not the constant false.
func (c *checker) mayRetry(body *ast.BlockStmt) bool {
	return astq.Search(body, func(n ast.Node, found *bool) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) == 0 {
				*found = true // named results: not read
				break
			}
			tv, ok := c.info.Types[n.Results[0]]
			if !ok || tv.Value == nil || tv.Value.Kind() != constant.Bool || constant.BoolVal(tv.Value) {
				*found = true
			}
		}
		return !*found
	})
}

// transportReplaced reports whether fd gives the client in field a
// transport that does not wrap the one it had (x.F.Transport = t without
// reading x.F.Transport): the retrying transport may be gone.
func (c *checker) transportReplaced(fd *ast.FuncDecl, field *types.Var) bool {
	ofField := func(e ast.Expr) bool {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Transport" {
			return false
		}
		inner, ok := ast.Unparen(sel.X).(*ast.SelectorExpr)
		return ok && c.info.Uses[inner.Sel] == field
	}
	replaced := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return !replaced
		}
		for i, lhs := range as.Lhs {
			if !ofField(lhs) {
				continue
			}
			wraps := false
			ast.Inspect(as.Rhs[i], func(m ast.Node) bool {
				if e, ok := m.(ast.Expr); ok && ofField(e) {
					wraps = true
				}
				return !wraps
			})
			if !wraps {
				replaced = true
			}
		}
		return !replaced
	})
	return replaced
}

// fieldSend returns the first unkeyed POST or PATCH of the package sent
// through field with (*http.Client).Do: on x.field directly, or on a
// parameter of a sending helper given x.field at a call site (judged with
// that call's arguments).
func (c *checker) fieldSend(field *types.Var) *sendInfo {
	isField := func(e ast.Expr) bool {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		return ok && c.info.Uses[sel.Sel] == field
	}
	var found *sendInfo
	for _, f := range c.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || found != nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || found != nil {
					return found == nil
				}
				if recv := c.doReceiver(call); recv != nil && isField(recv) {
					if s := c.send(fd, call); s != nil && s.req != nil && !c.keyedSend(fd, s) {
						found = s
					}
					return found == nil
				}
				fn := typeutil.StaticCallee(c.info, call)
				if fn == nil {
					return true
				}
				hd := c.funcs[fn.Origin()]
				if hd == nil || c.depth >= 4 {
					return true
				}
				sig := fn.Origin().Signature()
				for i, a := range call.Args {
					if i >= sig.Params().Len() || !isField(a) {
						continue
					}
					if s := c.sentThrough(fd, call, fn, hd, sig.Params().At(i)); s != nil {
						found = s
					}
				}
				return found == nil
			})
		}
	}
	return found
}

// sentThrough returns the unkeyed POST or PATCH that the helper hd (fn,
// called by call in fd) sends with (*http.Client).Do on its client
// parameter p, with call's arguments bound.
func (c *checker) sentThrough(fd *ast.FuncDecl, call *ast.CallExpr, fn *types.Func, hd *ast.FuncDecl, p *types.Var) *sendInfo {
	defer c.bind(fd, call, fn)()
	if c.defIndex(hd).Of(p) != nil {
		return nil // the helper sends another client as well
	}
	var found *sendInfo
	ast.Inspect(hd.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || found != nil {
			return false
		}
		inner, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		recv, ok := ast.Unparen(c.doReceiver(inner)).(*ast.Ident)
		if !ok || c.info.Uses[recv] != p {
			return true
		}
		if s := c.send(hd, inner); s != nil && s.req != nil && !c.keyedSend(hd, s) {
			found = s
		}
		return found == nil
	})
	return found
}

// doReceiver returns the client expression of a (*net/http.Client).Do
// call, or nil.
func (c *checker) doReceiver(call *ast.CallExpr) ast.Expr {
	if c.calleeName(call) != "(*net/http.Client).Do" {
		return nil
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		return sel.X
	}
	return nil
}

// reportClientField reports the client of st, which re-sends s.
func (c *checker) reportClientField(st fieldStore, s *sendInfo) {
	d := analysis.Diagnostic{
		Pos: st.scope.Pos, End: st.scope.Node.End(),
		Message: clientFieldMessage(s.method, st.field.Name()),
		Related: []analysis.RelatedInformation{{Pos: s.call.Pos(), Message: "a " + s.method + " it sends again"}},
	}
	if s.from != nil {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: s.from.Pos(), Message: "where the method " + s.method + " comes from"})
	}
	suppress.Report(c.pass, Name, d)
}

// clientFieldMessage is the finding on a retrying client stored in the
// field named field.
func clientFieldMessage(method, field string) string {
	plural := method + "s"
	if method == "PATCH" {
		plural = "PATCHes"
	}
	msg := "this retrying client re-sends the " + plural + " sent through " + field + " without an idempotency key; key them or check the method"
	if utf8.RuneCountInString(msg) > 120 {
		msg = "this retrying client re-sends " + plural + " without an idempotency key; key them or check the method"
	}
	return msg
}
