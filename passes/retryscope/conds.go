package retryscope

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// condReader reads the exit conditions of one loop over its syntax: what
// the loop assigns and counts (collect, recurCounters), and what an exit's
// condition bounds (condKind: a count, a clock or context, an attempt's
// result, a policy's decision), a select case that leaves (commDeadline),
// and the adjustments of a count (counterStart, postCounted). The flow
// engine's reading of a loop (engine.go) asks it of each exit's
// condition; it knows nothing of the control flow.
type condReader struct {
	m    *model
	di   *defIndex
	fn   ast.Node // the function declaring the loop
	loop ast.Stmt // the loop statement, the labeled statement or the recurring function's body
	body *ast.BlockStmt
	// jump is set for a loop that is not a for loop: a goto retry or a
	// recursion (engine.go's cycleJump).
	jump    *jump
	errs    map[types.Object]bool         // error variables assigned from calls in the body
	results map[types.Object]bool         // every variable assigned from a call in the body
	waitErr map[types.Object]DeadlineKind // error variables assigned from a wait that takes a context
	counts  map[types.Object]bool         // variables incremented in the body or post statement
	down    map[types.Object]bool         // counters that count down (retries--)
	// collected are the assignments of error variables from calls that
	// collect met (not inside a function literal), by where they take
	// effect.
	collected map[token.Pos]bool
}

// guard is a condition under which a statement runs: cond holds, or, when
// neg is set, cond does not hold.
type guard struct {
	cond ast.Expr
	neg  bool
}

// newCondReader returns the reader of loop's conditions, whose repeated
// code is body, in function fn.
func newCondReader(m *model, di *defIndex, fn ast.Node, loop ast.Stmt, body *ast.BlockStmt) *condReader {
	return &condReader{m: m, di: di, fn: fn, loop: loop, body: body,
		errs: map[types.Object]bool{}, results: map[types.Object]bool{},
		waitErr: map[types.Object]DeadlineKind{}, counts: map[types.Object]bool{}, down: map[types.Object]bool{}, collected: map[token.Pos]bool{}}
}

// collect records the variables assigned and incremented in n, not looking
// into function literals.
func (r *condReader) collect(n ast.Node) {
	if n == nil {
		return
	}
	astq.InspectOwn(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			switch n.Tok {
			case token.ADD_ASSIGN, token.SUB_ASSIGN:
				if o := r.obj(n.Lhs[0]); o != nil && isInteger(o.Type()) {
					r.counts[o] = true
					r.down[o] = r.down[o] || n.Tok == token.SUB_ASSIGN
				}
				return true
			}
			for i, lhs := range n.Lhs {
				o := r.obj(lhs)
				if o == nil {
					continue
				}
				var rhs ast.Expr
				if len(n.Rhs) == len(n.Lhs) {
					rhs = n.Rhs[i]
				} else if len(n.Rhs) == 1 {
					rhs = n.Rhs[0]
				}
				if bin, ok := ast.Unparen(rhs).(*ast.BinaryExpr); ok && (bin.Op == token.ADD || bin.Op == token.SUB) && r.obj(bin.X) == o {
					r.counts[o] = true // n = n + 1
					r.down[o] = r.down[o] || bin.Op == token.SUB
					continue
				}
				call, ok := ast.Unparen(rhs).(*ast.CallExpr)
				if !ok || r.m.isConversion(call) {
					continue
				}
				// Only the results of a call that can fail are an attempt's
				// results; next, stop := b.Next() is not an attempt, so a
				// test of stop is a bound the model cannot read.
				if !attemptCall(r.m.info, call) {
					continue
				}
				r.results[o] = true
				if isError(o.Type()) {
					r.collected[n.End()] = true
					r.errs[o] = true
					if r.m.waitCall(r.di, call) != nil {
						if ctx := contextArg(r.m.info, call); ctx != nil {
							r.waitErr[o] = r.m.ctxArgKind(r.di, ctx)
						}
					}
				}
			}
		case *ast.IncDecStmt:
			o := r.obj(n.X)
			if o == nil {
				o = r.fieldCounter(n.X) // b.Steps--
			}
			if o != nil {
				r.counts[o] = true
				r.down[o] = r.down[o] || n.Tok == token.DEC
			}
		case *ast.CallExpr:
			r.countsDownIn(n) // b.Step(), which decrements b.Steps
		}
		return true
	})
}

// recurCounters records the parameters that a recursion passes on changed
// by a constant (f(n+1), f(attempts-1)) as counters of the loop.
func (r *condReader) recurCounters() {
	for ret := range r.jump.recur {
		for _, res := range ret.Results {
			call, ok := ast.Unparen(res).(*ast.CallExpr)
			if !ok || r.m.callee(call) != r.jump.fn {
				continue
			}
			params := r.jump.fn.Signature().Params()
			for i, a := range call.Args {
				b, ok := ast.Unparen(a).(*ast.BinaryExpr)
				if !ok || i >= params.Len() || (b.Op != token.ADD && b.Op != token.SUB) || r.obj(b.X) != params.At(i) {
					continue
				}
				p := params.At(i)
				if isInteger(p.Type()) {
					r.counts[p] = true
					r.down[p] = r.down[p] || b.Op == token.SUB
				}
			}
		}
	}
}

func (r *condReader) obj(e ast.Expr) types.Object {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok && id.Name != "_" {
		if o := r.m.info.Defs[id]; o != nil {
			return o
		}
		return r.m.info.Uses[id]
	}
	return nil
}

// attemptDef is one assignment of an error variable from a call in the
// loop: an attempt.
type attemptDef struct {
	pos  token.Pos // where the assignment takes effect
	call *ast.CallExpr
}

// attemptDefs returns the assignments of e from calls in the loop, in
// source order.
func (r *condReader) attemptDefs(e types.Object) []attemptDef {
	var out []attemptDef
	for _, d := range r.di.defs[e] {
		if !in(r.loop, d.pos) {
			continue
		}
		call, ok := ast.Unparen(d.rhs).(*ast.CallExpr)
		if !ok {
			continue
		}
		if !r.collected[d.pos] {
			continue // not collected (inside a function literal)
		}
		out = append(out, attemptDef{pos: d.pos, call: call})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].pos < out[j].pos })
	return out
}

// returnsError reports whether call has an error among its results.
func returnsError(info *types.Info, call *ast.CallExpr) bool {
	switch t := info.TypeOf(call).(type) {
	case *types.Tuple:
		for i := 0; i < t.Len(); i++ {
			if isError(t.At(i).Type()) {
				return true
			}
		}
	case nil:
	default:
		return isError(t)
	}
	return false
}

func isError(t types.Type) bool { return astq.IsError(t) }

// attemptCall reports whether call can be an attempt: it can fail (it has
// an error result) and it is not a query of a context's cancellation
// (ctx.Err() says whether to stop waiting, it attempts nothing).
func attemptCall(info *types.Info, call *ast.CallExpr) bool {
	if !returnsError(info, call) {
		return false
	}
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	return fn == nil || fn.FullName() != "(context.Context).Err"
}

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

type condKind uint8

const (
	condAttempt   condKind = iota // about the attempt's result: not a bound
	condCounter                   // an attempt counter: a cap
	condTime                      // a context or a clock: a deadline
	condOther                     // something else: an unknown bound
	condInvariant                 // the same on every pass: not a bound
	condNever                     // a policy's decision that is no by default (neverRetries)
)

// condKind classifies an exit condition.
func (r *condReader) condKind(e ast.Expr, inCond bool) (condKind, Cap, Deadline) {
	if id, ok := e.(*ast.Ident); ok && (id.Name == "default" || id.Name == "typeswitch" || id.Name == "goto") && id.Obj == nil && r.m.info.Uses[id] == nil {
		return condOther, Cap{}, Deadline{}
	}
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.NOT {
		if call, ok := ast.Unparen(u.X).(*ast.CallExpr); ok {
			if a, ok := r.m.stopWaitArg(r.di, call); ok {
				// if !sleep(ctx, backoff(n)): the exit is the signal's,
				// whatever sizes the wait
				return condTime, Cap{}, Deadline{Kind: r.signalKind(a), Pos: e.Pos(), ctx: r.obj(a)}
			}
		}
	}
	if d, ok := r.ctxErrorTest(e); ok {
		return condTime, Cap{}, d
	}
	var counter types.Object
	attempt, timeish, stop, varying, decision := false, false, false, false, false
	var ctxObj types.Object
	var decisions []types.Object
	waitKind := DeadlineKind(0)
	astq.InspectOwn(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			o := r.m.info.Uses[n]
			if o == nil {
				return true
			}
			if r.counts[o] {
				counter = o
			}
			if local(o) && r.assignedInLoop(o) {
				varying = true
			}
			if local(o) && r.fromBackoffStop(o) {
				stop = true
			} else if local(o) && r.fromCounterDecision(o) {
				decision = true
				decisions = append(decisions, o)
			} else if r.results[o] || r.errs[o] {
				if k, ok := r.waitErr[o]; ok {
					waitKind = k
				} else {
					attempt = true
				}
			}
			if isTimeType(o.Type()) {
				timeish = true
			}
		case *ast.CallExpr:
			if !r.m.isConversion(n) {
				varying = true
				if t := r.m.info.TypeOf(n); t != nil && isError(t) {
					attempt = true // if op() == nil: the attempt itself
				}
			}
			fn := r.m.callee(n)
			if fn == nil {
				return true
			}
			switch fn.FullName() {
			case "(context.Context).Err", "(context.Context).Done":
				timeish = true
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
					ctxObj = r.obj(sel.X)
				}
			case "time.Since", "time.Until", "time.Now", "(time.Time).After", "(time.Time).Before":
				timeish = true
			case "(*github.com/jpillora/backoff.Backoff).Attempt":
				counter = fn
			}
		}
		return true
	})
	switch {
	case counter != nil:
		return condCounter, r.counterCap(e), Deadline{}
	case waitKind != 0:
		return condTime, Cap{}, Deadline{Kind: waitKind, Pos: e.Pos()}
	case timeish:
		kind := DeadlineInScope
		if ctxObj != nil {
			kind = r.m.ctxKind(r.di, ctxObj)
		}
		return condTime, Cap{}, Deadline{Kind: kind, Pos: e.Pos(), ctx: ctxObj}
	case stop:
		return condTime, Cap{}, Deadline{Kind: DeadlineLibrary, Pos: e.Pos()}
	case decision:
		// wait, ok := retrier.Retry(ctx, n, err): a policy told the
		// attempt number decides; the bound is the policy's, unknown here,
		// unless the package's default policy never retries
		for _, o := range decisions {
			if !r.neverRetries(o) {
				return condOther, Cap{}, Deadline{}
			}
		}
		return condNever, Cap{Kind: CapKnown, N: 1, Pos: e.Pos()}, Deadline{}
	case attempt:
		return condAttempt, Cap{}, Deadline{}
	case !varying:
		// Nothing in the condition changes from one pass to the next (a
		// counter that is never incremented): it bounds nothing.
		return condInvariant, Cap{}, Deadline{}
	}
	_ = inCond
	return condOther, Cap{}, Deadline{}
}

// counterCap evaluates a counter comparison such as "i < 5" or
// "attempt >= maxAttempts".
func (r *condReader) counterCap(e ast.Expr) Cap {
	c := Cap{Kind: CapBounded, Pos: e.Pos()}
	b, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok {
		return c
	}
	o := r.obj(b.X)
	if o == nil {
		o = r.fieldCounter(b.X)
	}
	if o != nil && r.down[o] {
		return c // counts down from a start the model does not read
	}
	var n int64
	if tv, ok := r.m.info.Types[b.Y]; ok && tv.Value != nil {
		n, ok = constant.Int64Val(constant.ToInt(tv.Value))
		if !ok {
			return c
		}
	} else if f := r.m.fieldOf(b.Y); f != nil {
		// i <= c.maxRetries: the default the package gives the field
		d, ok := r.m.intDefault(f, 0)
		if !ok {
			return c
		}
		n = d
	} else {
		return c
	}
	if n < 0 || n > 1<<20 {
		return c
	}
	switch b.Op {
	case token.LSS, token.GEQ, token.EQL, token.NEQ:
		c.Kind, c.N = CapKnown, int(n)
	case token.LEQ, token.GTR:
		c.Kind, c.N = CapKnown, int(n)+1
	}
	if c.Kind == CapKnown && c.N == 0 {
		c.N = 1
	}
	return c
}

// counterStart returns the constant the for statement's init gives the
// counter that the loop condition e compares (for i := 1; i <= n; i++),
// when it counts up.
func (r *condReader) counterStart(e ast.Expr) (int64, bool) {
	fs, ok := r.loop.(*ast.ForStmt)
	if !ok || fs.Init == nil {
		return 0, false
	}
	b, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok || (b.Op != token.LSS && b.Op != token.LEQ) {
		return 0, false
	}
	o := r.obj(b.X)
	if o == nil || r.down[o] {
		return 0, false
	}
	as, ok := fs.Init.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || r.obj(as.Lhs[0]) != o {
		return 0, false
	}
	k, ok := r.m.intConst(as.Rhs[0])
	return k, ok && k > 0
}

// postCounted reports whether the counter of cond starts at 0 in the for
// statement's init and is counted up only by its post statement (n++), so
// that an exit in the body sees the pass's number before the increment.
func (r *condReader) postCounted(cond ast.Expr) bool {
	f, ok := r.loop.(*ast.ForStmt)
	if !ok || f.Post == nil {
		return false
	}
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	o := r.obj(b.X)
	if o == nil || r.down[o] {
		return false
	}
	inc, ok := f.Post.(*ast.IncDecStmt)
	if !ok || inc.Tok != token.INC || r.obj(inc.X) != o {
		return false
	}
	for _, d := range r.di.defs[o] {
		if in(r.body, d.pos) {
			return false // also counted in the body
		}
	}
	// from 0, set by the for statement itself
	init, ok := f.Init.(*ast.AssignStmt)
	if !ok || len(init.Lhs) != 1 || len(init.Rhs) != 1 || r.obj(init.Lhs[0]) != o {
		return false
	}
	tv, ok := r.m.info.Types[init.Rhs[0]]
	return ok && tv.Value != nil && constant.Sign(tv.Value) == 0
}

// passFilter reports whether e compares an attempt counter for equality
// (i == 0): negated, it holds on every pass but one.
func (r *condReader) passFilter(e ast.Expr) bool {
	b, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok || b.Op != token.EQL {
		return false
	}
	k, _, _ := r.condKind(e, false)
	return k == condCounter
}

// onResults reports whether cond mentions a result of an attempt and
// calls nothing but predicates on it.
func (r *condReader) onResults(cond ast.Expr) bool {
	mentions := false
	ast.Inspect(cond, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && r.results[r.m.info.Uses[id]] {
			mentions = true
		}
		return true
	})
	return mentions
}

// assignedInLoop reports whether o is assigned anywhere in the loop.
func (r *condReader) assignedInLoop(o types.Object) bool {
	for _, d := range r.di.defs[o] {
		if in(r.loop, d.pos) {
			return true
		}
	}
	return false
}

// fromBackoffStop reports whether o holds a backoff library's next delay,
// compared with its Stop value to end the loop.
func (r *condReader) fromBackoffStop(o types.Object) bool {
	for _, d := range r.di.defs[o] {
		if call, ok := ast.Unparen(d.rhs).(*ast.CallExpr); ok {
			if fn := r.m.callee(call); fn != nil && strings.HasSuffix(fn.FullName(), ".NextBackOff") {
				return true
			}
		}
	}
	return false
}

// fromCounterDecision reports whether o, not an error, is assigned in the
// loop from a call that is passed the loop's attempt counter (ok :=
// retrier.Retry(ctx, n, err)): a retry policy deciding by the attempt
// number, not an attempt.
func (r *condReader) fromCounterDecision(o types.Object) bool {
	if isError(o.Type()) {
		return false // the attempt's own error: op(attempt) is an attempt
	}
	for _, d := range r.di.defs[o] {
		if !in(r.loop, d.pos) {
			continue
		}
		call, ok := ast.Unparen(d.rhs).(*ast.CallExpr)
		if !ok {
			continue
		}
		for _, a := range call.Args {
			if u := r.obj(a); u != nil && u != o && r.counts[u] {
				return true
			}
		}
	}
	return false
}

// ctxErrorTest reports whether e tests that an attempt failed because its
// context ended (errors.Is(err, context.Canceled), err ==
// context.DeadlineExceeded), where every attempt that assigns err is
// passed a context: the exit is that context's end, and its deadline the
// context's.
func (r *condReader) ctxErrorTest(e ast.Expr) (Deadline, bool) {
	var x, target ast.Expr
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		if r.m.calleeName(e) == "errors.Is" && len(e.Args) == 2 {
			x, target = e.Args[0], e.Args[1]
		}
	case *ast.BinaryExpr:
		if e.Op == token.EQL {
			x, target = e.X, e.Y
		}
	}
	if x == nil {
		return Deadline{}, false
	}
	tid := astq.NameIdent(target)
	if tid == nil {
		return Deadline{}, false
	}
	v, ok := r.m.info.Uses[tid].(*types.Var)
	if !ok || v.Pkg() == nil || v.Pkg().Path() != "context" || v.Name() != "Canceled" && v.Name() != "DeadlineExceeded" {
		return Deadline{}, false
	}
	o := r.obj(x)
	if o == nil || !r.errs[o] {
		return Deadline{}, false
	}
	if _, ok := r.waitErr[o]; ok {
		return Deadline{}, false
	}
	d := Deadline{Pos: e.Pos()}
	for _, at := range r.attemptDefs(o) {
		ctx := contextArg(r.m.info, at.call)
		if ctx == nil {
			return Deadline{}, false
		}
		if k := r.m.ctxArgKind(r.di, ctx); d.Kind == 0 || k == DeadlineCaller || k == DeadlineInScope && d.Kind == DeadlineNone {
			d.Kind, d.ctx = k, r.obj(ctx)
		}
	}
	if d.Kind == 0 {
		return Deadline{}, false
	}
	return d, true
}

// commDeadline reports whether a select case that leaves the loop is a
// deadline: <-ctx.Done(), or a timer made before the loop.
func (r *condReader) commDeadline(comm ast.Stmt) (Deadline, bool) {
	u := recvExpr(comm)
	if u == nil {
		return Deadline{}, false
	}
	switch ch := ast.Unparen(u.X).(type) {
	case *ast.CallExpr:
		if fn := r.m.callee(ch); fn != nil && fn.FullName() == "(context.Context).Done" {
			if sel, ok := ch.Fun.(*ast.SelectorExpr); ok {
				if o := r.obj(sel.X); o != nil {
					return Deadline{Kind: r.m.ctxKind(r.di, o), Pos: u.Pos(), ctx: o}, true
				}
			}
			return Deadline{Kind: DeadlineCaller, Pos: u.Pos()}, true
		}
		if fn := r.m.callee(ch); fn != nil && fn.FullName() == "time.After" {
			return Deadline{}, false // a wait inside the loop
		}
	case *ast.Ident, *ast.SelectorExpr:
		// A channel made before the loop: a timer or a done channel.
		var o types.Object
		if id, ok := ch.(*ast.Ident); ok {
			o = r.m.info.Uses[id]
		} else if sel := ch.(*ast.SelectorExpr); true {
			o = r.obj(sel.X)
		}
		if o != nil && !in(r.loop, o.Pos()) {
			if local(o) && r.assignedInLoop(o) {
				return Deadline{}, false // backoff = time.After(d) in the loop: a wait, not a deadline
			}
			if ctx := r.doneOf(o); ctx != nil {
				// stopCh := ctx.Done(): the context's deadline
				return Deadline{Kind: r.m.ctxKind(r.di, ctx), Pos: u.Pos(), ctx: ctx}, true
			}
			if stopSignal(r.m.info.TypeOf(ch)) {
				// <-s.done, <-stopCh: a signal closed on shutdown ends the
				// loop, at no time of its own; the caller's own, when it
				// comes with the call
				if v, ok := o.(*types.Var); ok && isParamOf(r.fn, v) {
					return Deadline{Kind: DeadlineCaller, Pos: u.Pos(), stop: r.m.paramFieldOf(r.fn, ch)}, true
				}
				return Deadline{Kind: DeadlineNone, Pos: u.Pos()}, true
			}
			return Deadline{Kind: DeadlineInScope, Pos: u.Pos()}, true
		}
	}
	return Deadline{Kind: DeadlineUnknown, Pos: u.Pos()}, true
}

// recvExpr returns the receive (<-ch) of a select case, or nil.
func recvExpr(comm ast.Stmt) *ast.UnaryExpr {
	if u, ok := ast.Unparen(astq.StmtExpr(comm)).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		return u
	}
	return nil
}

// signalKind classifies the stop signal a wait helper is passed (see
// stopWaitArg): a context by its origin; a channel as a select case on it
// would be (commDeadline): the caller's when it comes as a parameter or
// holds the caller's ctx.Done(), else a signal closed on shutdown, no
// deadline.
func (r *condReader) signalKind(a ast.Expr) DeadlineKind {
	if t := r.m.info.TypeOf(a); t != nil && isContext(t) {
		return r.m.ctxArgKind(r.di, a)
	}
	switch a := ast.Unparen(a).(type) {
	case *ast.Ident:
		o := r.m.info.Uses[a]
		if o == nil {
			return DeadlineUnknown
		}
		if ctx := r.doneOf(o); ctx != nil {
			return r.m.ctxKind(r.di, ctx)
		}
		if v, ok := o.(*types.Var); ok && isParamOf(r.fn, v) {
			return DeadlineCaller
		}
		return DeadlineNone
	case *ast.SelectorExpr:
		return DeadlineNone // s.done: a field closed on shutdown
	}
	return DeadlineUnknown
}

// doneOf returns the context whose Done channel the local o holds
// (stopCh := ctx.Done()), or nil.
func (r *condReader) doneOf(o types.Object) types.Object {
	if !local(o) {
		return nil
	}
	var ctx types.Object
	for _, d := range r.di.defs[o] {
		call, ok := ast.Unparen(d.rhs).(*ast.CallExpr)
		if !ok {
			return nil
		}
		fn := r.m.callee(call)
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if fn == nil || !ok || fn.FullName() != "(context.Context).Done" {
			return nil
		}
		if ctx = r.obj(sel.X); ctx == nil {
			return nil
		}
	}
	return ctx
}

// stopSignal reports whether t is a channel of struct{}: a signal that is
// closed (on shutdown, on Close) rather than a timer's channel of
// time.Time.
func stopSignal(t types.Type) bool {
	if t == nil {
		return false
	}
	ch, ok := t.Underlying().(*types.Chan)
	if !ok {
		return false
	}
	st, ok := ch.Elem().Underlying().(*types.Struct)
	return ok && st.NumFields() == 0
}

// isParamOf reports whether v is a parameter of fn.
func isParamOf(fn ast.Node, v *types.Var) bool {
	ft, _ := astq.Func(fn)
	return ft != nil && ft.Params.Pos() <= v.Pos() && v.Pos() < ft.Params.End()
}

// contextArg returns the first argument of call that is a context.
func contextArg(info *types.Info, call *ast.CallExpr) ast.Expr {
	for _, a := range call.Args {
		if t := info.TypeOf(a); t != nil && isContext(t) {
			return a
		}
	}
	return nil
}

func isContext(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

func isTimeType(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "time" {
		return false
	}
	return n.Obj().Name() == "Time"
}

// offByDefault reports whether an exit under guards is not taken by
// default: one of the guards requires, as a conjunct, that an integer
// field of the package be set (max > 0, with max :=
// c.conf.Consumer.Retry.Max, or c.MaxRetries != 0) that the package
// leaves at 0 (zeroByDefault): a cap whose 0 means no cap, as the loop
// reads it.
func (r *condReader) offByDefault(guards []guard) bool {
	for _, g := range guards {
		if g.cond == nil || g.neg {
			continue
		}
		for _, c := range conjuncts(g.cond) {
			b, ok := ast.Unparen(c).(*ast.BinaryExpr)
			if !ok {
				continue
			}
			var f ast.Expr
			switch {
			case (b.Op == token.GTR || b.Op == token.NEQ) && r.m.isZero(b.Y):
				f = b.X
			case (b.Op == token.LSS || b.Op == token.NEQ) && r.m.isZero(b.X):
				f = b.Y
			default:
				continue
			}
			if v := r.fieldValue(f); v != nil && r.m.zeroByDefault(v) {
				return true
			}
		}
	}
	return false
}

// fieldValue returns the field e reads, directly or through a local
// variable assigned only that field (max := c.conf.Retry.Max), or nil.
func (r *condReader) fieldValue(e ast.Expr) *types.Var {
	e = ast.Unparen(e)
	if id, ok := e.(*ast.Ident); ok {
		o := r.m.info.Uses[id]
		if o == nil || !local(o) {
			return nil
		}
		defs := r.di.defs[o]
		if len(defs) != 1 || defs[0].tuple >= 0 || defs[0].rhs == nil {
			return nil
		}
		e = ast.Unparen(defs[0].rhs)
	}
	return r.m.fieldOf(e)
}

func conjuncts(e ast.Expr) []ast.Expr {
	if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && b.Op == token.LAND {
		return append(conjuncts(b.X), conjuncts(b.Y)...)
	}
	return []ast.Expr{e}
}

// isNilCompare reports whether b compares what isE matches with nil.
func isNilCompare(info *types.Info, b *ast.BinaryExpr, isE func(ast.Expr) bool) bool {
	isNil := func(x ast.Expr) bool {
		tv, ok := info.Types[x]
		return ok && tv.IsNil()
	}
	return (isE(b.X) && isNil(b.Y)) || (isNil(b.X) && isE(b.Y))
}

// mentionsStatus reports whether e reads a StatusCode field (a
// response's status).
func mentionsStatus(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "StatusCode" {
			found = true
		}
		return !found
	})
	return found
}

// settleBounds sets a loop scope's cap and deadline from what its exits
// gave: the smallest known cap among caps, else unknown when an exit the
// reader could not read (other) may bound it, else none; a deadline of
// none with such an exit is unknown, and the caller's context alone is
// judged by what the callers pass (unboundedCaller). The walk and the
// engine's scopes both end here.
func (m *model) settleBounds(s *Scope, caps []Cap, other bool, dl Deadline) {
	switch {
	case len(caps) > 0:
		s.Cap = caps[0]
		for _, c := range caps[1:] {
			if c.Kind == CapKnown && (s.Cap.Kind != CapKnown || c.N < s.Cap.N) {
				s.Cap = c
			}
		}
	case other:
		s.Cap = Cap{Kind: CapUnknown}
	default:
		s.Cap = Cap{Kind: CapNone}
	}
	if dl.Kind == DeadlineNone && other {
		dl = Deadline{Kind: DeadlineUnknown}
	}
	if dl.Kind == DeadlineCaller && s.Cap.Kind == CapNone && dl.ctx != nil {
		dl.Unbounded = m.unboundedCaller(dl.ctx)
	}
	s.Deadline = dl
}

// capGate returns the parameter field that one of the guards of an exit
// requires to be positive (if opts.attempts > 0 && i >= opts.attempts-1
// { break }), or nil.
func (r *condReader) capGate(guards []guard) *paramField {
	for _, g := range guards {
		if g.cond == nil || g.neg {
			continue
		}
		for _, c := range conjuncts(g.cond) {
			if pf := r.m.gateOf(r.fn, c); pf != nil {
				return pf
			}
		}
	}
	return nil
}

// settleGate sets s.capGate when every cap of the loop (gated, one per
// exit that gave caps) is taken only when the same parameter field is
// positive, and no range counts the loop.
func settleGate(s *Scope, gated []*paramField, caps int, ranged bool) {
	if len(gated) == 0 || len(gated) != caps || ranged {
		return
	}
	g := gated[0]
	for _, o := range gated[1:] {
		if o == nil || g == nil || *o != *g {
			g = nil
		}
	}
	s.capGate = g
}

// Retries in loops that repeat on success too, beyond failureRetry's
// if err != nil { wait; continue } (issue 19, shape 6 of
// testdata/recall/README.md): the failure's wait can come after the branch
// that tells success from failure, or at the top of the next pass.

// mentionsIn reports whether n mentions o.
func mentionsIn(info *types.Info, n ast.Node, o types.Object) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == o {
			found = true
		}
		return !found
	})
	return found
}

// A loop can count its attempts in a field of a local value rather than
// in a variable: for b.Steps > 0 { ...; time.Sleep(b.Step()) }, where the
// method Step (pointer receiver, this package) decrements b.Steps. This is
// the apimachinery wait.ExponentialBackoff loop, copied into many modules
// (go-containerregistry's internal/retry/wait among them): it is bounded
// by the Steps it was given, a number the model does not read.

// fieldCounter returns the field that e counts in: x.F where x is a local
// variable and F an integer field, or nil.
func (r *condReader) fieldCounter(e ast.Expr) types.Object {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	base := r.obj(sel.X)
	if base == nil || !local(base) {
		return nil
	}
	f, ok := r.m.info.Uses[sel.Sel].(*types.Var)
	if !ok || !f.IsField() || !isInteger(f.Type()) {
		return nil
	}
	return f
}

// countsDownIn records, for a call x.M() on a local x whose method M (of
// this package, pointer receiver) decrements a field of its receiver, that
// field as a counter counting down.
func (r *condReader) countsDownIn(call *ast.CallExpr) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	if base := r.obj(sel.X); base == nil || !local(base) {
		return
	}
	fn, ok := r.m.info.Uses[sel.Sel].(*types.Func)
	if !ok {
		return
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return
	}
	if _, ok := recv.Type().(*types.Pointer); !ok {
		return // a value receiver decrements a copy
	}
	fd := r.m.funcs[fn.Origin()]
	if fd == nil || fd.Body == nil || fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
		return
	}
	rv := r.m.info.Defs[fd.Recv.List[0].Names[0]]
	if rv == nil {
		return
	}
	astq.InspectOwn(fd.Body, func(n ast.Node) bool {
		var lhs ast.Expr
		switch n := n.(type) {
		case *ast.IncDecStmt:
			if n.Tok == token.DEC {
				lhs = n.X
			}
		case *ast.AssignStmt:
			if n.Tok == token.SUB_ASSIGN && len(n.Lhs) == 1 {
				lhs = n.Lhs[0]
			}
		}
		if s, ok := ast.Unparen(lhs).(*ast.SelectorExpr); ok {
			if id, ok := ast.Unparen(s.X).(*ast.Ident); ok && r.m.info.Uses[id] == rv {
				if f, ok := r.m.info.Uses[s.Sel].(*types.Var); ok && f.IsField() && isInteger(f.Type()) {
					r.counts[f] = true
					r.down[f] = true
				}
			}
		}
		return true
	})
}
