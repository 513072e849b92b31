package retryscope

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// callee returns the function or method a call statically calls, or nil.
// For generic functions it returns the generic origin.
func (m *model) callee(call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(m.info, call).(*types.Func)
	if fn != nil {
		fn = fn.Origin()
	}
	return fn
}

func (m *model) isConversion(call *ast.CallExpr) bool {
	tv, ok := m.info.Types[call.Fun]
	return ok && tv.IsType()
}

// waitSite is a call that waits, with what its duration is read from:
// the expression of its duration (a time function's argument), or the wait
// summary of the function it calls (a helper that waits, here or in
// another package: waitsum.go), whose parameters the call's arguments
// stand for.
type waitSite struct {
	call *ast.CallExpr
	dur  ast.Expr // nil when the duration is not visible
	di   *defIndex
	// sum is set when call is a call of a function that waits (waitFact).
	sum *waitFact
	// args, when the call stands in a function called with known
	// arguments (an attempt iterator's literal: iterators.go), map that
	// function's parameters to the caller's arguments, read in callerDI.
	args     map[types.Object]ast.Expr
	callerDI *defIndex
	// timer is set when the wait is a timer made or reset (time.NewTimer,
	// (*time.Timer).Reset), which waits only where it is received from.
	timer bool
}

// waitCall reports whether call waits, and how long: a call of a time
// function that waits, or of a function whose wait summary says it waits
// (waitSummary), however deep its own helpers go.
func (m *model) waitCall(di *defIndex, call *ast.CallExpr) *waitSite {
	fn := m.callee(call)
	if fn == nil {
		return nil
	}
	if w, ok := waitFuncs[fn.FullName()]; ok && len(call.Args) == w.arity {
		return &waitSite{call: call, dur: call.Args[w.dur], di: di, timer: w.timer}
	}
	if s := m.waitSummary(fn); s != nil {
		return &waitSite{call: call, di: di, sum: s, timer: s.Timer}
	}
	return nil
}

// helperCalls visits the calls by which a function with body may be a
// helper whose job is to wait: one that waits unconditionally, in its own
// top-level statements (or a top-level select's communications), and has
// no loop of its own. It visits nothing when body has a loop, and stops
// when visit returns true.
func helperCalls(body *ast.BlockStmt, visit func(*ast.CallExpr) bool) {
	hasLoop := false
	astq.InspectOwn(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			hasLoop = true
		}
		return !hasLoop
	})
	if hasLoop {
		return
	}
	done := false
	look := func(n ast.Node) {
		if n == nil {
			return // a select's default case
		}
		astq.InspectOwn(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				done = done || visit(n)
			}
			return !done
		})
	}
	for _, st := range body.List {
		switch st := st.(type) {
		case *ast.SelectStmt:
			for _, c := range st.Body.List {
				look(c.(*ast.CommClause).Comm)
			}
		case *ast.ExprStmt, *ast.AssignStmt, *ast.DeclStmt, *ast.ReturnStmt:
			look(st)
		}
		if done {
			return
		}
	}
}

// loopWaits finds the waits in a loop body.
func (m *model) loopWaits(di *defIndex, body *ast.BlockStmt) []Wait {
	var waits []Wait
	blocking := false
	// if c.retryBackoff != nil { wait }: a hook the package leaves nil; by
	// default the loop does not wait there.
	untaken := func(st *ast.IfStmt) bool { return m.untakenByDefault(st.Cond) }
	inspectDefault(body, untaken, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ForStmt:
			// A nested for loop paces itself: its waits are its own (a
			// poll for a state, or a retry of its own that reports them),
			// not a backoff between this loop's attempts. The loop still
			// blocks there.
			if hasWaitCall(m, di, n.Body) {
				blocking = true
				return false
			}
		case *ast.SelectStmt:
			blocking = true
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				blocking = true
			}
		case *ast.CallExpr:
			wt, ok, blocks := m.callWait(di, body, n)
			if ok {
				waits = append(waits, wt)
				return false
			}
			blocking = blocking || blocks
		}
		return true
	})
	if len(waits) == 0 {
		k := WaitNone
		if blocking {
			k = WaitUnknown
		}
		waits = append(waits, Wait{Kind: k, Pos: body.Lbrace, Node: body})
	}
	return waits
}

// callWait classifies one call of a loop's repeated code body: its Wait
// when it waits (waitCall; a timer reset whose channel body never
// receives from does not), else whether it blocks (a callee named like a
// wait). loopWaits reads each call of a body with it, and the engine's
// loop scopes each call on the way from a failure to the next attempt.
func (m *model) callWait(di *defIndex, body *ast.BlockStmt, call *ast.CallExpr) (wt Wait, waits, blocks bool) {
	if ws := m.waitCall(di, call); ws != nil {
		if fn := m.callee(call); fn != nil && fn.FullName() == "(*time.Timer).Reset" && !m.receivesTimer(body, call) {
			return Wait{}, false, false
		}
		return m.waitAt(ws, call), true, false
	}
	if fn := m.callee(call); fn != nil {
		name := strings.ToLower(fn.Name())
		for _, w := range waitWords {
			if strings.Contains(name, w) {
				blocks = true
			}
		}
	}
	return Wait{}, false, blocks
}

// waitWords are the words that, in the name of a function a loop calls,
// make the loop blocking (loopWaits).
var waitWords = []string{"wait", "sleep", "backoff", "pause", "delay", "throttle", "limit"}

// waitNames are the names of the functions waitCall knows to wait:
// time.Sleep, time.After, time.NewTimer, (*time.Timer).Reset, time.Tick
// and gax.Sleep.
var waitNames = []string{"Sleep", "After", "NewTimer", "Reset", "Tick"}

// receivesTimer reports whether body receives from the channel of the timer
// that reset resets.
func (m *model) receivesTimer(body *ast.BlockStmt, reset *ast.CallExpr) bool {
	sel, ok := reset.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	timer := rootObj(m.info, sel.X)
	if timer == nil {
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
			if cs, ok := ast.Unparen(u.X).(*ast.SelectorExpr); ok && cs.Sel.Name == "C" && rootObj(m.info, cs.X) == timer {
				found = true
			}
		}
		return !found
	})
	return found
}

// rootObj returns the object of an identifier or of the last selector of a
// selector chain (t, or s.timer).
func rootObj(info *types.Info, e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return info.Uses[e]
	case *ast.SelectorExpr:
		return info.Uses[e.Sel]
	}
	return nil
}

// waitAt is the Wait of the wait call at ws: time.After(0) is none, the
// next pass at once, no backoff.
func (m *model) waitAt(ws *waitSite, call *ast.CallExpr) Wait {
	k := m.siteKind(ws, &classifier{m: m, di: ws.di, args: ws.args, argsDI: ws.callerDI, seen: map[types.Object]bool{}})
	if k == WaitConstant && ws.sum == nil && m.isZero(ws.dur) {
		k = WaitNone
	}
	return Wait{Kind: k, Pos: call.Pos(), Node: call}
}

// siteKind is the kind of ws's duration, its expressions read by c: the
// duration's own, or the summary's kind combined with those of the
// arguments its duration comes from.
func (m *model) siteKind(ws *waitSite, c *classifier) WaitKind {
	if ws.sum != nil {
		k := ws.sum.Kind
		for _, i := range ws.sum.Params {
			if i < len(ws.call.Args) {
				k = combine(k, c.kind(ws.call.Args[i], 0))
			}
		}
		return k
	}
	if ws.dur == nil {
		return WaitUnknown
	}
	return c.kind(ws.dur, 0)
}

// classifier decides the kind of a duration expression.
type classifier struct {
	m    *model
	di   *defIndex
	args map[types.Object]ast.Expr // a helper's parameters, mapped to the caller's arguments
	// argsDI is the caller's def index, to read args in.
	argsDI *defIndex
	// params, when set, are the parameters of a function being summarised
	// (waitsum.go), by index: each stands for what a caller passes, is
	// fixed here, and is noted in reached.
	params  map[types.Object]int
	reached map[int]bool
	seen    map[types.Object]bool
	// untaken are branches of the body being classified that the call
	// does not take: tests of receiver fields its receiver leaves unset
	// (fieldjitter.go).
	untaken []*ast.IfStmt
}

// combine merges the kinds of the parts of one expression: randomness
// anywhere makes it jittered, a server-directed part makes it
// server-directed, an unknown part unknown, growth beats constant.
func combine(a, b WaitKind) WaitKind {
	rank := func(k WaitKind) int {
		switch k {
		case WaitJittered:
			return 5
		case WaitServer:
			return 4
		case WaitUnknown:
			return 3
		case WaitGrowth:
			return 2
		case WaitConstant:
			return 1
		}
		return 0
	}
	if rank(a) >= rank(b) {
		return a
	}
	return b
}

const maxDepth = 8

func (c *classifier) kind(e ast.Expr, depth int) WaitKind {
	if depth > maxDepth {
		return WaitUnknown
	}
	info := c.m.info
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		return WaitConstant
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return c.kind(e.X, depth+1)
	case *ast.UnaryExpr:
		return c.kind(e.X, depth+1)
	case *ast.StarExpr:
		return c.kind(e.X, depth+1)
	case *ast.BinaryExpr:
		k := combine(c.kind(e.X, depth+1), c.kind(e.Y, depth+1))
		if e.Op == token.SHL && k == WaitConstant {
			return WaitGrowth
		}
		if (e.Op == token.MUL || e.Op == token.ADD) && k == WaitConstant && (c.counterLike(e.X) || c.counterLike(e.Y)) {
			return WaitGrowth
		}
		return k
	case *ast.Ident:
		o := info.Uses[e]
		if o == nil {
			return WaitUnknown
		}
		if a, ok := c.args[o]; ok {
			// a helper's parameter: what the caller passed, read at the
			// same depth
			outer := &classifier{m: c.m, di: c.argsDI, seen: c.seen, params: c.params, reached: c.reached}
			return outer.kind(a, depth)
		}
		if i, ok := c.params[o]; ok {
			c.reached[i] = true
			return WaitConstant // fixed for the call: the caller's argument decides
		}
		if _, ok := o.(*types.Const); ok {
			return WaitConstant
		}
		if !local(o) {
			return WaitConstant // a field, a package variable, a parameter's value: fixed per attempt
		}
		return c.variable(o, depth)
	case *ast.SelectorExpr:
		if tv, ok := info.Types[e.X]; ok && tv.IsValue() && !astq.IsError(tv.Type) && astq.ImplementsError(tv.Type) {
			if _, isField := info.Uses[e.Sel].(*types.Var); isField {
				// a field of an error the failure carries
				// (rateLimitedError.RetryAfter): the server's answer
				return WaitServer
			}
		}
		if v := c.m.fieldOf(e); v != nil {
			// a field: what the package's code stores in it by default
			// (fields.go)
			return c.m.fieldWaitKind(v)
		}
		if _, ok := info.Uses[e.Sel].(*types.Const); ok {
			return WaitConstant
		}
		if _, ok := info.Uses[e.Sel].(*types.Var); ok {
			return WaitConstant // a package-level variable
		}
		return WaitUnknown
	case *ast.IndexExpr:
		// a schedule of delays indexed by the attempt
		return combine(WaitGrowth, combine(c.kind(e.X, depth+1), WaitConstant))
	case *ast.CompositeLit:
		k := WaitConstant
		for _, elt := range e.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				elt = kv.Value
			}
			k = combine(k, c.kind(elt, depth+1))
		}
		return k
	case *ast.CallExpr:
		return c.call(e, depth)
	}
	return WaitUnknown
}

// counterLike reports whether e mentions a variable that changes from one
// attempt to the next (incremented, or multiplied).
func (c *classifier) counterLike(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if o := c.m.info.Uses[id]; o != nil && local(o) {
				for _, d := range c.di.defs[o] {
					switch d.op {
					case token.INC, token.DEC, token.ADD_ASSIGN, token.RANGE:
						found = true
					}
				}
				if v, ok := o.(*types.Var); ok && !found {
					_ = v
				}
			}
		}
		return !found
	})
	return found
}

// variable classifies a local variable by every assignment to it.
func (c *classifier) variable(o types.Object, depth int) WaitKind {
	if c.seen[o] {
		return WaitConstant
	}
	c.seen[o] = true
	defer delete(c.seen, o)
	defs := c.di.defs[o]
	if len(defs) == 0 {
		return WaitConstant // a parameter: fixed for the call
	}
	k := WaitConstant
	floor := false
	for _, d := range defs {
		if c.untakenAt(d.pos) {
			continue
		}
		switch d.op {
		case token.MUL_ASSIGN, token.SHL_ASSIGN, token.QUO_ASSIGN:
			k = combine(k, combine(WaitGrowth, c.kind(d.rhs, depth+1)))
			continue
		case token.ADD_ASSIGN, token.INC:
			k = combine(k, WaitGrowth)
			if d.rhs != nil {
				k = combine(k, c.kind(d.rhs, depth+1))
			}
			continue
		case token.RANGE:
			k = combine(k, WaitGrowth)
			continue
		}
		if d.rhs == nil {
			continue
		}
		if d.tuple >= 0 {
			if call, ok := ast.Unparen(d.rhs).(*ast.CallExpr); ok {
				k = combine(k, c.call(call, depth+1))
				continue
			}
			k = combine(k, WaitUnknown)
			continue
		}
		// v = v * 2 grows.
		if b, ok := ast.Unparen(d.rhs).(*ast.BinaryExpr); ok && (b.Op == token.MUL || b.Op == token.SHL || b.Op == token.ADD) && (mentionsIn(c.m.info, b.X, o) || mentionsIn(c.m.info, b.Y, o)) {
			k = combine(k, WaitGrowth)
		}
		dk := c.kind(d.rhs, depth+1)
		if dk == WaitGrowth && isMinMax(c.m.info, d.rhs) && mentionsIn(c.m.info, d.rhs, o) {
			floor = true // v = max(v, backoff): what v ends as
		}
		k = combine(k, dk)
	}
	if floor && k == WaitServer {
		return WaitGrowth // the server's wait when it sends one, the growth otherwise
	}
	return k
}

// isMinMax reports whether e is a call of the builtin min or max.
func isMinMax(info *types.Info, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	_, builtin := info.Uses[id].(*types.Builtin)
	return builtin && (id.Name == "min" || id.Name == "max")
}

// randomPkgs are the packages whose every function is a source of randomness.
var randomPkgs = map[string]bool{"math/rand": true, "math/rand/v2": true, "crypto/rand": true}

func (c *classifier) call(call *ast.CallExpr, depth int) WaitKind {
	m := c.m
	if m.isConversion(call) {
		if len(call.Args) == 1 {
			return c.kind(call.Args[0], depth+1)
		}
		return WaitUnknown
	}
	if isMinMax(m.info, call) {
		// max(rl.RetryAfter, backoff): the server's wait when it sends
		// one, a growing one otherwise: the growth decides
		k, rest, server := WaitConstant, WaitConstant, false
		for _, a := range call.Args {
			ak := c.kind(a, depth+1)
			k = combine(k, ak)
			if ak == WaitServer {
				server = true
			} else {
				rest = combine(rest, ak)
			}
		}
		if server && rest == WaitGrowth {
			return WaitGrowth
		}
		return k
	}
	fn := m.callee(call)
	if fn == nil {
		if lit := c.closure(call); lit != nil {
			return c.literal(lit, call, depth)
		}
		if k, ok := c.returnedFunc(call, depth); ok {
			return k
		}
		if v := m.fieldOf(call.Fun); v != nil && depth < maxDepth {
			return c.funcField(v, call, depth)
		}
		return WaitUnknown
	}
	if fn.Pkg() != nil && randomPkgs[fn.Pkg().Path()] {
		return WaitJittered
	}
	args := func(k WaitKind) WaitKind {
		for _, a := range call.Args {
			k = combine(k, c.kind(a, depth+1))
		}
		return k
	}
	switch name := fn.FullName(); name {
	case "math.Pow", "math.Exp2", "math.Ldexp":
		return args(WaitGrowth)
	case "math.Min", "math.Max", "math.Floor", "math.Ceil", "math.Round", "math.Trunc", "math.Abs",
		"(time.Duration).Seconds", "(time.Duration).Milliseconds", "(time.Duration).Nanoseconds",
		"(time.Duration).Truncate", "(time.Duration).Round", "(time.Duration).Minutes":
		k := args(WaitConstant)
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && fn.Signature().Recv() != nil {
			k = combine(k, c.kind(sel.X, depth+1))
		}
		return k
	case "(net/http.Header).Get", "(net/http.Header).Values", "(net/textproto.MIMEHeader).Get":
		if len(call.Args) == 1 {
			if tv, ok := m.info.Types[call.Args[0]]; ok && tv.Value != nil && strings.EqualFold(strings.Trim(tv.Value.ExactString(), `"`), "Retry-After") {
				return WaitServer
			}
		}
		return WaitUnknown
	case "strconv.Atoi", "strconv.ParseInt", "strconv.ParseFloat", "strconv.ParseUint", "net/http.ParseTime", "time.Parse", "time.ParseDuration", "time.Until", "(time.Time).Sub":
		k := args(WaitConstant)
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && fn.Signature().Recv() != nil {
			k = combine(k, c.kind(sel.X, depth+1))
		}
		if k == WaitConstant {
			return WaitUnknown
		}
		return k
	case "k8s.io/apimachinery/pkg/util/wait.Jitter":
		if len(call.Args) == 2 {
			if tv, ok := m.info.Types[call.Args[1]]; ok && tv.Value != nil && tv.Value.ExactString() == "0" {
				return c.kind(call.Args[0], depth+1)
			}
		}
		return WaitJittered
	case "(*github.com/jpillora/backoff.Backoff).Duration", "(*github.com/jpillora/backoff.Backoff).ForAttempt":
		return m.jpilloraKind(c.di, call)
	}
	if strings.HasSuffix(fn.FullName(), ".NextBackOff") {
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
			bo := m.backoffValue(c.di, sel.X, 0)
			return bo.wait
		}
		return WaitUnknown
	}
	// A helper of this package: classify what it returns.
	if fn.Pkg() == m.pass.Pkg && depth < maxDepth {
		if decl := m.funcs[fn]; decl != nil {
			return c.helper(decl, call, depth)
		}
	}
	// A delay function of another package: its fact, with the arguments
	// it depends on read here (delay(attempt) grows with attempt).
	if fn.Pkg() != m.pass.Pkg {
		var f delayFact
		if m.pass.ImportObjectFact(fn, &f) {
			k := f.Kind
			if len(f.Fields) > 0 {
				// jittered only when the receiver sets one of f.Fields
				if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
					if fields, ok := m.builtFields(c.di, sel.X, call.Pos(), 0); ok && !m.setsAny(fields, f.Fields) {
						k = f.Zero
					}
				}
			}
			for i, dep := range f.Params {
				if !dep || i >= len(call.Args) {
					continue
				}
				a := call.Args[i]
				ak := c.kind(a, depth+1)
				if ak == WaitConstant && c.counterLike(a) {
					ak = WaitGrowth
				}
				k = combine(k, ak)
			}
			return k
		}
	}
	return WaitUnknown
}

// helper classifies what a same-package function returns, its parameters
// standing for the caller's arguments.
func (c *classifier) helper(decl *ast.FuncDecl, call *ast.CallExpr, depth int) WaitKind {
	fn := c.m.info.Defs[decl.Name].(*types.Func)
	return c.body(decl.Body, fn.Signature(), c.m.defIndex(decl), call, depth, c.unsetGuards(decl, call))
}

// funcField classifies a call through func-typed field v of this package
// (c.conf.Retry.BackoffFunc(n)) by the functions the package stores in it:
// the literals and the functions of the package it sets by default. A
// field it never sets, or sets to anything else, is unknown.
func (c *classifier) funcField(v *types.Var, call *ast.CallExpr, depth int) WaitKind {
	if v.Pkg() != c.m.pass.Pkg {
		return WaitUnknown
	}
	k, any := WaitUnknown, false
	for _, s := range c.m.fieldStores()[v] {
		e, di := c.m.storedValue(s)
		if e == nil {
			return WaitUnknown
		}
		if tv, ok := c.m.info.Types[e]; ok && tv.IsNil() {
			continue
		}
		var sk WaitKind
		switch e := e.(type) {
		case *ast.FuncLit:
			sig, ok := c.m.info.TypeOf(e).(*types.Signature)
			if !ok {
				return WaitUnknown
			}
			sk = c.body(e.Body, sig, di, call, depth+1, nil)
		case *ast.SelectorExpr:
			// c.RetryAfter = DefaultBacko().Duration: a method value of the
			// package, judged with the branches its receiver leaves unset
			sel, ok := c.m.info.Selections[e]
			fn, _ := c.m.info.Uses[e.Sel].(*types.Func)
			if !ok || sel.Kind() != types.MethodVal || fn == nil || c.m.funcs[fn] == nil {
				if fn == nil || fn.Signature().Recv() != nil || c.m.funcs[fn] == nil {
					return WaitUnknown
				}
				sk = c.helper(c.m.funcs[fn], call, depth+1)
				break
			}
			decl := c.m.funcs[fn]
			sk = c.body(decl.Body, fn.Signature(), c.m.defIndex(decl), call, depth, c.m.unsetGuardsOf(decl, di, e.X, s.pos))
		default:
			fn, _ := rootObj(c.m.info, e).(*types.Func)
			if fn == nil || fn.Signature().Recv() != nil || c.m.funcs[fn] == nil {
				return WaitUnknown
			}
			sk = c.helper(c.m.funcs[fn], call, depth+1)
		}
		if !any {
			k, any = sk, true
		} else {
			k = combine(k, sk)
		}
	}
	return k
}

// returnedFunc classifies a call through a local variable assigned once
// the result of a function of the package that returns function values
// (durationFunc := safeDurationFunc(c.profile.NetworkFailureRetryDuration);
// durationFunc(idx)): each function it returns, called with call's
// arguments. A return of its own parameter under "param != nil", when the
// argument is a func field the package never sets, is the users' override
// (nil unless they set it), not the default, and is passed over.
func (c *classifier) returnedFunc(call *ast.CallExpr, depth int) (WaitKind, bool) {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || depth >= maxDepth {
		return 0, false
	}
	o := c.m.info.Uses[id]
	if o == nil || !local(o) {
		return 0, false
	}
	defs := c.di.defs[o]
	if len(defs) != 1 || defs[0].tuple >= 0 || defs[0].rhs == nil {
		return 0, false
	}
	hc, ok := ast.Unparen(defs[0].rhs).(*ast.CallExpr)
	if !ok {
		return 0, false
	}
	h := c.m.callee(hc)
	if h == nil || h.Pkg() != c.m.pass.Pkg || c.m.funcs[h] == nil || h.Signature().Recv() != nil {
		return 0, false
	}
	decl := c.m.funcs[h]
	params := h.Signature().Params()
	param := func(e ast.Expr) int {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			for i := 0; i < params.Len() && i < len(hc.Args); i++ {
				if c.m.info.Uses[id] == params.At(i) {
					return i
				}
			}
		}
		return -1
	}
	// unsetOverride: "p != nil" where the caller passes a func field the
	// package never sets
	unsetOverride := func(cond ast.Expr) bool {
		b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
		if !ok || b.Op != token.NEQ {
			return false
		}
		x := b.X
		if tv, ok := c.m.info.Types[b.X]; ok && tv.IsNil() {
			x = b.Y
		} else if tv, ok := c.m.info.Types[b.Y]; !ok || !tv.IsNil() {
			return false
		}
		i := param(x)
		if i < 0 {
			return false
		}
		v := c.m.fieldOf(hc.Args[i])
		if v == nil {
			return false
		}
		if _, ok := v.Type().Underlying().(*types.Signature); !ok {
			return false
		}
		return !c.m.written(v) || v.Pkg() == c.m.pass.Pkg && c.m.nilByDefault(v, 0)
	}
	k, found, bad := WaitKind(0), false, false
	untaken := func(st *ast.IfStmt) bool { return unsetOverride(st.Cond) }
	inspectDefault(decl.Body, untaken, func(n ast.Node) bool {
		if bad {
			return false
		}
		switch n := n.(type) {
		case *ast.ReturnStmt:
			if len(n.Results) != 1 {
				bad = true
				return false
			}
			r := ast.Unparen(n.Results[0])
			var rk WaitKind
			if i := param(r); i >= 0 {
				// the caller's function: a literal or a function it names
				a := ast.Unparen(hc.Args[i])
				if lit, ok := a.(*ast.FuncLit); ok {
					rk = c.literal(lit, call, depth+1)
				} else if fn, ok := rootObj(c.m.info, a).(*types.Func); ok && fn != nil {
					rk = c.call(&ast.CallExpr{Fun: a, Lparen: call.Lparen, Args: call.Args, Rparen: call.Rparen}, depth+1)
				} else {
					rk = WaitUnknown
				}
			} else if fn, ok := rootObj(c.m.info, r).(*types.Func); ok && fn != nil {
				// return profile.ExponentialBackoff: called with call's arguments
				rk = c.call(&ast.CallExpr{Fun: r, Lparen: call.Lparen, Args: call.Args, Rparen: call.Rparen}, depth+1)
			} else {
				rk = WaitUnknown
			}
			if !found {
				k, found = rk, true
			} else {
				k = combine(k, rk)
			}
		}
		return true
	})
	if bad || !found {
		return 0, false
	}
	return k, true
}

// closure returns the function literal that call calls through a local
// variable assigned only that literal (computeBackoff := func(n int)
// time.Duration {...}; computeBackoff(n)), or nil.
func (c *classifier) closure(call *ast.CallExpr) *ast.FuncLit {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return nil
	}
	o := c.m.info.Uses[id]
	if o == nil || !local(o) {
		return nil
	}
	defs := c.di.defs[o]
	if len(defs) != 1 || defs[0].tuple >= 0 {
		return nil
	}
	lit, _ := ast.Unparen(defs[0].rhs).(*ast.FuncLit)
	return lit
}

// literal classifies what a function literal of the same function returns.
func (c *classifier) literal(lit *ast.FuncLit, call *ast.CallExpr, depth int) WaitKind {
	sig, ok := c.m.info.TypeOf(lit).(*types.Signature)
	if !ok {
		return WaitUnknown
	}
	return c.body(lit.Body, sig, c.di, call, depth, nil)
}

// body classifies what a function body returns, its parameters (sig's)
// standing for call's arguments, read in di.
func (c *classifier) body(body *ast.BlockStmt, sig *types.Signature, di *defIndex, call *ast.CallExpr, depth int, untaken []*ast.IfStmt) WaitKind {
	args := make(map[types.Object]ast.Expr)
	for i := 0; i < sig.Params().Len() && i < len(call.Args); i++ {
		args[sig.Params().At(i)] = call.Args[i]
	}
	inner := &classifier{m: c.m, di: di, args: args, argsDI: c.di, seen: c.seen, untaken: untaken, params: c.params, reached: c.reached}
	return inner.returns(body, depth)
}

// returns classifies what a function body returns, combining its return
// statements.
func (c *classifier) returns(body *ast.BlockStmt, depth int) WaitKind {
	inner := c
	k := WaitKind(0)
	found := false
	// if c.BackoffFunc != nil { return c.BackoffFunc(n) }: a hook the
	// package never sets; the default is what follows.
	untaken := func(st *ast.IfStmt) bool { return c.m.untakenByDefault(st.Cond) || slices.Contains(c.untaken, st) }
	inspectDefault(body, untaken, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ReturnStmt:
			if len(n.Results) > 0 {
				rk := inner.kind(n.Results[0], depth+1)
				if !found {
					k, found = rk, true
				} else {
					k = combine(k, rk)
				}
			}
		}
		return true
	})
	if !found {
		return WaitUnknown
	}
	return k
}

// hasWaitCall reports whether body calls a wait (waitCall), outside
// function literals.
func hasWaitCall(m *model, di *defIndex, body *ast.BlockStmt) bool {
	return astq.Find(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		return ok && m.waitCall(di, call) != nil
	})
}

// ownWait reports whether waits has a wait call (a sleep, a timer), not
// only a blocking statement the model cannot read.
func ownWait(waits []Wait) bool {
	for _, w := range waits {
		if _, body := w.Node.(*ast.BlockStmt); !body {
			return true
		}
	}
	return false
}

// isResponse reports whether t is *net/http.Response.
func isResponse(t types.Type) bool { return astq.IsPointerTo(t, "net/http", "Response") }
