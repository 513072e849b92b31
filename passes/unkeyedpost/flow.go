package unkeyedpost

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/flow/value"
	"github.com/idemlint/idemlint/passes/internal/keys"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// values returns the package's value flow (flow/value), building the SSA
// form on the first call; nil when the package has none (type errors).
func (c *checker) values() *value.Flow {
	if c.vf == nil {
		if p := c.engine.Get(); p != nil {
			c.vf = value.Of(p)
		}
	}
	return c.vf
}

// written returns the SSA values of the header the write w sets an entry
// of (the receiver of h.Set, the map of h[k] = v), and of the entry's name
// and value; nil for what has none (a literal's entries).
func (c *checker) written(w keys.HeaderWrite) (header, name, val ssa.Value) {
	vf := c.values()
	if vf == nil {
		return nil, nil, nil
	}
	switch n := w.Node.(type) {
	case *ast.CallExpr:
		return vf.Recv(n), vf.Arg(n, 0), vf.Arg(n, 1)
	case *ast.AssignStmt:
		for _, l := range n.Lhs {
			if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok && ix.X == w.Header {
				for _, in := range vf.At(ix.Lbrack) {
					if up, ok := in.(*ssa.MapUpdate); ok {
						return up.Map, up.Key, up.Value
					}
				}
			}
		}
	}
	return nil, nil, nil
}

// headerOf returns the SSA value of the header w sets an entry of.
func (c *checker) headerOf(w keys.HeaderWrite) ssa.Value {
	h, _, _ := c.written(w)
	return h
}

func (c *checker) obj(id *ast.Ident) types.Object {
	if id.Name == "_" {
		return nil
	}
	if o := c.info.Defs[id]; o != nil {
		return o
	}
	return c.info.Uses[id]
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

// keyed reports whether the request (or header) whose values are roots
// gets a key header in fd, or may get one: it is handed to code the check
// cannot see into, or a header with a name that is not constant is set on
// it.
func (c *checker) keyed(fd *ast.FuncDecl, roots ...ssa.Value) bool {
	return c.keyedIn(fd, roots, false)
}

// keyedIn is keyed; strict counts only key headers set on the request in
// fd or by the package's helpers, not code the check cannot see into
// (a request builder's caller-supplied options). The request's values
// are the value flow's (aliases); the writes and calls that may key them
// are read on fd's syntax.
func (c *checker) keyedIn(fd *ast.FuncDecl, roots []ssa.Value, strict bool) bool {
	if c.values() == nil {
		return false
	}
	set := c.aliases(roots)
	if len(set) == 0 {
		return false
	}
	keyedWrite := func(ws []keys.HeaderWrite) bool {
		for _, w := range ws {
			if w.Const && c.names.Header(w.Name) || !w.Const && !c.clientWide(fd, w) && !(strict && c.copiedUnkeyed(fd, w)) && !c.copyJudged(fd, w, strict) {
				return true
			}
		}
		return false
	}
	return astq.Search(fd, func(n ast.Node, keyed *bool) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			// an http.Header literal given to the request
			if keys.IsHeader(c.info.TypeOf(n)) && set[c.vf.ValueOf(c.info, n)] && keyedWrite(keys.Writes(c.info, n)) {
				*keyed = true
			}
		case *ast.CallExpr:
			for _, w := range keys.Writes(c.info, n) {
				if set[c.headerOf(w)] && keyedWrite([]keys.HeaderWrite{w}) {
					*keyed = true
				}
			}
			if c.observesResponse(n) {
				break
			}
			for i := range n.Args {
				// req, req.Header: not req.Method, req.URL, req.Body,
				// which hold no header
				if set[c.vf.Arg(n, i)] && c.mayKey(fd, n, i, strict) {
					*keyed = true
				}
			}
		case *ast.AssignStmt:
			for _, w := range keys.Writes(c.info, n) {
				if set[c.headerOf(w)] && keyedWrite([]keys.HeaderWrite{w}) {
					*keyed = true
				}
			}
		}
		return !*keyed
	})
}

// aliases returns the values that hold the same request (or header) as
// roots, in their function and its closures: back through phis,
// conversions, loads of a cell and the requests a copy method is called on
// (aliasOf), from a header field's read to the request it is read from;
// forward to the loads of the cells and addresses they are stored in, the
// request-holding fields read from them (req.Header, a wrapper's
// *http.Request), what is stored into those, the copies made of them, and
// the closures they are bound in.
func (c *checker) aliases(roots []ssa.Value) map[ssa.Value]bool {
	set := make(map[ssa.Value]bool)
	var work []ssa.Value
	add := func(v ssa.Value) {
		if v == nil || set[v] || len(set) >= value.DefaultLimit {
			return
		}
		if _, ok := v.(*ssa.Const); ok {
			return
		}
		set[v] = true
		work = append(work, v)
	}
	for _, r := range roots {
		add(r)
	}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		// back
		switch x := v.(type) {
		case *ssa.Phi:
			for _, e := range x.Edges {
				add(e)
			}
		case *ssa.ChangeType:
			add(x.X)
		case *ssa.MakeInterface:
			add(x.X)
		case *ssa.ChangeInterface:
			add(x.X)
		case *ssa.TypeAssert:
			add(x.X)
		case *ssa.UnOp:
			if x.Op == token.MUL {
				add(x.X) // the cell or address it is loaded from
			}
		case *ssa.FieldAddr:
			add(x.X) // a request-holding field's address: the struct's
		case *ssa.Field:
			add(x.X)
		case *ssa.IndexAddr:
			add(x.X)
		case *ssa.FreeVar:
			add(c.vf.Cell(x))
		case *ssa.Extract:
			if x.Index == 0 {
				add(x.Tuple)
			}
		case *ssa.Call:
			add(c.aliasOf(x))
		}
		// forward
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.Phi, *ssa.ChangeType, *ssa.MakeInterface, *ssa.ChangeInterface, *ssa.TypeAssert:
				add(r.(ssa.Value))
			case *ssa.UnOp:
				if r.Op == token.MUL {
					add(r)
				}
			case *ssa.FieldAddr:
				if holdsRequest(r.X.Type(), r.Field) {
					add(r)
				}
			case *ssa.Field:
				if holdsRequest(r.X.Type(), r.Field) {
					add(r)
				}
			case *ssa.Extract:
				if r.Index == 0 {
					add(r)
				}
			case *ssa.Store:
				if r.Addr == v {
					add(r.Val) // stored into it: req.Header = h
				} else {
					add(r.Addr) // stored elsewhere: the place holds it
				}
			case *ssa.MapUpdate:
				if r.Value == v {
					add(r.Map)
				}
			case *ssa.MakeClosure:
				if fn, ok := r.Fn.(*ssa.Function); ok {
					for i, b := range r.Bindings {
						if b == v && i < len(fn.FreeVars) {
							add(fn.FreeVars[i])
						}
					}
				}
			case *ssa.Call:
				if c.aliasOf(r) == v {
					add(r)
				}
			}
		}
	}
	return set
}

// holdsRequest reports whether field i of the struct t (or *t) can hold a
// request's headers: a header, a request, a wrapper of one.
func holdsRequest(t types.Type, i int) bool {
	fv := value.FieldVar(t, i)
	return fv != nil && isRequestish(fv.Type())
}

// aliasOf returns the request whose copy or view call returns: the
// receiver of a method returning its own receiver's type
// (req.WithContext(ctx), req.Clone(ctx)), a pipeline request's Raw(),
// the request go-retryablehttp's FromRequest wraps; nil otherwise.
func (c *checker) aliasOf(call *ssa.Call) ssa.Value {
	com := call.Common()
	fn := value.Callee(call)
	if fn == nil || com.IsInvoke() || len(com.Args) == 0 {
		return nil
	}
	sig := fn.Signature()
	if retryscope.MirrorsHTTP(fn, "net/http.FromRequest") && len(com.Args) == 1 {
		return com.Args[0]
	}
	if sig.Recv() == nil || sig.Results().Len() == 0 {
		return nil
	}
	if retryscope.PipelineRaw(fn) || types.Identical(deref(sig.Recv().Type()), deref(sig.Results().At(0).Type())) {
		return com.Args[0]
	}
	return nil
}

// reqValue returns the SSA value of the request s sends: the operand of
// s.call it is, or the first result of the return statement at s.at (a
// request builder's).
func (c *checker) reqValue(s *sendInfo) ssa.Value {
	if s.req == nil || c.values() == nil {
		return nil
	}
	if s.at.IsValid() {
		var ret ssa.Value
		for _, in := range c.vf.At(s.at) {
			switch in := in.(type) {
			case *ssa.Store: // a named result's, before the defers run
				return in.Val
			case *ssa.Return:
				if len(in.Results) > 0 && ret == nil {
					ret = in.Results[0]
				}
			}
		}
		return ret
	}
	return c.operand(s.call, s.req)
}

// operand returns the SSA value call takes e as: an argument, or its
// receiver.
func (c *checker) operand(call *ast.CallExpr, e ast.Expr) ssa.Value {
	for i, a := range call.Args {
		if a == e {
			return c.vf.Arg(call, i)
		}
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.X == e {
		return c.vf.Recv(call)
	}
	return c.vf.ValueOf(c.info, e)
}

// param returns the SSA parameter of fd that declares v (not its
// receiver).
func (c *checker) param(fd *ast.FuncDecl, v types.Object) *ssa.Parameter {
	if c.values() == nil {
		return nil
	}
	if fn := c.vf.P.Func(fd); fn != nil {
		for i, p := range fn.Params {
			if p.Object() == v && (i > 0 || fd.Recv == nil) {
				return p
			}
		}
	}
	return nil
}

// copiedUnkeyed reports whether the header write w, with a name that is
// not constant, copies the entries of a local header map that carries no
// key: for k, v := range h { req.Header[k] = v }, with h's own names
// constant. The value written is the value of the innermost range around
// w (flow/value), over a header made in fd: none of its origins is a
// parameter's, a field's or a global's, whose entries come from
// elsewhere.
func (c *checker) copiedUnkeyed(fd *ast.FuncDecl, w keys.HeaderWrite) bool {
	ranges := c.rangesAround(fd, w.Node)
	if len(ranges) == 0 {
		return false
	}
	_, _, val := c.written(w)
	rng, key := c.values().Ranged(val, nil)
	if rng == nil || key || rng.Pos() != ranges[0].For || !keys.IsHeader(rng.X.Type()) {
		return false
	}
	made := false
	for _, o := range c.vf.Origins(rng.X, &value.Query{Stop: fieldRead}) {
		switch o.(type) {
		case *ssa.Parameter, *ssa.FreeVar, *ssa.UnOp, *ssa.Field, *ssa.Global:
			return false
		case *ssa.Const, *ssa.Alloc:
		default:
			made = true
		}
	}
	return made && !c.keyedIn(fd, []ssa.Value{rng.X}, true)
}

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
// there would be one key for every request, no idempotency key. The name
// or the value written is an entry of a range over a field's header
// (flow/value).
func (c *checker) clientWide(fd *ast.FuncDecl, w keys.HeaderWrite) bool {
	if len(c.rangesAround(fd, w.Node)) == 0 {
		return false // no range around it: the SSA form is not needed
	}
	_, name, val := c.written(w)
	for _, v := range []ssa.Value{name, val} {
		if rng, _ := c.values().Ranged(v, nil); rng != nil && keys.IsHeader(rng.X.Type()) && fieldRead(rng.X) {
			return true
		}
	}
	return false
}

// fieldRead reports whether v reads a struct field (x.f, p.f).
func fieldRead(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Field:
		return true
	case *ssa.UnOp:
		_, ok := v.X.(*ssa.FieldAddr)
		return ok && v.Op == token.MUL
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
