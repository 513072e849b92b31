package unkeyedpost

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"net/http"
	"slices"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/keys"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// defIndex returns the model's def index of fd (the suite's one value
// flow, see retryscope.DefIndex).
func (c *checker) defIndex(fd *ast.FuncDecl) *retryscope.DefIndex { return c.res.Defs(fd) }

func (c *checker) obj(id *ast.Ident) types.Object {
	if id.Name == "_" {
		return nil
	}
	if o := c.info.Defs[id]; o != nil {
		return o
	}
	return c.info.Uses[id]
}

// origin resolves a local variable to the value last assigned to it before
// pos (retryscope.DefIndex.Origin).
func (c *checker) origin(fd *ast.FuncDecl, e ast.Expr, before token.Pos) ast.Expr {
	return c.defIndex(fd).Origin(e, before)
}

// rootObj returns the variable at the root of req, req.Header,
// req.Header["K"], &req, req.Raw().Header of a pipeline's request.
func (c *checker) rootObj(e ast.Expr) types.Object {
	for range 16 {
		switch x := ast.Unparen(e).(type) {
		case *ast.CallExpr:
			// req.Raw().Header: the header of a pipeline's request
			sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
			if !ok || !retryscope.PipelineRaw(typeutil.StaticCallee(c.info, x)) {
				return nil
			}
			e = sel.X
		case *ast.Ident:
			if _, ok := c.obj(x).(*types.Var); ok {
				return c.obj(x)
			}
			return nil
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.UnaryExpr:
			if x.Op != token.AND {
				return nil
			}
			e = x.X
		default:
			return nil
		}
	}
	return nil
}

// aliasRoot is rootObj that also looks through methods returning a copy
// of their receiver (req.WithContext(ctx), req.Clone(ctx)).
func (c *checker) aliasRoot(e ast.Expr) types.Object {
	if call, ok := ast.Unparen(e).(*ast.CallExpr); ok {
		fn := typeutil.StaticCallee(c.info, call)
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if fn == nil || !ok || fn.Signature().Recv() == nil || fn.Signature().Results().Len() == 0 {
			return nil
		}
		if retryscope.PipelineRaw(fn) {
			return c.aliasRoot(sel.X) // req.Raw(): the pipeline request's own *http.Request
		}
		if !types.Identical(deref(fn.Signature().Recv().Type()), deref(fn.Signature().Results().At(0).Type())) {
			return nil
		}
		return c.aliasRoot(sel.X)
	}
	return c.rootObj(e)
}

func deref(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// harmless lists packages whose functions never set a request's key
// header (and retryscope.HTTPMirrorPath's, which mirror net/http's).
var harmless = map[string]bool{
	"net/http": true, "net/http/httputil": true, "fmt": true, "log": true, "log/slog": true,
	"context": true, "io": true, "errors": true, "strings": true, "bytes": true, "encoding/json": true,
}

// keyed reports whether the request held in objs gets a key header in fd,
// or may get one: it is handed to code the check cannot see into, or a
// header with a name that is not constant is set on it.
func (c *checker) keyed(fd *ast.FuncDecl, objs []types.Object) bool {
	return c.keyedIn(fd, objs, false)
}

// keyedIn is keyed; strict counts only key headers set on the request in
// fd or by the package's helpers, not code the check cannot see into
// (a request builder's caller-supplied options).
func (c *checker) keyedIn(fd *ast.FuncDecl, objs []types.Object, strict bool) bool {
	s := make(map[types.Object]bool)
	for _, o := range objs {
		s[o] = true
	}
	type pair struct{ lhs, rhs ast.Expr }
	var pairs []pair
	for _, a := range c.defIndex(fd).All() {
		if rhs := a.Binds(); rhs != nil {
			pairs = append(pairs, pair{a.Lhs, rhs})
		}
	}
	rootOfPair := func(p pair) (types.Object, types.Object) {
		r := c.aliasRoot(p.rhs)
		if r == nil {
			// retryablehttp.FromRequest(req) wraps the same request.
			if call, ok := ast.Unparen(p.rhs).(*ast.CallExpr); ok && retryscope.MirrorsHTTP(typeutil.StaticCallee(c.info, call), "net/http.FromRequest") && len(call.Args) == 1 {
				r = c.aliasRoot(call.Args[0])
			}
		}
		return c.rootObj(p.lhs), r
	}
	for range 4 {
		grew := false
		for _, p := range pairs {
			l, r := rootOfPair(p)
			if l == nil || r == nil {
				continue
			}
			if s[l] != s[r] {
				s[l], s[r] = true, true
				grew = true
			}
		}
		if !grew {
			break
		}
	}
	keyedWrite := func(ws []keys.HeaderWrite) bool {
		for _, w := range ws {
			if w.Const && c.names.Header(w.Name) || !w.Const && !c.clientWide(fd, w) && !(strict && c.copiedUnkeyed(fd, w)) && !c.copyJudged(fd, w, strict) {
				return true
			}
		}
		return false
	}
	for _, p := range pairs {
		if l := c.rootObj(p.lhs); l != nil && s[l] {
			if lit, ok := ast.Unparen(p.rhs).(*ast.CompositeLit); ok && keyedWrite(keys.Writes(c.info, lit)) {
				return true
			}
		}
	}
	return astq.Search(fd, func(n ast.Node, keyed *bool) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			for _, w := range keys.Writes(c.info, n) {
				if o := c.rootObj(w.Header); o != nil && s[o] && keyedWrite([]keys.HeaderWrite{w}) {
					*keyed = true
				}
			}
			if c.observesResponse(n) {
				break
			}
			for i, a := range n.Args {
				if t := c.info.TypeOf(a); t != nil {
					if _, basic := t.Underlying().(*types.Basic); basic {
						continue // req.Method, req.URL.Path: a copy, which cannot key the request
					}
					part := ast.Unparen(a)
					if star, ok := part.(*ast.StarExpr); ok {
						part = ast.Unparen(star.X) // *req.URL: a copy of a part
					}
					if _, ok := part.(*ast.SelectorExpr); ok && !isRequestish(c.info.TypeOf(part)) {
						continue // req.Body, req.URL: a part of the request that holds no header
					}
				}
				if o := c.aliasRoot(a); o != nil && s[o] && c.mayKey(fd, n, i, strict) {
					*keyed = true
				}
			}
		case *ast.AssignStmt:
			for _, w := range keys.Writes(c.info, n) {
				if o := c.rootObj(w.Header); o != nil && s[o] && keyedWrite([]keys.HeaderWrite{w}) {
					*keyed = true
				}
			}
		}
		return !*keyed
	})
}

// copiedUnkeyed reports whether the header write w, with a name that is
// not constant, copies the entries of a local header map that carries no
// key: for k, v := range h { req.Header[k] = v }, with h's own names
// constant.
func (c *checker) copiedUnkeyed(fd *ast.FuncDecl, w keys.HeaderWrite) bool {
	for _, rs := range c.rangesAround(fd, w.Node) {
		v, ok := ast.Unparen(w.Value).(*ast.Ident)
		val, _ := rs.Value.(*ast.Ident)
		if !ok || val == nil || c.obj(v) != c.obj(val) {
			return false
		}
		h, ok := ast.Unparen(rs.X).(*ast.Ident)
		if !ok || !keys.IsHeader(c.info.TypeOf(h)) {
			return false
		}
		o, ok := c.obj(h).(*types.Var)
		// A local map (not a parameter: its entries come from callers).
		return ok && !o.IsField() && slices.ContainsFunc(c.defIndex(fd).Of(o), assigned) && !c.keyedIn(fd, []types.Object{o}, true)
	}
	return false
}

// assigned reports whether d gives its variable the value of an
// expression.
func assigned(d retryscope.Def) bool { return d.Plain() && d.RHS() != nil }

// observesResponse reports whether call is handed a response beside the
// request (a logger's LogRoundTrip(req, res, err, ...)): it runs after the
// send, so whatever it sets on the request is not on the attempt that was
// sent.
func (c *checker) observesResponse(call *ast.CallExpr) bool {
	for _, a := range call.Args {
		if astq.IsPointerTo(c.info.TypeOf(a), "net/http", "Response") {
			return true
		}
	}
	return false
}

// clientWide reports whether the header write w, with a name that is not
// constant, copies the headers a client holds for every request it sends
// (for k, v := range c.header { req.Header.Add(k, ...) }, a field): a key
// there would be one key for every request, no idempotency key.
func (c *checker) clientWide(fd *ast.FuncDecl, w keys.HeaderWrite) bool {
	for _, rs := range c.rangesAround(fd, w.Node) {
		sel, ok := ast.Unparen(rs.X).(*ast.SelectorExpr)
		if !ok || !keys.IsHeader(c.info.TypeOf(sel)) {
			continue
		}
		if f, ok := c.info.Uses[sel.Sel].(*types.Var); ok && f.IsField() {
			return true
		}
	}
	return false
}

// rangesAround returns the range statements of fd around n, innermost
// first.
func (c *checker) rangesAround(fd *ast.FuncDecl, n ast.Node) []*ast.RangeStmt {
	var out []*ast.RangeStmt
	p := c.parents.Of(fd)
	for a := p[n]; a != nil; a = p[a] {
		if rs, ok := a.(*ast.RangeStmt); ok {
			out = append(out, rs)
		}
	}
	return out
}

// optionalHook reports whether call calls a func-typed field, or a method
// of an interface-typed field, that the code calls only when set (if
// c.Hook != nil { c.Hook(req) }, if c.signer != nil { c.signer.Sign(req) }):
// a hook a user may install, which the request does not rely on for its
// key.
func (c *checker) optionalHook(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	if m, ok := c.info.Uses[sel.Sel].(*types.Func); ok && m.Signature().Recv() != nil && types.IsInterface(m.Signature().Recv().Type()) {
		// c.signer.Sign(req): the hook is the field holding the interface
		if sel, ok = ast.Unparen(sel.X).(*ast.SelectorExpr); !ok {
			return false
		}
	}
	field, ok := c.info.Uses[sel.Sel].(*types.Var)
	if !ok || !field.IsField() {
		return false
	}
	p := c.parentsOfNode(call)
	for n := p[call]; n != nil; n = p[n] {
		ifs, ok := n.(*ast.IfStmt)
		if !ok {
			continue
		}
		if b, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr); ok && b.Op == token.NEQ && c.isNil(b.Y) {
			if s, ok := ast.Unparen(b.X).(*ast.SelectorExpr); ok && c.info.Uses[s.Sel] == field {
				return true
			}
		}
	}
	return false
}

// mayKey reports whether the call, in fd, may set a key header on its
// i-th argument.
func (c *checker) mayKey(fd *ast.FuncDecl, call *ast.CallExpr, i int, strict bool) bool {
	if _, _, ok := c.transportSend(call); ok {
		return false // sending the request does not key it
	}
	fn := typeutil.StaticCallee(c.info, call)
	if strict {
		if fn == nil {
			return false
		}
		_, copies := c.copies[fn.Origin()][c.paramIndex(fn, i)]
		return copies || c.keyedParams[fn.Origin()][c.paramIndex(fn, i)]
	}
	if fn == nil {
		if tv, ok := c.info.Types[call.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
			return false // a conversion, append, len
		}
		if t := c.info.TypeOf(call); t != nil && types.Identical(t, types.Typ[types.Bool]) {
			return false // a predicate hook (retryOnError(req, err)) decides; it does not key
		}
		return !c.optionalHook(call) // a function value: unknown
	}
	if copied, key := c.copiedKey(fd, fn, call, i); copied && key {
		return true // a helper copies a header that may carry a key into it
	}
	if c.keyedParams[fn.Origin()][c.paramIndex(fn, i)] {
		return true
	}
	if c.funcs[fn.Origin()] != nil {
		return false // a helper of the package that does not key it
	}
	return fn.Pkg() == nil || !harmless[fn.Pkg().Path()] && !retryscope.HTTPMirrorPath(fn.Pkg().Path())
}

// goesOnOnlyRefused reports whether the statement after the send call
// leaves unless the response's status is one the server refuses without
// applying anything (409 Conflict): if err != nil ||
// !runtime.HasStatusCode(resp, codes...) { return resp, err }, with every
// code a constant 409 or the package's own default for a field spread as
// the codes (azure's registration policy: StatusCodes, {409} by
// setDefaults). Past it, the request is sent again only after a refusal.
func (c *checker) goesOnOnlyRefused(call *ast.CallExpr) bool {
	p := c.parentsOfNode(call)
	var st ast.Node = call
	for st != nil {
		if _, ok := st.(ast.Stmt); ok {
			break
		}
		st = p[st]
	}
	as, ok := st.(*ast.AssignStmt)
	if !ok || len(as.Lhs) == 0 || ast.Unparen(as.Rhs[0]) != ast.Expr(call) {
		return false
	}
	resp, ok := as.Lhs[0].(*ast.Ident)
	if !ok || c.info.ObjectOf(resp) == nil {
		return false
	}
	list, _ := astq.StmtList(p[as])
	i := slices.Index(list, ast.Stmt(as))
	if i < 0 || i+1 >= len(list) {
		return false
	}
	ifs, ok := list[i+1].(*ast.IfStmt)
	if !ok || ifs.Init != nil || ifs.Else != nil || len(ifs.Body.List) == 0 {
		return false
	}
	if _, ret := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt); !ret {
		return false
	}
	// a disjunct !statusIn(resp, codes...): past the if, the status is
	// one of codes
	var disjuncts func(e ast.Expr) []ast.Expr
	disjuncts = func(e ast.Expr) []ast.Expr {
		if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && b.Op == token.LOR {
			return append(disjuncts(b.X), disjuncts(b.Y)...)
		}
		return []ast.Expr{e}
	}
	for _, d := range disjuncts(ifs.Cond) {
		not, ok := ast.Unparen(d).(*ast.UnaryExpr)
		if !ok || not.Op != token.NOT {
			continue
		}
		test, ok := ast.Unparen(not.X).(*ast.CallExpr)
		if !ok || len(test.Args) < 2 {
			continue
		}
		fn, _ := typeutil.Callee(c.info, test).(*types.Func)
		if !retryscope.PipelineStatusIn(fn) {
			continue
		}
		if id, ok := ast.Unparen(test.Args[0]).(*ast.Ident); !ok || c.info.ObjectOf(id) != c.info.ObjectOf(resp) {
			continue
		}
		if c.codesRefused(test) {
			return true
		}
	}
	return false
}

// codesRefused reports whether the codes of status test call (after its
// response) are all 409 Conflict: constants, or a field spread as them
// whose every value the package stores is a literal of such constants.
func (c *checker) codesRefused(call *ast.CallExpr) bool {
	refused := func(e ast.Expr) bool {
		tv, ok := c.info.Types[e]
		if !ok || tv.Value == nil {
			return false
		}
		n, exact := constant.Int64Val(constant.ToInt(tv.Value))
		return exact && n == http.StatusConflict
	}
	codes := call.Args[1:]
	if !call.Ellipsis.IsValid() {
		return len(codes) > 0 && !slices.ContainsFunc(codes, func(e ast.Expr) bool { return !refused(e) })
	}
	sel, ok := ast.Unparen(codes[0]).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	v, ok := c.info.Uses[sel.Sel].(*types.Var)
	if !ok || !v.IsField() {
		return false
	}
	vals, ok := c.res.FieldValues(v)
	if !ok || len(vals) == 0 {
		return false
	}
	for _, fv := range vals {
		lit, ok := ast.Unparen(fv.Value).(*ast.CompositeLit)
		if !ok || len(lit.Elts) == 0 || slices.ContainsFunc(lit.Elts, func(e ast.Expr) bool { return !refused(e) }) {
			return false
		}
	}
	return true
}

// paramIndex returns the index of the parameter fn's i-th argument binds.
func (c *checker) paramIndex(fn *types.Func, i int) int {
	sig := fn.Signature()
	if sig.Variadic() && i >= sig.Params().Len()-1 {
		return sig.Params().Len() - 1
	}
	return i
}

// retriedAfter reports whether scope may repeat after the send call: the
// check cannot prove that every path after the send leaves the scope for
// good.
func (c *checker) retriedAfter(scope *retryscope.Scope, call *ast.CallExpr) bool {
	switch scope.Kind {
	case retryscope.Loop:
		if c.goesOnOnlyRefused(call) {
			return false // sent again only after a 409 Conflict: nothing was applied
		}
		return c.loopRepeatsAfter(scope, call)
	case retryscope.LibraryCall:
		switch {
		case scope.NothingApplied():
			return false // repeats only on a 409 Conflict: nothing was applied
		case len(scope.Retryable()) > 0:
			// Only errors wrapped in RetryableError are retried.
			found := false
			ast.Inspect(scope.Body, func(n ast.Node) bool {
				if x, ok := n.(*ast.CallExpr); ok && x.End() > call.Pos() && slices.Contains(scope.Retryable(), c.calleeName(x)) {
					found = true
				}
				return !found
			})
			return found
		case scope.ConditionOp():
			return c.anyReturnAfter(scope.Body, call, func(r *ast.ReturnStmt) bool {
				if len(r.Results) != 2 {
					return true
				}
				return !c.isTrue(r.Results[0]) && !c.certainError(r, r.Results[1])
			})
		}
		return c.anyReturnAfter(scope.Body, call, func(r *ast.ReturnStmt) bool {
			if len(r.Results) == 0 {
				return true
			}
			last := r.Results[len(r.Results)-1]
			return !c.isNil(last) && !c.permanent(last)
		})
	}
	return true
}

// anyReturnAfter reports whether a return statement of body (not of
// nested function literals) that ends after the send satisfies retries.
func (c *checker) anyReturnAfter(body *ast.BlockStmt, call *ast.CallExpr, retries func(*ast.ReturnStmt) bool) bool {
	return astq.Find(body, func(n ast.Node) bool {
		r, ok := n.(*ast.ReturnStmt)
		return ok && r.End() > call.Pos() && retries(r)
	})
}

func (c *checker) isNil(e ast.Expr) bool {
	tv, ok := c.info.Types[e]
	return ok && tv.IsNil()
}

func (c *checker) isTrue(e ast.Expr) bool {
	tv, ok := c.info.Types[e]
	return ok && tv.Value != nil && tv.Value.String() == "true"
}

// permanent reports whether e wraps an error so that the library stops
// retrying.
func (c *checker) permanent(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, _ := typeutil.Callee(c.info, call).(*types.Func)
	return fn != nil && retryscope.PermanentWrapper(fn)
}

// certainError reports whether e, returned by r, is a non-nil error: a
// call that makes one, or a variable r returns only when it is not nil.
func (c *checker) certainError(r *ast.ReturnStmt, e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		switch c.calleeName(x) {
		case "errors.New", "fmt.Errorf":
			return true
		}
	case *ast.Ident:
		o := c.info.Uses[x]
		if o == nil {
			return false
		}
		p := c.parentsOfNode(r)
		child := ast.Node(r)
		for n := p[r]; n != nil; child, n = n, p[n] {
			ifs, ok := n.(*ast.IfStmt)
			if !ok || child != ifs.Body {
				continue
			}
			if b, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr); ok && b.Op == token.NEQ {
				if id, ok := ast.Unparen(b.X).(*ast.Ident); ok && c.info.Uses[id] == o && c.isNil(b.Y) {
					return true
				}
			}
		}
	}
	return false
}

// parentsOfNode returns the parent index of the function declaration that
// holds n.
func (c *checker) parentsOfNode(n ast.Node) keys.Parents {
	for _, f := range c.pass.Files {
		if f.FileStart <= n.Pos() && n.Pos() <= f.FileEnd {
			for _, d := range f.Decls {
				if d.Pos() <= n.Pos() && n.End() <= d.End() {
					return c.parents.Of(d)
				}
			}
		}
	}
	return keys.Parents{}
}

// loopRepeatsAfter reports whether the loop may start another pass after
// the send: a continue after it, or a path after it that does not leave
// the loop.
func (c *checker) loopRepeatsAfter(scope *retryscope.Scope, call *ast.CallExpr) bool {
	p := c.parentsOfNode(scope.Node)
	label := ""
	if l, ok := p[scope.Node].(*ast.LabeledStmt); ok {
		label = l.Label.Name
	}
	// A continue or goto after the send repeats.
	repeats := false
	var walk func(n ast.Node, nested bool)
	walk = func(n ast.Node, nested bool) {
		astq.InspectOwn(n, func(x ast.Node) bool {
			if repeats {
				return false
			}
			switch x := x.(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				if x != n {
					walk(x, true)
					return false
				}
			case *ast.ReturnStmt, *ast.ExprStmt, *ast.AssignStmt:
				// a recursion's return of its own call, or a rescheduling
				if x.Pos() >= call.Pos() && scope.Restarts(x.(ast.Stmt)) {
					repeats = true
				}
			case *ast.BranchStmt:
				if x.Pos() < call.Pos() {
					return true
				}
				switch x.Tok {
				case token.CONTINUE:
					if x.Label == nil && !nested || x.Label != nil && x.Label.Name == label {
						repeats = true
					}
				case token.GOTO:
					repeats = true
				}
			}
			return true
		})
	}
	walk(scope.Body, false)
	if repeats {
		return true
	}
	// Climb from the send to the loop body: at each level, the statements
	// after the one holding the send must leave the loop.
	var n ast.Node = call
	for {
		parent := p[n]
		if parent == nil {
			return true
		}
		list, _ := astq.StmtList(parent)
		switch parent.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
			if parent != scope.Node {
				return true // the send is in a closure or an inner loop
			}
		}
		if list == nil {
			n = parent
			continue
		}
		i := 0
		for i < len(list) && list[i] != n {
			i++
		}
		if c.leaves(list[i:], label, c.inSwitch(p, parent, scope.Body)) {
			return false
		}
		if parent == scope.Body {
			return true
		}
		n = parent
	}
}

// inSwitch reports whether list's owner lies in a switch or select case
// below the loop body, where an unlabelled break leaves the switch.
func (c *checker) inSwitch(p keys.Parents, owner ast.Node, body *ast.BlockStmt) bool {
	for n := owner; n != nil && n != body; n = p[n] {
		switch n.(type) {
		case *ast.CaseClause, *ast.CommClause:
			return true
		}
	}
	return false
}

// leaves reports whether list always leaves the loop: it ends in a return,
// a panic, or a break of the loop.
func (c *checker) leaves(list []ast.Stmt, label string, inSwitch bool) bool {
	if len(list) == 0 {
		return false
	}
	switch st := list[len(list)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return st.Tok == token.BREAK && (st.Label == nil && !inSwitch || st.Label != nil && st.Label.Name == label)
	case *ast.BlockStmt:
		return c.leaves(st.List, label, inSwitch)
	case *ast.IfStmt:
		return st.Else != nil && c.leaves(st.Body.List, label, inSwitch) && c.leaves([]ast.Stmt{st.Else}, label, inSwitch)
	case *ast.ExprStmt:
		if call, ok := st.X.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
				_, builtin := c.info.Uses[id].(*types.Builtin)
				return builtin
			}
			switch c.calleeName(call) {
			case "os.Exit", "log.Fatal", "log.Fatalf", "log.Panic", "log.Panicf":
				return true
			}
		}
	}
	return false
}
