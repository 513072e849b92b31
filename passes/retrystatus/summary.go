package retrystatus

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// Status summaries of the package's own helpers: what a function decides
// per status, so that a retry deciding through it (if shouldRetry(resp),
// if err := checkResponse(resp); err != nil, err = c.upload(b)) is
// evaluated as if its code were inline. They are made by the same walk as
// the retries, and kept here, once, for the loops, the predicates and the
// operations.

// A sumKey names a summary: fn's result the summary decides, and the
// parameter that holds the status (an integer status or a response), or
// ownResponse when fn gets the response itself.
type sumKey struct {
	fn     *types.Func
	result int
	param  int
}

const ownResponse = -1

// A summary is what a function returns, per status.
type summary struct {
	// yes are the statuses for which some path surely returns true (a
	// bool result) or a non-nil error (an error result); no those for
	// which some path surely returns false or nil. A status in both
	// depends on a condition that does not depend on the attempt (an
	// attempt counter): either may happen. A status in neither depends on
	// something the walk does not follow.
	yes, no set
	// acts: a path of fn does more than a status check before it returns
	// (see state.acted): a call of fn may change the next attempt.
	acts bool
}

// at returns what s says for code: the value when only one is possible,
// and whether both are (the condition may go either way).
func (s *summary) at(code int) (v, known, either bool) {
	y, n := s.yes.has(code), s.no.has(code)
	switch {
	case y && n:
		return false, false, true
	case y, n:
		return y, true, false
	}
	return false, false, false
}

// summaryOf returns the summary of fn's result decided by the status in
// param, or nil when fn is not a function of the package whose paths the
// walk follows.
func (c *checker) summaryOf(fn *types.Func, result, param int) *summary {
	if fn == nil || fn.Pkg() != c.pass.Pkg || retryscope.ResponseError(fn) {
		// what the table knows (runtime/retry.ResponseError, analysed in its
		// own package) is judged by the table, as everywhere else
		return nil
	}
	k := sumKey{fn, result, param}
	if s, ok := c.summaries[k]; ok {
		return s // nil while being made: a recursive call is not followed
	}
	c.summaries[k] = nil
	s := c.summarise(k)
	c.summaries[k] = s
	return s
}

func (c *checker) summarise(k sumKey) *summary {
	d := c.funcDecl(k.fn)
	if d == nil || d.Body == nil {
		return nil
	}
	sig := k.fn.Signature()
	if k.result >= sig.Results().Len() {
		return nil
	}
	rt := sig.Results().At(k.result).Type()
	isErr := isError(rt)
	if !isErr && !isBool(rt) {
		return nil
	}
	u := c.newUnit(d.Body)
	var params []types.Object
	for _, f := range d.Type.Params.List {
		for _, n := range f.Names {
			params = append(params, c.info.Defs[n])
		}
		if len(f.Names) == 0 {
			params = append(params, nil)
		}
	}
	st := state{}
	if k.param >= 0 {
		if k.param >= len(params) || params[k.param] == nil {
			return nil
		}
		p := params[k.param]
		switch {
		case isInteger(p.Type()):
			u.aliases[p] = true
		case hasStatus(p.Type()):
			u.holders[p] = true
		default:
			return nil
		}
		st.present, st.set = true, all()
	} else if len(u.holders) == 0 {
		return nil
	}
	// The other parameters are the caller's: a condition on them is not
	// followed (an error passed along, a body).
	for i, p := range params {
		if p != nil && i != k.param {
			u.varying[p] = true
		}
	}
	w := &walker{u: u, retried: map[guardRef]set{}, predicate: true, decision: k.result, summarise: true,
		nres: sig.Results().Len()}
	if isErr {
		w.op = &opRules{}
	}
	if d.Type.Results != nil {
		for _, f := range d.Type.Results.List {
			for _, n := range f.Names {
				o := c.info.Defs[n]
				w.named = append(w.named, n)
				if o != nil && isError(o.Type()) {
					st = st.withErr(o, errNil) // a named error result starts nil
				}
			}
		}
	}
	w.stmts(d.Body.List, st, nil, func(state) {})
	if w.aborted || (w.yes.empty() && w.no.empty()) {
		return nil
	}
	return &summary{yes: w.yes, no: w.no, acts: w.acts}
}

// checksStatus reports whether call is a status check of the package's
// code (a predicate or an error given the status) that does nothing else:
// it does not change the next attempt.
func (w *walker) checksStatus(call *ast.CallExpr) bool {
	s := w.predicateLeaf(call)
	if s == nil {
		if e, own := w.errorCall(call); !own {
			s = e
		}
	}
	return s != nil && !s.acts
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

// statusArg returns the index of the argument of call that is u's status
// or one of its holders, or -1.
func (c *checker) statusArg(u *unit, call *ast.CallExpr) int {
	for i, a := range call.Args {
		if c.isStatus(u, a) || c.isHolderExpr(u, a) {
			return i
		}
	}
	return -1
}

// predicateCall returns the summary of a bool result of a call of the
// package's code given the status or the response, or nil.
func (w *walker) predicateCall(call *ast.CallExpr, result int) *summary {
	u := w.u
	fn := astq.Callee(u.c.info, call)
	if fn == nil || fn.Pkg() != u.c.pass.Pkg || call.Ellipsis.IsValid() {
		return nil
	}
	r := fn.Signature().Results()
	if result >= r.Len() || !isBool(r.At(result).Type()) {
		return nil
	}
	i := u.c.statusArg(u, call)
	if i < 0 {
		return nil
	}
	return u.c.summaryOf(fn, result, i)
}

// predicateLeaf returns the summary behind a condition leaf: a call of a
// predicate of the package given the status (isRetryable(resp.StatusCode)),
// or a variable assigned its result once (delay, ok := r.Retry(code, err)).
func (w *walker) predicateLeaf(e ast.Expr) *summary {
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		if fn := astq.Callee(w.u.c.info, x); fn != nil && fn.Signature().Results().Len() == 1 {
			return w.predicateCall(x, 0)
		}
	case *ast.Ident:
		if b, ok := w.u.bound[w.u.c.info.Uses[x]]; ok {
			return w.predicateCall(b.call, b.result)
		}
	}
	return nil
}

// errorCall returns the summary of the error a call of the package's code
// returns: given the status or the response (checkResponse(resp)), or
// getting a response itself (c.upload(b)), and whether it gets its own.
func (w *walker) errorCall(e ast.Expr) (*summary, bool) {
	u := w.u
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || call.Ellipsis.IsValid() {
		return nil, false
	}
	fn := astq.Callee(u.c.info, call)
	if fn == nil || fn.Pkg() != u.c.pass.Pkg {
		return nil, false
	}
	r := fn.Signature().Results()
	if r.Len() != 1 || !isError(r.At(0).Type()) {
		return nil, false
	}
	if i := u.c.statusArg(u, call); i >= 0 {
		return u.c.summaryOf(fn, 0, i), false
	}
	return u.c.summaryOf(fn, 0, ownResponse), true
}

// outcome returns the statuses of st for which the decision d surely
// says retry (true, a non-nil error) and those for which it surely does
// not.
func (w *walker) outcome(d ast.Expr, st state) (yes, no set) {
	if w.op == nil {
		t, e := w.split(d, st)
		return st.set.and(t), st.set.and(e)
	}
	info := w.u.c.info
	d = ast.Unparen(d)
	switch {
	case isNil(info, d):
		return yes, st.set
	case w.u.c.nonNilError(d):
		return st.set, no
	case w.responseError(d):
		var below set
		for c := minStatus; c < 400; c++ {
			below.add(c)
		}
		return st.set.and(complement(below)), st.set.and(below)
	}
	if o := w.u.c.objOf(d); o != nil {
		switch st.errs[o] {
		case errNil:
			return yes, st.set
		case errNonNil:
			return st.set, no
		case errEither:
			return st.set, st.set
		}
		return yes, no
	}
	if s, _ := w.errorCall(d); s != nil {
		return st.set.and(s.yes), st.set.and(s.no)
	}
	return yes, no
}

// bodyRead reports whether call reads a holder's body to its end
// (io.ReadAll(resp.Body)): its error does not depend on the status.
func (w *walker) bodyRead(call *ast.CallExpr) bool {
	fn := astq.Callee(w.u.c.info, call)
	if fn == nil || len(call.Args) != 1 {
		return false
	}
	switch fn.FullName() {
	case "io.ReadAll", "io/ioutil.ReadAll":
	default:
		return false
	}
	arg := ast.Unparen(call.Args[0])
	// io.ReadAll(io.LimitReader(resp.Body, 5<<20)) reads the body too
	if lr, ok := arg.(*ast.CallExpr); ok && len(lr.Args) == 2 {
		if f := astq.Callee(w.u.c.info, lr); f != nil && f.FullName() == "io.LimitReader" {
			arg = ast.Unparen(lr.Args[0])
		}
	}
	sel, ok := arg.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Body" && w.u.c.isHolderExpr(w.u, sel.X)
}

// isWait reports whether call is one of the waits the retry model found
// in the scope: it only waits, and its error (a cancelled context) does
// not depend on the status.
func (w *walker) isWait(call *ast.CallExpr) bool {
	if w.scope == nil {
		return false
	}
	for _, wt := range w.scope.Waits {
		if !wt.Library && wt.Pos >= call.Pos() && wt.Pos < call.End() {
			if n, ok := wt.Node.(*ast.CallExpr); ok && n == call {
				return true
			}
		}
	}
	return false
}

// constructs reports whether fn, of the package, only builds a value from
// its arguments: its body is one return of a composite literal (or its
// address) that calls nothing (httpResponse(resp, body) for a log line).
func (c *checker) constructs(fn *types.Func) bool {
	d := c.funcDecl(fn)
	if d == nil || d.Body == nil || len(d.Body.List) != 1 {
		return false
	}
	r, ok := d.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(r.Results) != 1 {
		return false
	}
	e := ast.Unparen(r.Results[0])
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	if _, ok := e.(*ast.CompositeLit); !ok {
		return false
	}
	calls := false
	ast.Inspect(e, func(n ast.Node) bool {
		if _, ok := n.(*ast.CallExpr); ok {
			calls = true
		}
		return !calls
	})
	return !calls
}

// attemptCalls reports whether body calls a function of the package that
// gets a response and returns an error decided by its status.
func (c *checker) attemptCalls(u *unit, body *ast.BlockStmt) bool {
	w := &walker{u: u}
	found := false
	astq.InspectOwn(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if s, own := w.errorCall(call); s != nil && own {
				found = true
			}
		}
		return !found
	})
	return found
}

// statusMap returns the statuses a package-level map literal of constant
// status keys holds (var retryable = map[int]bool{429: true, 503: true}),
// those whose value is true when vals, and whether the map is such a
// literal that the package never changes.
func (c *checker) statusMap(v *types.Var, vals bool) (set, bool) {
	var s set
	if !c.fixedPackageVar(v) {
		return s, false
	}
	if _, ok := v.Type().Underlying().(*types.Map); !ok {
		return s, false
	}
	lit := c.packageValue(v)
	if lit == nil {
		return s, false
	}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return s, false
		}
		tv, ok := c.info.Types[kv.Key]
		if !ok || tv.Value == nil {
			return s, false
		}
		code, ok := constant.Int64Val(constant.ToInt(tv.Value))
		if !ok {
			return s, false
		}
		if vals {
			b, ok := c.info.Types[kv.Value]
			if !ok || b.Value == nil || b.Value.Kind() != constant.Bool {
				return s, false
			}
			if !constant.BoolVal(b.Value) {
				continue
			}
		}
		if code >= minStatus && code <= maxStatus {
			s.add(int(code))
		}
	}
	return s, true
}

// fixedPackageVar reports whether v is a package-level variable of the
// package that the package never changes.
func (c *checker) fixedPackageVar(v *types.Var) bool {
	return v != nil && v.Pkg() == c.pass.Pkg && v.Parent() == v.Pkg().Scope() && !c.changed()[v]
}

// packageValue returns the composite literal a package-level variable is
// declared with, or nil.
func (c *checker) packageValue(v *types.Var) *ast.CompositeLit {
	lit, _ := ast.Unparen(c.packageInit(v)).(*ast.CompositeLit)
	return lit
}

// packageInit returns the expression a package-level variable is declared
// with, or nil.
func (c *checker) packageInit(v *types.Var) ast.Expr {
	for _, f := range c.pass.Files {
		if v.Pos() < f.FileStart || v.Pos() > f.FileEnd {
			continue
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, sp := range g.Specs {
				vs := sp.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if c.info.Defs[n] == v && i < len(vs.Values) && len(vs.Names) == len(vs.Values) {
						return vs.Values[i]
					}
				}
			}
		}
	}
	return nil
}

// changed returns the package-level variables the package assigns, takes
// the address of, stores into or deletes from, outside their declaration.
func (c *checker) changed() map[types.Object]bool {
	if c.changedVars != nil {
		return c.changedVars
	}
	c.changedVars = map[types.Object]bool{}
	root := func(e ast.Expr) types.Object {
		for {
			switch x := ast.Unparen(e).(type) {
			case *ast.IndexExpr:
				e = x.X
				continue
			case *ast.SelectorExpr:
				e = x.X
				continue
			case *ast.Ident:
				return c.info.Uses[x]
			}
			return nil
		}
	}
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					if o := root(l); o != nil {
						c.changedVars[o] = true
					}
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					if o := root(n.X); o != nil {
						c.changedVars[o] = true
					}
				}
			case *ast.CallExpr:
				if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && id.Name == "delete" && len(n.Args) > 0 {
					if _, builtin := c.info.Uses[id].(*types.Builtin); builtin {
						if o := root(n.Args[0]); o != nil {
							c.changedVars[o] = true
						}
					}
				}
			}
			return true
		})
	}
	return c.changedVars
}

// lookupLeaf evaluates, for code, a lookup of the status in a status map
// (retryable[code]) or a variable assigned its comma-ok (_, ok := m[code]).
func (w *walker) lookupLeaf(e ast.Expr, code int) (bool, bool) {
	u := w.u
	vals := true
	var ix *ast.IndexExpr
	switch x := ast.Unparen(e).(type) {
	case *ast.IndexExpr:
		ix = x
	case *ast.Ident:
		o := u.c.info.Uses[x]
		if b, ok := u.bound[o]; ok && b.result == 0 && u.members[o] == nil {
			return w.memberLeaf(b.call, code) // success := okStatus.Contains(code)
		}
		ix, vals = u.members[o], false
	case *ast.CallExpr:
		return w.memberLeaf(x, code)
	}
	if ix == nil || !u.c.isStatus(u, ix.Index) {
		return false, false
	}
	id, ok := ast.Unparen(ix.X).(*ast.Ident)
	if !ok {
		return false, false
	}
	v, _ := u.c.info.Uses[id].(*types.Var)
	if v == nil {
		return false, false
	}
	if vals {
		if m, ok := v.Type().Underlying().(*types.Map); !ok || !isBool(m.Elem()) {
			return false, false
		}
	}
	s, ok := u.c.statusMap(v, vals)
	if !ok {
		return false, false
	}
	return s.has(code), true
}

// memberLeaf evaluates, for code, a membership test of the status in a
// package-level set built once from constants (var retryable =
// set.CreateIntSet(408, 429), retryable.Contains(code); the set types are
// the model's, retryscope.SetConstructor).
func (w *walker) memberLeaf(call *ast.CallExpr, code int) (bool, bool) {
	u := w.u
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || len(call.Args) != 1 || !u.c.isStatus(u, call.Args[0]) {
		return false, false
	}
	member := astq.Callee(u.c.info, call)
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if member == nil || !ok {
		return false, false
	}
	v, _ := u.c.info.Uses[id].(*types.Var)
	s, ok := u.c.statusSet(v, member)
	if !ok {
		return false, false
	}
	return s.has(code), true
}

type setKey struct {
	v      *types.Var
	member *types.Func
}

type setResult struct {
	s  set
	ok bool
}

// statusSet returns the statuses a package-level set of constant statuses
// holds, built by the constructor of member's set type, and whether v is
// such a set that the package never changes; computed once per set and
// method (it reads the whole package, and the walker asks for each
// status).
func (c *checker) statusSet(v *types.Var, member *types.Func) (set, bool) {
	k := setKey{v, member}
	if r, ok := c.sets[k]; ok {
		return r.s, r.ok
	}
	s, ok := c.readStatusSet(v, member)
	c.sets[k] = setResult{s, ok}
	return s, ok
}

func (c *checker) readStatusSet(v *types.Var, member *types.Func) (set, bool) {
	var s set
	if !c.fixedPackageVar(v) {
		return s, false
	}
	call, _ := ast.Unparen(c.packageInit(v)).(*ast.CallExpr)
	if call == nil || call.Ellipsis.IsValid() || !retryscope.SetConstructor(astq.Callee(c.info, call), member) || c.usedOtherwise(v, member) {
		return s, false
	}
	for _, a := range call.Args {
		tv, ok := c.info.Types[a]
		if !ok || tv.Value == nil {
			return s, false
		}
		code, ok := constant.Int64Val(constant.ToInt(tv.Value))
		if !ok {
			return s, false
		}
		if code >= minStatus && code <= maxStatus {
			s.add(int(code))
		}
	}
	return s, true
}

// usedOtherwise reports whether the package uses the set v other than by
// calling its membership method member (grown.Insert(409), add(grown)):
// what it holds may then change.
func (c *checker) usedOtherwise(v *types.Var, member *types.Func) bool {
	found := false
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if found {
				return false
			}
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && c.info.Uses[id] == v {
					if fn, ok := c.info.Uses[sel.Sel].(*types.Func); ok && fn.Origin() == member.Origin() {
						return false // v.Has(...): the receiver is fine
					}
				}
			}
			if id, ok := n.(*ast.Ident); ok && c.info.Uses[id] == v {
				found = true
			}
			return true
		})
	}
	return found
}
