package unkeyedpost

import (
	"cmp"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/internal/suppress"
	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/flow/value"
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
			store := func(key *ast.Ident, at token.Pos) {
				field, ok := c.info.Uses[key].(*types.Var)
				if !ok || !field.IsField() || !astq.IsPointerTo(field.Type(), "net/http", "Client") || c.values() == nil {
					return
				}
				sc := c.standardClientScope(c.vf.StoredAt(at))
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
					for _, lhs := range n.Lhs {
						if sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr); ok {
							store(sel.Sel, sel.Sel.Pos())
						}
					}
				case *ast.KeyValueExpr: // &Client{hc: rc.StandardClient()}
					if id, ok := n.Key.(*ast.Ident); ok {
						store(id, n.Colon)
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
// (everyMethodPolicy). The values are the stores into the client's
// predicate field (flow/value), in its literal or after construction; a
// client that goes anywhere but to its own methods and fields (stored,
// passed, returned) may get its policy where the check does not look.
func (c *checker) everyMethod(fd *ast.FuncDecl, sc *retryscope.Scope) bool {
	call, isCall := sc.Node.(*ast.CallExpr)
	if _, lit := sc.Node.(*ast.CompositeLit); !lit && (!isCall || len(call.Args) != 0) {
		return false
	}
	v := c.clientValue(sc.Node)
	if v == nil {
		return false
	}
	var values []ast.Expr
	refs := v.Referrers()
	if refs != nil {
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.FieldAddr:
				if fv := value.FieldVar(r.X.Type(), r.Field); fv == nil || !retryscope.PredicateField(fv) {
					continue
				}
				frefs := r.Referrers()
				if frefs == nil {
					continue
				}
				for _, fr := range *frefs {
					if st, ok := fr.(*ssa.Store); ok && st.Addr == r {
						e := c.storedExpr(fd, st)
						if e == nil {
							return false
						}
						values = append(values, e)
					}
				}
			case *ssa.Call:
				if com := r.Common(); com.IsInvoke() || com.Signature().Recv() == nil || slices.Index(com.Args, v) != 0 || slices.Contains(com.Args[1:], v) {
					return false // given to a call: its policy may be set there
				}
			case *ssa.BinOp, *ssa.DebugRef:
			default:
				return false // stored, returned: its policy is set where the check does not look
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

// clientValue returns the SSA value of a retrying client's construction:
// the NewClient() call, or the cell a client literal is built in.
func (c *checker) clientValue(node ast.Node) ssa.Value {
	if c.values() == nil {
		return nil
	}
	switch n := node.(type) {
	case *ast.CallExpr:
		return c.vf.ValueOf(c.info, n)
	case *ast.CompositeLit:
		for _, in := range c.vf.At(n.Lbrace) {
			if a, ok := in.(*ssa.Alloc); ok {
				return a
			}
		}
	}
	return nil
}

// storedExpr returns the syntax of the value st stores: the value of a
// literal's entry (at its colon) or the right-hand side of an assignment
// to a field (at its selector), in fd.
func (c *checker) storedExpr(fd *ast.FuncDecl, st *ssa.Store) ast.Expr {
	var out ast.Expr
	astq.Search(fd, func(n ast.Node, found *bool) bool {
		switch n := n.(type) {
		case *ast.KeyValueExpr:
			if n.Colon == st.Pos() {
				out, *found = n.Value, true
			}
		case *ast.AssignStmt:
			if len(n.Lhs) != len(n.Rhs) {
				break
			}
			for i, l := range n.Lhs {
				if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && sel.Sel.Pos() == st.Pos() {
					out, *found = n.Rhs[i], true
				}
			}
		}
		return !*found
	})
	return out
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
// through field with (*http.Client).Do: where the field's value goes
// (flow/value, from every read of the field), a Do on it, or a client
// parameter of a sending helper of the package it is given to
// (sentThrough, judged with that call's arguments).
func (c *checker) fieldSend(field *types.Var) *sendInfo {
	vf := c.values()
	if vf == nil {
		return nil
	}
	var sites []site
	for _, ld := range vf.FieldLoads(field) {
		for _, u := range vf.Uses(ld, nil) {
			if call, ok := u.Instr.(*ssa.Call); ok {
				if s, ok := c.siteOf(call, u.Value); ok {
					sites = append(sites, s)
				}
			}
		}
	}
	for _, st := range inOrder(sites) {
		if isDo(st.call, st.v) {
			if s := c.send(st.fd, st.syn); s != nil && s.req != nil && !c.keyedSend(st.fd, s) {
				return s
			}
			continue
		}
		callee := st.call.Call.StaticCallee()
		fn, _ := callee.Object().(*types.Func)
		if fn == nil || c.funcs[fn.Origin()] == nil {
			continue
		}
		for j, a := range st.call.Call.Args {
			if a == st.v && j < len(callee.Params) {
				if s := c.sentThrough(st.fd, st.syn, fn, c.funcs[fn.Origin()], callee.Params[j]); s != nil {
					return s
				}
			}
		}
	}
	return nil
}

// sentThrough returns the unkeyed POST or PATCH that the helper hd (fn,
// called by call in fd) sends with (*http.Client).Do on its client
// parameter p (in its own body, not its closures), with call's arguments
// bound; nil when a Do of hd is on p or another client (p reassigned).
func (c *checker) sentThrough(fd *ast.FuncDecl, call *ast.CallExpr, fn *types.Func, hd *ast.FuncDecl, p *ssa.Parameter) *sendInfo {
	defer c.bind(fd, call, fn)()
	var sites []site
	for _, u := range c.vf.Uses(p, nil) {
		inner, ok := u.Instr.(*ssa.Call)
		if !ok || inner.Parent() != p.Parent() || value.Callee(inner) == nil || value.Callee(inner).FullName() != "(*net/http.Client).Do" {
			continue
		}
		if u.Value != p || !isDo(inner, p) {
			return nil // the helper sends another client as well
		}
		if s, ok := c.siteOf(inner, p); ok {
			sites = append(sites, s)
		}
	}
	for _, st := range inOrder(sites) {
		if s := c.send(hd, st.syn); s != nil && s.req != nil && !c.keyedSend(hd, s) {
			return s
		}
	}
	return nil
}

// A site is a call of the SSA form that a value v reaches, with its
// syntax and the function declaration that holds it.
type site struct {
	call *ssa.Call
	v    ssa.Value
	fd   *ast.FuncDecl
	syn  *ast.CallExpr
}

// siteOf returns call's syntax and the declaration that holds it (a
// closure's is the function it is written in).
func (c *checker) siteOf(call *ssa.Call, v ssa.Value) (site, bool) {
	fd := c.vf.P.Decl(call.Parent())
	syn := c.vf.P.CallExpr(call)
	if fd == nil || syn == nil {
		return site{}, false
	}
	return site{call, v, fd, syn}, true
}

// inOrder returns sites in the order of the syntax (a call before the
// calls in its arguments), each once.
func inOrder(sites []site) []site {
	slices.SortStableFunc(sites, func(a, b site) int {
		if a.syn.Pos() != b.syn.Pos() {
			return cmp.Compare(a.syn.Pos(), b.syn.Pos())
		}
		return cmp.Compare(b.syn.Lparen, a.syn.Lparen)
	})
	return slices.CompactFunc(sites, func(a, b site) bool { return a.call == b.call && a.v == b.v })
}

// isDo reports whether call is (*net/http.Client).Do on the client v.
func isDo(call *ssa.Call, v ssa.Value) bool {
	fn := value.Callee(call)
	return fn != nil && fn.FullName() == "(*net/http.Client).Do" && len(call.Call.Args) > 0 && call.Call.Args[0] == v
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
