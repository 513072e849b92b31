package retrystatus

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// A unit is code whose paths decide, per HTTP status, whether the attempt
// is repeated: the body of a retry loop, or a retry predicate.
type unit struct {
	c *checker
	// holders are the variables whose StatusCode (field or method) is the
	// status: an *http.Response, a *resty.Response, a status error.
	holders map[types.Object]bool
	// aliases are integer variables assigned holder.StatusCode once.
	aliases map[types.Object]bool
	// paired are the errors that are nil exactly when a holder has a
	// response: err in resp, err := client.Do(req), or a predicate's err.
	paired map[types.Object]bool
	// nonNil are errors known not to be nil: a RetryIf predicate's argument.
	nonNil map[types.Object]bool
	// present are the ok variables of h, ok := err.(*T) for a holder h.
	present map[types.Object]bool
	// varying are the variables assigned in the unit: a condition on them is
	// about the attempt's result in a way the check does not follow.
	varying map[types.Object]bool
	// sources are the variables the response is made from: the arguments
	// of the call assigned to a holder, and what they are made from.
	sources map[types.Object]bool
	// bound are the bool variables assigned once the result of a call:
	// ok in delay, ok := r.Retry(code, err).
	bound map[types.Object]boundCall
	// members are the bool variables assigned once the comma-ok of a map
	// lookup: ok in _, ok := m[code].
	members map[types.Object]*ast.IndexExpr
	label   string // the loop's label, if any
}

// boundCall is the call, and the index of its result, a variable holds.
type boundCall struct {
	call   *ast.CallExpr
	result int
}

// newUnit finds the holders, aliases and error pairs of body.
func (c *checker) newUnit(body *ast.BlockStmt) *unit {
	u := &unit{c: c, holders: map[types.Object]bool{}, aliases: map[types.Object]bool{}, paired: map[types.Object]bool{},
		nonNil: map[types.Object]bool{}, present: map[types.Object]bool{}, varying: map[types.Object]bool{},
		bound: map[types.Object]boundCall{}, members: map[types.Object]*ast.IndexExpr{}}
	assigned := map[types.Object]int{}
	declared := map[types.Object]bool{} // var x T, without a value
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if h := c.statusHolder(n); h != nil {
				u.holders[h] = true
			}
		case *ast.CallExpr:
			// runtime/retry.ResponseError(resp) reads resp's status.
			if fn := astq.Callee(c.info, n); fn != nil && retryscope.ResponseError(fn) && len(n.Args) == 1 {
				if o := c.objOf(n.Args[0]); o != nil {
					u.holders[o] = true
				}
			}
			// A response handed to a function of the package that takes one
			// (c.report(res)): its summary reads the status.
			c.handedResponses(n, u.holders)
		case *ast.ValueSpec:
			if len(n.Values) == 0 {
				for _, id := range n.Names {
					declared[c.info.Defs[id]] = true
				}
			}
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE && n.Tok != token.ASSIGN {
				return true
			}
			for _, lhs := range n.Lhs {
				if o := c.objOf(lhs); o != nil {
					u.varying[o] = true
					assigned[o]++
				}
			}
		}
		return true
	})
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		holderIn := false
		for _, lhs := range as.Lhs {
			if o := c.objOf(lhs); o != nil && u.holders[o] {
				holderIn = true
			}
		}
		switch {
		case holderIn && len(as.Rhs) == 1 && len(as.Lhs) == 2:
			o := c.objOf(as.Lhs[1])
			if o == nil {
				break
			}
			if _, assert := ast.Unparen(as.Rhs[0]).(*ast.TypeAssertExpr); assert {
				u.present[o] = true
			} else if isError(o.Type()) {
				u.paired[o] = true
			}
		case len(as.Lhs) == 1 && len(as.Rhs) == 1 && as.Tok == token.DEFINE:
			if o := c.objOf(as.Lhs[0]); o != nil && assigned[o] == 1 && isInteger(o.Type()) && c.isStatus(u, as.Rhs[0]) {
				u.aliases[o] = true
			}
		case len(as.Lhs) == 1 && len(as.Rhs) == 1 && as.Tok == token.ASSIGN:
			// var code int; if resp != nil { code = resp.StatusCode }
			if o := c.objOf(as.Lhs[0]); o != nil && declared[o] && assigned[o] == 1 && isInteger(o.Type()) &&
				c.isStatus(u, as.Rhs[0]) && c.underHolderTests(u, body, as) {
				u.aliases[o] = true
			}
		}
		if len(as.Rhs) == 1 && len(as.Lhs) == 2 && (as.Tok == token.DEFINE || as.Tok == token.ASSIGN) {
			if ix, ok := ast.Unparen(as.Rhs[0]).(*ast.IndexExpr); ok {
				if o := c.objOf(as.Lhs[1]); o != nil && assigned[o] == 1 && isBool(o.Type()) {
					u.members[o] = ix
				}
			}
		}
		if len(as.Rhs) == 1 && (as.Tok == token.DEFINE || as.Tok == token.ASSIGN) {
			if call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); ok {
				for i, lhs := range as.Lhs {
					if o := c.objOf(lhs); o != nil && assigned[o] == 1 && isBool(o.Type()) {
						u.bound[o] = boundCall{call, i}
					}
				}
			}
		}
		return true
	})
	return u
}

// handedResponses adds to holders the variables of a type with a status
// that call hands to a function of the package in a parameter of such a
// type.
func (c *checker) handedResponses(call *ast.CallExpr, holders map[types.Object]bool) {
	fn := astq.Callee(c.info, call)
	if fn == nil || fn.Pkg() != c.pass.Pkg || call.Ellipsis.IsValid() {
		return
	}
	params := fn.Signature().Params()
	for i, a := range call.Args {
		if i >= params.Len() {
			break
		}
		o, ok := c.objOf(a).(*types.Var)
		if ok && !o.IsField() && hasStatus(o.Type()) && types.Identical(o.Type(), params.At(i).Type()) {
			holders[o] = true
		}
	}
}

// underHolderTests reports whether the statement s of body is reached only
// through blocks and if statements testing that a holder is not nil.
func (c *checker) underHolderTests(u *unit, body *ast.BlockStmt, s ast.Stmt) bool {
	ok := false
	var visit func(list []ast.Stmt) bool
	visit = func(list []ast.Stmt) bool {
		for _, x := range list {
			if x == s {
				ok = true
				return true
			}
			switch x := x.(type) {
			case *ast.BlockStmt:
				if visit(x.List) {
					return true
				}
			case *ast.IfStmt:
				b, isBin := ast.Unparen(x.Cond).(*ast.BinaryExpr)
				if x.Init == nil && isBin && b.Op == token.NEQ && isNil(c.info, b.Y) && c.isHolderExpr(u, b.X) && visit(x.Body.List) {
					return true
				}
			}
		}
		return false
	}
	visit(body.List)
	return ok
}

// statusHolder returns the variable X of X.StatusCode, when StatusCode is
// an integer field or a method returning an integer.
func (c *checker) statusHolder(sel *ast.SelectorExpr) types.Object {
	if sel.Sel.Name != "StatusCode" {
		return nil
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return nil
	}
	o, ok := c.info.Uses[id].(*types.Var)
	if !ok || o.IsField() {
		return nil
	}
	switch s := c.info.Uses[sel.Sel].(type) {
	case *types.Var:
		if s.IsField() && isInteger(s.Type()) {
			return o
		}
	case *types.Func:
		if r := s.Signature().Results(); s.Signature().Params().Len() == 0 && r.Len() == 1 && isInteger(r.At(0).Type()) {
			return o
		}
	}
	return nil
}

// isStatus reports whether e is the status: holder.StatusCode,
// holder.StatusCode() or an alias.
func (c *checker) isStatus(u *unit, e ast.Expr) bool {
	e = ast.Unparen(e)
	if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 0 {
		e = ast.Unparen(call.Fun)
	}
	switch e := e.(type) {
	case *ast.SelectorExpr:
		h := c.statusHolder(e)
		return h != nil && u.holders[h]
	case *ast.Ident:
		return u.aliases[c.info.Uses[e]]
	}
	return false
}

// Error states of a paired error on a path where the holder has a response.
const (
	errUnknown uint8 = iota
	errNil
	errNonNil
	// errEither: not known, and not about the status (a body read, a wait
	// cancelled): a test of it may go either way, and tells on each side.
	errEither
)

// guardRef is a condition that sends statuses towards another attempt.
type guardRef struct {
	pos, end token.Pos
}

// state is what the walk knows on one path.
type state struct {
	set     set  // the statuses that reach this point
	present bool // a holder has a response
	errs    map[types.Object]uint8
	guard   *guardRef // the last status condition taken on its true side
	last    *guardRef // the last status condition taken either way
	// acted is set once the path, after the response, does more than wait,
	// log, close the body or build an error: it may change the request
	// (refresh a token, switch endpoints), so its retry is not a repeat.
	acted bool
	// flags are the bool variables whose value the path knows: the loop's
	// condition variable (for !done), set to constants on the path.
	flags map[types.Object]bool
}

func (st state) withFlag(o types.Object, v, known bool) state {
	m := make(map[types.Object]bool, len(st.flags)+1)
	for k, x := range st.flags {
		m[k] = x
	}
	delete(m, o)
	if known {
		m[o] = v
	}
	st.flags = m
	return st
}

func (st state) withErr(o types.Object, v uint8) state {
	m := make(map[types.Object]uint8, len(st.errs)+1)
	for k, x := range st.errs {
		m[k] = x
	}
	m[o] = v
	st.errs = m
	return st
}

// walker enumerates the paths of a unit.
type walker struct {
	u       *unit
	steps   int
	aborted bool
	// retried collects, per guard, the statuses sent to another attempt.
	retried map[guardRef]set
	order   []guardRef
	// exits are the statuses that leave a loop (return, break).
	exits set
	// loopCond is the loop's condition, if any.
	loopCond ast.Expr
	// loop mode: continue and falling off the body retry; return exits.
	// predicate mode: return's decision says whether to retry.
	predicate bool
	decision  int // predicate mode: the result index of the decision
	// op, in predicate mode, says the decision is an error that the
	// library retries when it is not nil (a retry library's operation).
	op *opRules
	// scope is the retry model's scope of the loop, if any: its waits.
	scope *retryscope.Scope
	// cont, inside a nested range walked as part of the attempt, goes on
	// after it (its continue and its end).
	cont func(state)
	// summarise: the walk makes a helper's summary, in yes and no (what
	// its decision surely is, per status); named are its named results.
	summarise bool
	yes, no   set
	named     []*ast.Ident
	nres      int
	acts      bool // a path acted before its return
}

// opRules say which errors returned by a retry library's operation are
// retried.
type opRules struct {
	// stops are the functions whose result the library does not retry
	// (retry.Unrecoverable, backoff.Permanent).
	stops map[string]bool
	// wrap, when set, is the function whose result alone is retried
	// (sethvargo/go-retry's RetryableError).
	wrap string
}

const maxSteps = 20000

func (w *walker) record(g *guardRef, s set) {
	if g == nil || s.empty() {
		return
	}
	if _, ok := w.retried[*g]; !ok {
		w.order = append(w.order, *g)
	}
	w.retried[*g] = w.retried[*g].or(s)
}

func (w *walker) retry(st state) {
	if !st.present || st.acted {
		return
	}
	if w.loopCond != nil {
		// The loop's condition is tested before the next attempt.
		t, e := w.split(w.loopCond, st)
		w.exits = w.exits.or(st.set.and(e))
		st.set = st.set.and(t)
		if w.mentionsStatus(w.loopCond) {
			st.guard = &guardRef{pos: w.loopCond.Pos(), end: w.loopCond.End()}
		}
	}
	g := st.guard
	if g == nil {
		g = st.last
	}
	w.record(g, st.set)
}

// stmts walks list on st, then k.
func (w *walker) stmts(list []ast.Stmt, st state, brk, k func(state)) {
	if w.aborted {
		return
	}
	if len(list) == 0 {
		k(st)
		return
	}
	w.stmt(list[0], st, brk, func(st state) { w.stmts(list[1:], st, brk, k) })
}

func (w *walker) stmt(s ast.Stmt, st state, brk, k func(state)) {
	w.steps++
	if w.steps > maxSteps {
		w.aborted = true
	}
	if w.aborted || (st.present && st.set.empty()) {
		return
	}
	u := w.u
	switch s := s.(type) {
	case *ast.AssignStmt:
		w.assign(s, st, k)
	case *ast.IfStmt:
		if s.Else == nil && !w.mentionsStatus(s.Cond) && w.inert(s.Body) {
			// if resp.Body != nil { resp.Body.Close() }: both ways go on.
			if s.Init != nil {
				w.stmt(s.Init, st, brk, func(st state) { k(w.act(st, s.Cond)) })
			} else {
				k(w.act(st, s.Cond))
			}
			return
		}
		after := func(st state) {
			then, els := w.branch(s.Cond, st)
			if s.Else == nil && w.retriesOnly(s.Body) && st.present {
				// if isS3CodeRetryable(apiErr.Code) { continue }, on a
				// condition the check cannot follow: a status it leaves
				// undecided is retried there or goes on to what follows,
				// where a status condition may retry it anyway
				if undecided := undecidedBy(st, then, els); !undecided.empty() {
					x := st
					if els != nil {
						x = *els
					}
					x.set = x.set.or(undecided)
					els = &x
				}
			}
			elseWalk := func(st state) {
				if s.Else != nil {
					w.stmt(s.Else, st, brk, k)
				} else {
					k(st)
				}
			}
			if then != nil {
				w.stmts(s.Body.List, *then, brk, k)
			}
			if els != nil {
				elseWalk(*els)
			}
			if w.summarise && st.present {
				// if err != nil on a decode of the body: a summary holds
				// what both ways decide for the statuses the condition
				// leaves undecided
				if undecided := undecidedBy(st, then, els); !undecided.empty() {
					x := st
					x.set = undecided
					w.eitherWay(x, func(st state) { w.stmts(s.Body.List, st, brk, k) }, elseWalk)
				}
			}
		}
		if s.Init != nil {
			w.stmt(s.Init, st, brk, after)
		} else {
			after(st)
		}
	case *ast.SwitchStmt:
		after := func(st state) { w.switchClauses(s, st, k) }
		if s.Init != nil {
			w.stmt(s.Init, st, brk, after)
		} else {
			after(st)
		}
	case *ast.SelectStmt:
		for _, cc := range s.Body.List {
			w.stmts(cc.(*ast.CommClause).Body, st, k, k)
		}
	case *ast.TypeSwitchStmt:
		hasDefault := false
		for _, cc := range s.Body.List {
			cc := cc.(*ast.CaseClause)
			hasDefault = hasDefault || cc.List == nil
			w.stmts(cc.Body, st, k, k)
		}
		if !hasDefault {
			k(st)
		}
	case *ast.BlockStmt:
		w.stmts(s.List, st, brk, k)
	case *ast.LabeledStmt:
		w.stmt(s.Stmt, st, brk, k)
	case *ast.ReturnStmt:
		if w.predicate {
			w.decide(s, st)
		} else if st.present {
			w.exits = w.exits.or(st.set)
		}
	case *ast.BranchStmt:
		switch s.Tok {
		case token.CONTINUE:
			if s.Label == nil && w.cont != nil {
				w.cont(st)
				return
			}
			if !w.predicate && (s.Label == nil || s.Label.Name == u.label) {
				w.retry(st)
				return
			}
			w.aborted = true
		case token.BREAK:
			if s.Label == nil && brk != nil {
				brk(st)
			} else if s.Label != nil && s.Label.Name != u.label {
				w.aborted = true
			} else if st.present {
				w.exits = w.exits.or(st.set) // out of the loop
			}
		default: // goto, fallthrough
			w.aborted = true
		}
	case *ast.ExprStmt:
		if !w.ends(s.X) {
			k(w.act(st, s.X))
		}
	case *ast.DeferStmt:
		k(w.act(st, s.Call))
	case *ast.GoStmt:
		k(w.act(st, s.Call))
	case *ast.SendStmt:
		st.acted = st.acted || st.present
		k(st)
	case *ast.ForStmt, *ast.RangeStmt:
		if r, ok := s.(*ast.RangeStmt); ok && w.attemptRange(r) {
			// for _, url := range urls { resp, err := c.Do(req(url)) ... }: the
			// attempt tries each in turn; what falls off the last goes on.
			outer := w.cont
			var after func(state)
			after = func(st state) {
				in := w.cont
				w.cont = outer
				k(st)
				w.cont = in
			}
			w.cont = after
			w.stmts(r.Body.List, st, after, after)
			w.cont = outer
			return
		}
		// A nested loop is walked over: a path that leaves from inside it is
		// not followed.
		if !w.leavesFrom(s) {
			k(st)
		}
	default:
		k(st)
	}
}

// undecidedBy returns the statuses of st that a condition sends neither
// way (then and els are its two sides, nil when empty).
func undecidedBy(st state, then, els *state) set {
	u := st.set
	if then != nil {
		u = u.and(complement(then.set))
	}
	if els != nil {
		u = u.and(complement(els.set))
	}
	return u
}

// eitherWay walks both ways of a condition the summary cannot decide for
// st's statuses, and keeps what both decide: a status surely errs (or
// surely does not) only when it does whichever way the condition goes.
func (w *walker) eitherWay(st state, a, b func(state)) {
	yes, no := w.yes, w.no
	w.yes, w.no = set{}, set{}
	a(st)
	ya, na := w.yes, w.no
	w.yes, w.no = set{}, set{}
	b(st)
	w.yes, w.no = yes.or(ya.and(w.yes)), no.or(na.and(w.no))
}

// ends reports whether the expression statement x never returns: panic,
// os.Exit, log.Fatal and the like.
func (w *walker) ends(x ast.Expr) bool {
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return false
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && id.Name == "panic" {
		_, builtin := w.u.c.info.Uses[id].(*types.Builtin)
		return builtin
	}
	if fn := astq.Callee(w.u.c.info, call); fn != nil {
		switch fn.FullName() {
		case "os.Exit", "log.Fatal", "log.Fatalf", "log.Fatalln", "log.Panic", "log.Panicf", "log.Panicln",
			"(*log.Logger).Fatal", "(*log.Logger).Fatalf", "(*log.Logger).Fatalln":
			return true
		}
	}
	return false
}

// attemptRange reports whether a nested range over something that is not
// an integer gets the response (assigns a holder), outside a predicate,
// and branches to no label.
func (w *walker) attemptRange(r *ast.RangeStmt) bool {
	if w.predicate || w.cont != nil {
		return false
	}
	if t, ok := w.u.c.info.Types[r.X]; !ok || isInteger(t.Type) {
		return false
	}
	if _, ok := w.u.c.info.Types[r.X].Type.Underlying().(*types.Chan); ok {
		return false
	}
	gets, labels := false, false
	astq.InspectOwn(r.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BranchStmt:
			if n.Label != nil || n.Tok == token.GOTO {
				labels = true
			}
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				if w.u.c.isHolderExpr(w.u, lhs) {
					gets = true
				}
			}
		}
		return true
	})
	return gets && !labels
}

// inert reports whether a block only calls what does not change the next
// attempt (closes a body, logs), with no assignment, branch or return.
func (w *walker) inert(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	for _, s := range b.List {
		x, ok := s.(*ast.ExprStmt)
		if !ok || w.ends(x.X) {
			return false
		}
		if w.act(state{present: true}, x.X).acted {
			return false
		}
	}
	return true
}

// leavesFrom reports whether a nested loop holds a return or a branch to
// an outer statement.
func (w *walker) leavesFrom(loop ast.Stmt) bool {
	return astq.Find(loop, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ReturnStmt:
			return true
		case *ast.BranchStmt:
			return n.Label != nil || n.Tok == token.GOTO
		}
		return false
	})
}

// assign updates st for an assignment: a new response, an error set.
func (w *walker) assign(s *ast.AssignStmt, st state, k func(state)) {
	u := w.u
	info := u.c.info
	for _, r := range s.Rhs {
		st = w.act(st, r)
	}
	if st.present {
		for _, lhs := range s.Lhs {
			// A new value for something the request is made from.
			x := ast.Unparen(lhs)
			for {
				sel, ok := x.(*ast.SelectorExpr)
				if !ok {
					break
				}
				x = ast.Unparen(sel.X)
			}
			if o := u.c.objOf(x); o != nil && u.sources[o] && !u.holders[o] && !u.paired[o] {
				st.acted = true
			}
		}
	}
	for i, lhs := range s.Lhs {
		o := u.c.objOf(lhs)
		if o == nil {
			continue
		}
		if _, known := st.flags[o]; known || isBool(o.Type()) && len(s.Lhs) == len(s.Rhs) {
			v, ok := w.boolConst(s.Rhs[min(i, len(s.Rhs)-1)])
			st = st.withFlag(o, v, ok && len(s.Lhs) == len(s.Rhs))
		}
		if u.holders[o] {
			if _, assert := ast.Unparen(s.Rhs[0]).(*ast.TypeAssertExpr); assert {
				st.present, st.set, st.guard, st.last = true, all(), nil, nil
				continue
			}
			st.present, st.set, st.guard, st.last = true, all(), nil, nil
			for p := range u.paired {
				st = st.withErr(p, errNil)
			}
			continue
		}
		if !isError(o.Type()) {
			continue
		}
		_, tracked := st.errs[o]
		if len(s.Lhs) != len(s.Rhs) {
			if w.assignsHolder(s) {
				continue // resp, err := c.Do(req): paired, nil
			}
			// body, err = io.ReadAll(resp.Body); err := sleep(ctx, d) returns one error
			if call, ok := ast.Unparen(s.Rhs[0]).(*ast.CallExpr); ok && (w.bodyRead(call) || w.isWait(call)) {
				st = st.withErr(o, errEither)
			} else if tracked || u.paired[o] {
				st = st.withErr(o, errUnknown)
			}
			continue
		}
		rhs := ast.Unparen(s.Rhs[i])
		if call, ok := rhs.(*ast.CallExpr); ok && w.isWait(call) {
			st = st.withErr(o, errEither)
			continue
		}
		if sum, own := w.errorCall(rhs); sum != nil && (own || st.present) && !w.predicate {
			// err = c.upload(b), err := checkResponse(resp): the error is
			// decided by the status, as the helper's summary says.
			g := &guardRef{pos: rhs.Pos(), end: rhs.End()}
			if own {
				st.present, st.set, st.guard, st.last = true, all(), nil, nil
				for p := range u.paired {
					st = st.withErr(p, errNil)
				}
			}
			y, n := st.set.and(sum.yes), st.set.and(sum.no)
			both := y.and(n)
			for _, part := range []struct {
				set set
				v   uint8
			}{{y.and(complement(both)), errNonNil}, {n.and(complement(both)), errNil}, {both, errEither}} {
				if part.set.empty() {
					continue
				}
				x := st.withErr(o, part.v)
				x.set = part.set
				x.last = g
				k(x)
			}
			return
		}
		if !u.paired[o] && !tracked {
			continue
		}
		switch {
		case isNil(info, rhs):
			st = st.withErr(o, errNil)
		case w.responseError(rhs):
			// runtime/retry.ResponseError(resp): nil below 400.
			lo, hi := st, st.withErr(o, errNonNil)
			var below set
			for c := minStatus; c < 400; c++ {
				below.add(c)
			}
			lo.set = lo.set.and(below)
			hi.set = hi.set.and(all().and(complement(below)))
			// The call sorts statuses: a retry of its error is reported there
			// when no condition on the status comes later.
			hi.last = &guardRef{pos: rhs.Pos(), end: rhs.End()}
			if !lo.set.empty() {
				lo = lo.withErr(o, errNil)
				k(lo)
			}
			if !hi.set.empty() {
				k(hi)
			}
			return
		case u.c.nonNilError(rhs):
			st = st.withErr(o, errNonNil)
		default:
			st = st.withErr(o, errUnknown)
		}
	}
	k(st)
}

// retriesOnly reports whether body only starts the loop's next attempt:
// a lone unlabelled continue.
func (w *walker) retriesOnly(body *ast.BlockStmt) bool {
	if len(body.List) != 1 {
		return false
	}
	b, ok := body.List[0].(*ast.BranchStmt)
	return ok && b.Tok == token.CONTINUE && (b.Label == nil || b.Label.Name == w.u.label)
}

func complement(s set) set {
	for i := range s {
		s[i] = ^s[i]
	}
	return s.and(all())
}

func (w *walker) responseError(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return false
	}
	fn := astq.Callee(w.u.c.info, call)
	return fn != nil && retryscope.ResponseError(fn) && w.u.c.isHolderExpr(w.u, call.Args[0])
}

func (c *checker) isHolderExpr(u *unit, e ast.Expr) bool {
	o := c.objOf(e)
	return o != nil && u.holders[o]
}

// switchClauses walks a switch: each case in order with the statuses that
// reach it, the default clause with those no case took.
func (w *walker) switchClauses(s *ast.SwitchStmt, st state, k func(state)) {
	// run walks clause i's body; one that ends in fallthrough goes on into
	// the next clause's body (case AuthorizationHeaderMalformed: fallthrough).
	var run func(i int, st state)
	run = func(i int, st state) {
		cc := s.Body.List[i].(*ast.CaseClause)
		if !fallsThrough(cc) {
			w.stmts(cc.Body, st, k, k)
			return
		}
		if i+1 < len(s.Body.List) {
			w.stmts(cc.Body[:len(cc.Body)-1], st, k, func(st state) { run(i+1, st) })
		}
	}
	rest := &st
	def := -1
	for i, c := range s.Body.List {
		cc := c.(*ast.CaseClause)
		if cc.List == nil {
			def = i
			continue
		}
		if rest == nil {
			continue
		}
		var cond ast.Expr
		for _, e := range cc.List {
			if s.Tag != nil {
				e = &ast.BinaryExpr{X: s.Tag, Op: token.EQL, Y: e, OpPos: e.Pos()}
			}
			if cond == nil {
				cond = e
			} else {
				cond = &ast.BinaryExpr{X: cond, Op: token.LOR, Y: e, OpPos: e.Pos()}
			}
		}
		g := &guardRef{pos: cc.Case, end: cc.Colon + 1}
		then, els := w.branchAt(cond, *rest, g)
		if then != nil {
			run(i, *then)
		}
		rest = els
	}
	if rest == nil {
		return
	}
	if def >= 0 {
		dc := s.Body.List[def].(*ast.CaseClause)
		st := *rest
		if st.present && st.last != nil && st.guard == nil && w.mentionsStatus(s.Tag) {
			st.guard = &guardRef{pos: dc.Case, end: dc.Colon + 1}
		}
		run(def, st)
		return
	}
	k(*rest)
}

// fallsThrough reports whether a case clause ends in fallthrough.
func fallsThrough(cc *ast.CaseClause) bool {
	if len(cc.Body) == 0 {
		return false
	}
	b, ok := cc.Body[len(cc.Body)-1].(*ast.BranchStmt)
	return ok && b.Tok == token.FALLTHROUGH
}

func (w *walker) branch(cond ast.Expr, st state) (then, els *state) {
	return w.branchAt(cond, st, &guardRef{pos: cond.Pos(), end: cond.End()})
}

// branchAt splits st by cond: the statuses for which cond surely holds,
// and those for which it surely does not, whatever the conditions the
// check does not follow. A condition that does not depend on the attempt
// (a counter, a clock) may go either way.
func (w *walker) branchAt(cond ast.Expr, st state, g *guardRef) (then, els *state) {
	if !st.present {
		return &st, &st
	}
	t, e := w.split(cond, st)
	status := w.mentionsStatus(cond)
	if !t.empty() {
		s := st
		s.set = st.set.and(t)
		if status {
			s.guard, s.last = g, g
		}
		then = &s
	}
	if !e.empty() {
		s := st
		s.set = st.set.and(e)
		if status {
			s.last = g
		}
		els = &s
	}
	// if err != nil, on an error that may go either way: it is not nil on
	// one side, nil on the other.
	if b, ok := ast.Unparen(cond).(*ast.BinaryExpr); ok && (b.Op == token.NEQ || b.Op == token.EQL) && isNil(w.u.c.info, b.Y) {
		if o := w.u.c.objOf(b.X); o != nil && st.errs[o] == errEither {
			t, f := errNonNil, errNil
			if b.Op == token.EQL {
				t, f = f, t
			}
			if then != nil {
				x := then.withErr(o, t)
				then = &x
			}
			if els != nil {
				x := els.withErr(o, f)
				els = &x
			}
		}
	}
	return then, els
}

// assignsHolder reports whether s assigns a holder.
func (w *walker) assignsHolder(s *ast.AssignStmt) bool {
	for _, lhs := range s.Lhs {
		if w.u.c.isHolderExpr(w.u, lhs) {
			return true
		}
	}
	return false
}

// boolConst returns the value of a constant bool expression.
func (w *walker) boolConst(e ast.Expr) (bool, bool) {
	if tv, ok := w.u.c.info.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.Bool {
		return constant.BoolVal(tv.Value), true
	}
	return false, false
}

// decide records the statuses for which a predicate's return says retry.
func (w *walker) decide(r *ast.ReturnStmt, st state) {
	if w.summarise {
		var d ast.Expr
		switch {
		case len(r.Results) == 0 && w.decision < len(w.named):
			d = w.named[w.decision]
		case len(r.Results) == w.nres && w.decision < w.nres:
			d = r.Results[w.decision]
		default:
			return
		}
		if !st.present {
			// return c.upload(b): the helper's own response decides.
			if s, own := w.errorCall(d); w.op != nil && own && s != nil {
				w.yes, w.no = w.yes.or(s.yes), w.no.or(s.no)
			}
			return
		}
		y, n := w.outcome(d, st)
		w.yes, w.no = w.yes.or(y), w.no.or(n)
		if w.act(st, d).acted {
			w.acts = true
		}
		return
	}
	if w.decision >= len(r.Results) || !st.present || st.acted {
		return
	}
	d := r.Results[w.decision]
	var t set
	if w.op != nil {
		if s, _ := w.errorCall(d); s != nil && w.op.wrap == "" {
			// return checkResponse(resp): the statuses it surely errs on,
			// reported at the call when no condition on the status came before.
			t = s.yes.and(complement(s.no))
			if st.guard == nil {
				st.guard = &guardRef{pos: d.Pos(), end: d.End()}
			}
		} else if !w.retriedError(d, st) {
			return
		} else {
			t = all()
		}
	} else {
		t, _ = w.split(d, st)
	}
	g := st.guard
	if w.op == nil && w.mentionsStatus(d) {
		g = &guardRef{pos: d.Pos(), end: d.End()}
	} else if g == nil {
		g = st.last
	}
	w.record(g, st.set.and(t))
}

func (w *walker) mentionsStatus(e ast.Expr) bool {
	if e == nil {
		return false
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if x, ok := n.(ast.Expr); ok && w.u.c.isStatus(w.u, x) {
			found = true
		}
		if call, ok := n.(*ast.CallExpr); ok && w.restyClass(call) != nil {
			found = true
		}
		if x, ok := n.(ast.Expr); ok && w.predicateLeaf(x) != nil {
			found = true
		}
		if x, ok := n.(ast.Expr); ok {
			if _, known := w.lookupLeaf(x, minStatus); known {
				found = true
			}
		}
		return !found
	})
	return found
}

// Leaf kinds of a condition.
const (
	leafNeutral = iota // does not depend on the attempt: may go either way
	leafOpaque         // depends on the attempt in a way not followed
)

// split returns the statuses of st.set for which cond surely holds and
// those for which it surely fails.
func (w *walker) split(cond ast.Expr, st state) (t, e set) {
	var atoms []ast.Expr
	var kinds []int
	w.atoms(cond, st, &atoms, &kinds)
	if len(atoms) > 6 {
		return t, e
	}
	val := make(map[ast.Expr]bool, len(atoms))
	sums := make([]*summary, len(atoms))
	perCode := false
	for i, a := range atoms {
		if sums[i] = w.predicateLeaf(a); sums[i] != nil {
			perCode = true
		}
	}
	var neutral, opaque []ast.Expr
	kindsAt := func(code int) {
		neutral, opaque = neutral[:0], opaque[:0]
		for i, a := range atoms {
			k := kinds[i]
			if sums[i] != nil {
				_, known, either := sums[i].at(code)
				if known {
					continue // eval takes it from the summary
				}
				if either {
					k = leafNeutral
				} else {
					k = leafOpaque
				}
			}
			if k == leafNeutral {
				neutral = append(neutral, a)
			} else {
				opaque = append(opaque, a)
			}
		}
	}
	kindsAt(minStatus)
	dependent := w.mentionsStatus(cond)
	first := -1 // when cond does not depend on the status, one code decides for all
	for code := minStatus; code <= maxStatus; code++ {
		if !st.set.has(code) {
			continue
		}
		if !dependent && first >= 0 {
			if t.has(first) {
				t.add(code)
			}
			if e.has(first) {
				e.add(code)
			}
			continue
		}
		first = code
		if perCode {
			kindsAt(code)
		}
		canTrue, canFalse := false, false
		for nv := 0; nv < 1<<len(neutral); nv++ {
			for i, a := range neutral {
				val[a] = nv&(1<<i) != 0
			}
			allTrue, allFalse := true, true
			for ov := 0; ov < 1<<len(opaque); ov++ {
				for i, a := range opaque {
					val[a] = ov&(1<<i) != 0
				}
				if w.eval(cond, code, st, val) {
					allFalse = false
				} else {
					allTrue = false
				}
			}
			canTrue = canTrue || allTrue
			canFalse = canFalse || allFalse
		}
		if canTrue {
			t.add(code)
		}
		if canFalse {
			e.add(code)
		}
	}
	return t, e
}

// atoms lists the leaves of cond whose value the check does not know.
func (w *walker) atoms(cond ast.Expr, st state, out *[]ast.Expr, kinds *[]int) {
	switch c := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if c.Op == token.NOT {
			w.atoms(c.X, st, out, kinds)
			return
		}
	case *ast.BinaryExpr:
		if c.Op == token.LAND || c.Op == token.LOR {
			w.atoms(c.X, st, out, kinds)
			w.atoms(c.Y, st, out, kinds)
			return
		}
	}
	if w.predicateLeaf(cond) == nil {
		if _, ok := w.leaf(cond, minStatus, st); ok {
			return
		}
	}
	*out = append(*out, cond)
	*kinds = append(*kinds, w.kind(cond, st))
}

// kind classifies a leaf the check does not evaluate.
func (w *walker) kind(e ast.Expr, st state) int {
	u := w.u
	if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && (b.Op == token.NEQ || b.Op == token.EQL) && isNil(u.c.info, b.Y) {
		if o := u.c.objOf(b.X); o != nil && st.errs[o] == errEither {
			return leafNeutral // a body read or a wait failed, or not
		}
	}
	k := leafNeutral
	ast.Inspect(e, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		o := u.c.info.Uses[id]
		if u.holders[o] || u.aliases[o] || u.paired[o] || u.nonNil[o] || u.present[o] || u.varying[o] {
			k = leafOpaque
		}
		return k == leafNeutral
	})
	return k
}

// eval evaluates cond for status code, the unknown leaves taken from val.
func (w *walker) eval(cond ast.Expr, code int, st state, val map[ast.Expr]bool) bool {
	switch c := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if c.Op == token.NOT {
			return !w.eval(c.X, code, st, val)
		}
	case *ast.BinaryExpr:
		switch c.Op {
		case token.LAND:
			return w.eval(c.X, code, st, val) && w.eval(c.Y, code, st, val)
		case token.LOR:
			return w.eval(c.X, code, st, val) || w.eval(c.Y, code, st, val)
		}
	}
	if v, ok := w.leaf(cond, code, st); ok {
		return v
	}
	return val[cond]
}

// leaf evaluates a leaf the check understands, for status code.
func (w *walker) leaf(e ast.Expr, code int, st state) (bool, bool) {
	u := w.u
	info := u.c.info
	if tv, ok := info.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.Bool {
		return constant.BoolVal(tv.Value), true
	}
	if s := w.predicateLeaf(e); s != nil {
		v, known, _ := s.at(code)
		return v, known
	}
	if v, ok := w.lookupLeaf(e, code); ok {
		return v, true
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		if u.present[info.Uses[x]] {
			return true, true
		}
		if v, ok := st.flags[info.Uses[x]]; ok {
			return v, true
		}
	case *ast.BinaryExpr:
		switch x.Op {
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		default:
			return false, false
		}
		if a, ok := w.intVal(x.X, code); ok {
			if b, ok := w.intVal(x.Y, code); ok {
				return astq.Compare(a, x.Op, b), true
			}
		}
		if x.Op != token.EQL && x.Op != token.NEQ {
			return false, false
		}
		var other ast.Expr
		switch {
		case isNil(info, x.Y):
			other = x.X
		case isNil(info, x.X):
			other = x.Y
		default:
			return false, false
		}
		o := u.c.objOf(other)
		if o == nil {
			return false, false
		}
		isNilNow := false
		switch {
		case u.holders[o]:
			isNilNow = false
		case u.nonNil[o]:
			isNilNow = false
		case u.paired[o] || st.errs[o] != errUnknown:
			switch st.errs[o] {
			case errNil:
				isNilNow = true
			case errNonNil:
				isNilNow = false
			default:
				return false, false
			}
		default:
			return false, false
		}
		return isNilNow == (x.Op == token.EQL), true
	case *ast.CallExpr:
		if class := w.restyClass(x); class != nil {
			return class(code), true
		}
		fn := astq.Callee(info, x)
		if fn != nil && fn.FullName() == "errors.As" && len(x.Args) == 2 {
			if a, ok := ast.Unparen(x.Args[1]).(*ast.UnaryExpr); ok && a.Op == token.AND && u.holders[u.c.objOf(a.X)] {
				return true, true
			}
		}
	}
	return false, false
}

// restyClass returns the meaning of a response method that classifies
// the status (resty's (*Response).IsSuccess and IsError) on a holder.
func (w *walker) restyClass(call *ast.CallExpr) func(int) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || len(call.Args) != 0 || !w.u.holders[w.u.c.objOf(sel.X)] {
		return nil
	}
	fn := astq.Callee(w.u.c.info, call)
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	if lo, hi, ok := retryscope.ResponseStatuses(fn); ok {
		return func(c int) bool { return c >= lo && c <= hi }
	}
	return nil
}

// intVal evaluates an integer expression of the status and constants.
func (w *walker) intVal(e ast.Expr, code int) (int64, bool) {
	info := w.u.c.info
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		if v, ok := constant.Int64Val(constant.ToInt(tv.Value)); ok {
			return v, true
		}
		return 0, false
	}
	if w.u.c.isStatus(w.u, e) {
		return int64(code), true
	}
	if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok {
		x, ok1 := w.intVal(b.X, code)
		y, ok2 := w.intVal(b.Y, code)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch b.Op {
		case token.ADD:
			return x + y, true
		case token.SUB:
			return x - y, true
		case token.MUL:
			return x * y, true
		case token.QUO:
			if y != 0 {
				return x / y, true
			}
		case token.REM:
			if y != 0 {
				return x % y, true
			}
		}
	}
	return 0, false
}

func isNil(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

var errorType = types.Universe.Lookup("error").Type()

func isError(t types.Type) bool { return types.Identical(t, errorType) }

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// retriedError reports whether the error e, returned by an operation,
// surely makes the library try again.
func (w *walker) retriedError(e ast.Expr, st state) bool {
	u := w.u
	e = ast.Unparen(e)
	if call, ok := e.(*ast.CallExpr); ok {
		if fn := astq.Callee(u.c.info, call); fn != nil {
			name := fn.FullName()
			if w.op.stops[name] {
				return false
			}
			if w.op.wrap != "" {
				return name == w.op.wrap && len(call.Args) == 1 && w.nonNil(call.Args[0], st)
			}
		}
	}
	if w.op.wrap != "" {
		return false
	}
	return w.nonNil(e, st)
}

// nonNil reports whether the error e is surely not nil on a path with st.
func (w *walker) nonNil(e ast.Expr, st state) bool {
	if o := w.u.c.objOf(e); o != nil && w.u.paired[o] {
		return st.errs[o] == errNonNil
	}
	return w.u.c.nonNilError(e)
}

// act marks st as acted when e, evaluated after the response, calls
// something that may change what the next attempt sends.
func (w *walker) act(st state, e ast.Expr) state {
	if !st.present || st.acted {
		return st
	}
	info := w.u.c.info
	astq.InspectOwn(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if tv, ok := info.Types[n.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
				return true
			}
			if w.isWait(n) || w.checksStatus(n) {
				return true
			}
			fn := astq.Callee(info, n)
			if fn == nil || fn.Pkg() == nil || !benign(fn) && !computes(fn) && !w.u.c.constructs(fn) && !w.u.c.closer(fn) {
				st.acted = true
			}
		}
		return !st.acted
	})
	return st
}

// benign reports whether a call of fn only waits, logs, reads, closes or
// builds a value: it does not change the next attempt.
func benign(fn *types.Func) bool {
	switch fn.FullName() {
	case "(net/http.Header).Get", "(net/http.Header).Values", "net/http.StatusText", "(*net/http.Response).Location":
		return true
	}
	if retryscope.Inert(fn) {
		return true
	}
	switch fn.Pkg().Path() {
	case "time", "fmt", "log", "log/slog", "errors", "strconv", "strings", "bytes", "io", "math", "math/rand",
		"math/rand/v2", "context", "sync", "sync/atomic", "encoding/json", "encoding/xml", "unicode/utf8", "io/ioutil":
		return true
	}
	return false
}

// closer reports whether fn is a function of the package that only reads,
// drains, closes or decodes (closeResponse(resp): io.Copy(io.Discard,
// resp.Body), resp.Body.Close(); decodeBody(resp.Body, &v): io.ReadAll,
// xml.Unmarshal): its calls are benign or are such functions themselves
// (two calls deep), and it assigns only its own variables, so it changes
// nothing of the next attempt.
func (c *checker) closer(fn *types.Func) bool {
	return c.inertFunc(fn, 0)
}

func (c *checker) inertFunc(fn *types.Func, depth int) bool {
	d := c.funcDecl(fn)
	if d == nil || d.Body == nil || depth > 2 {
		return false
	}
	if v, ok := c.inert[fn]; ok {
		return v
	}
	c.inert[fn] = false // a recursive call is not inert
	ok := true
	ast.Inspect(d.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt, *ast.SendStmt:
			ok = false
		case *ast.IncDecStmt:
			ok = c.ownVar(d, n.X)
		case *ast.AssignStmt:
			if ta, guard := ast.Unparen(n.Rhs[0]).(*ast.TypeAssertExpr); guard && ta.Type == nil {
				break // switch err := err.(type): binds a variable per clause
			}
			for _, lhs := range n.Lhs {
				if !c.ownVar(d, lhs) {
					ok = false // it stores something of the caller's
				}
			}
		case *ast.CallExpr:
			if tv, isT := c.info.Types[n.Fun]; isT && (tv.IsType() || tv.IsBuiltin()) {
				break
			}
			f := astq.Callee(c.info, n)
			if f == nil || f.Pkg() == nil || !benign(f) && (f.Pkg() != c.pass.Pkg || !c.inertFunc(f, depth+1)) {
				ok = false
			}
		}
		return ok
	})
	c.inert[fn] = ok
	return ok
}

// ownVar reports whether lhs is _ or a variable declared in d (a
// parameter, a result or a local), not a field, an element or a pointee.
func (c *checker) ownVar(d *ast.FuncDecl, lhs ast.Expr) bool {
	id, ok := ast.Unparen(lhs).(*ast.Ident)
	if !ok {
		return false
	}
	if id.Name == "_" {
		return true
	}
	o := c.objOf(id)
	return o != nil && o.Pos() >= d.Pos() && o.Pos() < d.End()
}

// computes reports whether fn only computes a value: its results are
// numbers, strings, booleans, durations or times (a backoff helper).
func computes(fn *types.Func) bool {
	r := fn.Signature().Results()
	if r.Len() == 0 {
		return false
	}
	for i := range r.Len() {
		t := r.At(i).Type()
		if _, ok := t.Underlying().(*types.Basic); ok {
			continue
		}
		if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" {
			continue
		}
		return false
	}
	return true
}
