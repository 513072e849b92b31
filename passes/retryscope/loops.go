package retryscope

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// exit is a statement that leaves the loop, with the conditions that lead
// to it.
type exit struct {
	node   ast.Node
	guards []guard
}

// loopWalk gathers the facts about one candidate loop by walking its
// statements under their guards; it reads conditions with its condReader
// (conds.go).
type loopWalk struct {
	*condReader
	label string
	exits []exit
	conts int
	// outerConts holds the guards of each continue of the loop from inside
	// a nested loop (continue outer).
	outerConts [][]guard
	// contNodes are the continue statements that start the loop's next
	// pass from its own body (not from a nested loop).
	contNodes []*ast.BranchStmt
	// predMemo caches predicateResults.
	predMemo map[predKey]map[types.Object]bool
	// failBranch is the branch by which a loop that repeats on success
	// too retries (failureRetry, failureTail), once found.
	failBranch *ast.BlockStmt
	// pastExits are the exits reached only past an attempt's success.
	pastExits map[ast.Node]bool
	// retried are the error variables of the attempts the loop retries
	// until they succeed (a success exit, not a predicate's), and
	// retriedAt those attempts.
	retried   map[types.Object]bool
	retriedAt map[token.Pos]bool
	// never is set when an exit's cap is a policy that never retries by
	// default (condNever) and the loop repeats only through it;
	// policyAsks are where the loop asks that policy.
	never      bool
	policyAsks []token.Pos
	// cond is the loop condition (nil for none); byPredicate is set when
	// an attempt retries only by a predicate exit.
	cond        ast.Expr
	byPredicate bool
	// failAt is the attempt that the failure branch of a loop that repeats
	// on success too retries, and failErr its error variable, once found
	// (failureRetry, failureTail, failureNext, failureSignal).
	failAt  attemptDef
	failErr types.Object
}

// loop returns the retry scope of loop, or nil if loop does not retry.
func (m *model) loop(di *defIndex, fn ast.Node, loop ast.Stmt) *Scope {
	w := &loopWalk{condReader: newCondReader(m, di, fn, loop, nil)}
	w.defaultNever = w.neverRetries
	var cond ast.Expr
	var post ast.Stmt
	var rangeCap *Cap
	var iter *attemptIter
	switch l := loop.(type) {
	case *ast.ForStmt:
		w.body, cond, post = l.Body, l.Cond, l.Post
	case *ast.RangeStmt:
		// Only range over an integer counts attempts: ranging over items,
		// channels and iterators processes them.
		t, ok := m.info.Types[l.X]
		if ok && !isInteger(t.Type) {
			// ...but an attempt iterator (iterators.go) counts its attempts
			if iter = m.attemptIterOf(di, l); iter == nil {
				return nil
			}
			w.body = l.Body
			rangeCap = &iter.cap
			break
		}
		if !ok {
			return nil
		}
		w.body = l.Body
		rangeCap = m.rangeCount(l)
	}
	if w.body == nil || len(w.body.List) == 0 {
		return nil
	}
	// A loop that tests an error against a system error number (EINTR,
	// EAGAIN) restarts a system call; it does not retry an operation.
	if m.testsErrno(w.body) {
		return nil
	}
	w.label = labelOf(fn, loop)
	w.cond = cond
	w.jump = m.jumpOf[loop]
	if w.jump != nil && w.jump.fn != nil {
		w.recurCounters()
	}
	w.collect(post)
	w.block(w.body.List, nil, false, false)

	// The loop retries when some error variable has a success exit and no
	// unconditional failure exit, or when the loop condition repeats while
	// the error is not nil.
	retries := false
	byPredicate := false // some attempt retries only by a predicate exit
	// pastExits are the exits reached only past an attempt's success
	// (succeedsPast): they need no guard of their own.
	pastExits := map[ast.Node]bool{}
	trigger := TriggerError
	for e := range w.errs {
		if _, ok := w.waitErr[e]; ok {
			continue
		}
		// Each assignment of e from a call is an attempt of its own (err is
		// often shared: req, err := http.NewRequest(...); resp, err :=
		// c.Do(req)). An exit belongs to the assignment that reaches it.
		attempts := w.attemptDefs(e)
		success := make(map[token.Pos]bool)
		predicate := make(map[token.Pos]bool)
		failAlways := make(map[token.Pos]bool)
		// onResponse: a predicate exit tests the response (the status) of
		// an attempt that leaves on every error: it retries by status
		// alone (if err != nil { return }; if !shouldRetry(res) { return }).
		onResponse := make(map[token.Pos]bool)
		for _, x := range w.exits {
			at := reaching(attempts, x.node.Pos())
			if w.failExit(x, e, at) {
				failAlways[at.pos] = true
			}
			for _, g := range x.guards {
				// In an attempt iterator's body, a test of e made before the
				// attempt assigns it tested an earlier value (if err != nil {
				// return } after open, then err = next()): it says nothing of
				// this attempt. (For loops keep the wider reading: their
				// attempts are found by position, and a later assignment of
				// e, respErr = fmt.Errorf(...), would hide the test of the
				// attempt before it.)
				if iter != nil && at.call != nil && g.cond != nil && g.cond.End() <= at.call.Pos() {
					continue
				}
				if impliesNil(m.info, g, e) {
					success[at.pos] = true
				}
			}
			if !success[at.pos] && w.takenOnNil(x, e, at) {
				success[at.pos] = true // return err after if err != nil && n > 0 { continue }
			}
			if !success[at.pos] && w.succeedsPast(x, e, at) {
				success[at.pos] = true
				pastExits[x.node] = true
			}
			if !success[at.pos] && w.predicateExit(x, e, at, false) {
				predicate[at.pos] = true
			}
			if w.predicateExit(x, e, at, true) {
				for o := range w.predicateResults(at, e) {
					if isResponse(o.Type()) {
						onResponse[at.pos] = true
					}
				}
			}
		}
		if cond != nil && impliesNonNil(m.info, guard{cond: cond}, e) && len(attempts) > 0 {
			success[attempts[len(attempts)-1].pos] = true
		}
		for _, a := range attempts {
			if iter != nil && inNestedLoop(w.body, a.pos) {
				continue // an attempt of a loop of its own (a scan's decode)
			}
			if (success[a.pos] || predicate[a.pos]) && (!failAlways[a.pos] || onResponse[a.pos]) && !w.iterates(a.call, 0) {
				if !success[a.pos] && !retries {
					byPredicate = true
				}
				if success[a.pos] {
					byPredicate = false
					if w.retried == nil {
						w.retried, w.retriedAt = make(map[types.Object]bool), make(map[token.Pos]bool)
					}
					w.retried[e], w.retriedAt[a.pos] = true, true
				}
				retries = true
			}
		}
	}
	if !retries && !w.iteratesAll(w.inPlaceCalls()) {
		// if op() == nil { return }: the attempt compared with nil in place.
		isCall := isErrorCall(m.info)
		success, failAlways := false, false
		for _, x := range w.exits {
			if len(x.guards) == 1 && x.guards[0].cond != nil && condImplies(m.info, x.guards[0].cond, !x.guards[0].neg, isCall, token.NEQ) {
				failAlways = true
			}
			for _, g := range x.guards {
				if g.cond != nil && condImplies(m.info, g.cond, !g.neg, isCall, token.EQL) {
					success = true
				}
			}
		}
		if cond != nil && condImplies(m.info, cond, true, isCall, token.NEQ) {
			success = true
		}
		retries = success && !failAlways
	}
	var failBranch, failWaits *ast.BlockStmt
	if !retries && iter != nil {
		// an iterator-driven loop that repeats on success too reconnects a
		// stream or watches: only an attempt that leaves on success retries
		return nil
	}
	if !retries {
		failBranch = w.failureRetry()
		if failBranch == nil {
			failBranch = w.failureTail()
		}
		failWaits = failBranch
		if failBranch == nil {
			if failWaits = w.failureNext(); failWaits == nil {
				failWaits = w.failureSignal()
			}
			if failWaits != nil {
				failBranch = w.body // every pass leaves only as the body does
			}
		}
		retries = failBranch != nil
	}
	if !retries {
		return nil
	}
	for _, x := range w.exits {
		if len(x.guards) == 0 {
			if pastExits[x.node] {
				continue
			}
			if failBranch != nil && x.node.Pos() >= failBranch.End() {
				// if err != nil && temporary(err) { sleep; continue }; return
				// resp, err: the pass leaves here unless its failure branch
				// started the next one
				continue
			}
			return nil // the body always leaves on its first pass
		}
		for _, g := range x.guards {
			if g.cond != nil && mentionsStatus(g.cond) {
				trigger = TriggerStatus
			}
		}
	}

	s := &Scope{Kind: Loop, Node: loop, Func: fn, Body: w.body, Trigger: trigger}
	switch l := loop.(type) {
	case *ast.ForStmt:
		s.Pos = l.For
	case *ast.RangeStmt:
		s.Pos = l.For
	}
	w.failBranch, w.pastExits, w.byPredicate = failBranch, pastExits, byPredicate
	w.bounds(s, cond, rangeCap)
	if w.never && s.Cap.Kind == CapKnown && s.Cap.N <= 1 {
		return nil // by default its policy never retries (neverretry.go)
	}
	s.Waits = m.loopWaits(di, w.body)
	if iter != nil {
		// the iterator waits before it yields the next attempt
		if !ownWait(s.Waits) {
			s.Waits = nil
		}
		s.Waits = append(s.Waits, iter.waits...)
	}
	if w.jump != nil && w.jump.fn != nil {
		// the recursive call starts the next pass: it waits only as the
		// pass does, not on its own
		s.Waits = slices.DeleteFunc(s.Waits, func(wt Wait) bool {
			call, ok := wt.Node.(*ast.CallExpr)
			return ok && m.callee(call) == w.jump.fn
		})
		if len(s.Waits) == 0 {
			s.Waits = []Wait{{Kind: WaitNone, Pos: w.body.Lbrace, Node: w.body}}
		}
	}
	if w.jump != nil && len(w.jump.resched) > 0 {
		// the next pass starts when the timer fires
		if !ownWait(s.Waits) {
			s.Waits = nil
		}
		for _, call := range w.jump.resched {
			s.Waits = append(s.Waits, m.waitAt(&waitSite{call: call, dur: call.Args[0], di: di}, call))
		}
		slices.SortFunc(s.Waits, func(a, b Wait) int { return int(a.Pos - b.Pos) })
	}
	if w.jump != nil && len(w.jump.steps) > 0 {
		// a recursion through closures (jumps.go): they wait, and the
		// guard of their recursive call bounds it
		if !ownWait(s.Waits) {
			s.Waits = nil
		}
		for _, lit := range w.jump.steps {
			s.Waits = append(s.Waits, m.loopWaits(di, lit.Body)...)
		}
		if s.Cap.Kind == CapNone || s.Cap.Kind == CapUnknown {
			s.Cap = m.stepCap(w.jump)
		}
	}
	w.failureWaits(s.Waits)
	if failWaits != nil {
		// A loop that repeats on success too (a watch, a renewal): its
		// retries are the failure branch's, and so are their waits.
		s.Waits = m.loopWaits(di, failWaits)
	}
	// the precision policies (policies.go): shapes that read as retries
	// and are not
	if w.declined(s) != "" {
		return nil
	}
	return s
}

// failureWaits judges a wait whose duration is a variable of the
// function that the loop's failure branch sets before it starts the next
// pass (if err != nil { wait = time.Second; continue }, wait read at the
// top of the pass): after a failure the loop waits that value, whatever
// the variable holds on success (a renewal's ttl/2).
func (w *loopWalk) failureWaits(waits []Wait) {
	for i, wt := range waits {
		if wt.Kind != WaitUnknown || wt.Library {
			continue
		}
		call, ok := wt.Node.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			continue
		}
		id, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
		if !ok {
			continue
		}
		v := w.m.info.Uses[id]
		if v == nil || !local(v) {
			continue
		}
		if rhs := w.setOnFailure(v); rhs != nil {
			c := &classifier{m: w.m, di: w.di, seen: map[types.Object]bool{}}
			if k := c.kind(rhs, 0); k != WaitUnknown {
				waits[i].Kind = k
			}
		}
	}
}

// setOnFailure returns what the failure branch assigns to v: the last
// assignment of v in an if on a non-nil error of the loop that ends in a
// continue of the loop; nil when there is none.
func (w *loopWalk) setOnFailure(v types.Object) ast.Expr {
	var rhs ast.Expr
	ast.Inspect(w.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
			return false
		case *ast.IfStmt:
			if len(n.Body.List) == 0 {
				return true
			}
			br, ok := n.Body.List[len(n.Body.List)-1].(*ast.BranchStmt)
			if !ok || !slices.Contains(w.contNodes, br) {
				return true
			}
			failing := false
			for e := range w.errs {
				if impliesNonNil(w.m.info, guard{cond: n.Cond}, e) {
					failing = true
				}
			}
			if !failing {
				return true
			}
			for _, st := range n.Body.List {
				if as, ok := st.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN && len(as.Lhs) == 1 && len(as.Rhs) == 1 && w.obj(as.Lhs[0]) == v {
					rhs = as.Rhs[0]
				}
			}
		}
		return true
	})
	return rhs
}

// failureRetry returns the body of the branch by which a loop that has no
// success exit (it repeats on success too: a watch, a renewal, a
// subscription) retries a failed attempt: an if on "err != nil" after the
// attempt that assigns err, holding a continue of the loop and, before it,
// a wait (if err != nil { time.Sleep(d); continue }). It returns nil when
// there is none, or when the attempt works on something that changes from
// pass to pass (an item, the next message: a failure there is skipped,
// not retried).
func (w *loopWalk) failureRetry() *ast.BlockStmt {
	info := w.m.info
	var found *ast.BlockStmt
	var stack []ast.Node
	ast.Inspect(w.body, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		switch n.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
			return false
		}
		stack = append(stack, n)
		br, ok := n.(*ast.BranchStmt)
		if !ok || !slices.Contains(w.contNodes, br) {
			return true
		}
		for _, anc := range stack {
			ifst, ok := anc.(*ast.IfStmt)
			if !ok || !in(ifst.Body, br.Pos()) {
				continue
			}
			for e := range w.errs {
				if _, ok := w.waitErr[e]; ok || !impliesNonNil(info, guard{cond: ifst.Cond}, e) {
					continue
				}
				at := reaching(w.attemptDefs(e), ifst.Pos())
				if at.call == nil || at.pos > ifst.Pos() || w.changesOnFailure(at.call, ifst) || w.m.readsInput(at.call) {
					continue
				}
				if w.waitsBefore(ifst.Body, br.Pos()) && !w.waitsOutside(ifst.Body) {
					found = ifst.Body
					w.failAt, w.failErr = at, e
					return false
				}
			}
		}
		return true
	})
	return found
}

// waitsThenRepeats returns the last statement of body when body waits and
// then, in that if statement, starts the loop's next pass: a continue of the
// loop or a goto to the label of a synthetic loop; nil otherwise.
func (w *loopWalk) waitsThenRepeats(body *ast.BlockStmt, nested bool) *ast.IfStmt {
	if len(body.List) < 2 {
		return nil
	}
	last, ok := body.List[len(body.List)-1].(*ast.IfStmt)
	if !ok || last.Else != nil || last.Init != nil || !w.waitsBefore(body, last.Pos()) {
		return nil
	}
	repeats := slices.ContainsFunc(last.Body.List, func(st ast.Stmt) bool {
		br, ok := st.(*ast.BranchStmt)
		return ok && w.nextPass(br, nested)
	})
	if !repeats {
		return nil
	}
	return last
}

// nextPass reports whether br starts the loop's next pass: a continue of
// the loop (unlabelled only outside nested loops), or a goto to the label
// of a synthetic loop.
func (w *loopWalk) nextPass(br *ast.BranchStmt, nested bool) bool {
	switch br.Tok {
	case token.CONTINUE:
		return br.Label == nil && !nested || br.Label != nil && br.Label.Name == w.label
	case token.GOTO:
		return w.jump != nil && br.Label != nil && br.Label.Name == w.jump.label
	}
	return false
}

// waitsBefore reports whether body calls a wait before pos.
func (w *loopWalk) waitsBefore(body *ast.BlockStmt, pos token.Pos) bool {
	return astq.Find(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		return ok && call.Pos() < pos && w.m.waitCall(w.di, call) != nil
	})
}

// waitsOutside reports whether the loop waits outside branch: a loop that
// also waits after a success polls on a period; its wait after a failure
// is part of the schedule, not a backoff.
func (w *loopWalk) waitsOutside(branch *ast.BlockStmt) bool {
	found := false
	astq.InspectOwn(w.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			return n != branch
		case *ast.CallExpr:
			if w.m.waitCall(w.di, n) != nil {
				found = true
			}
		}
		return !found
	})
	return found || w.m.receivesTicker(w.body)
}

// readsInput reports whether call is a method of a reader (an io.Reader:
// each call reads what comes next) or the Accept of a net.Listener (each
// call takes the next connection): a failure there is waited out, not
// retried.
func (m *model) readsInput(call *ast.CallExpr) bool {
	fn := m.callee(call)
	if fn == nil || fn.Signature().Recv() == nil {
		return false
	}
	recv := fn.Signature().Recv().Type()
	if r := m.stdInterface("io", "Reader"); r != nil && (types.Implements(recv, r) || types.Implements(types.NewPointer(recv), r)) {
		return true
	}
	if l := m.stdInterface("net", "Listener"); l != nil && fn.Name() == "Accept" && (types.Implements(recv, l) || types.Implements(types.NewPointer(recv), l)) {
		return true
	}
	return false
}

// stdInterface returns the interface type path.name of a package among the
// package's transitive imports, or nil (then nothing of the package can
// implement it).
func (m *model) stdInterface(path, name string) *types.Interface {
	key := path + "." + name
	if t, ok := m.ifaces[key]; ok {
		return t
	}
	if m.ifaces == nil {
		m.ifaces = make(map[string]*types.Interface)
	}
	var found *types.Interface
	seen := make(map[*types.Package]bool)
	var walk func(p *types.Package)
	walk = func(p *types.Package) {
		if found != nil || seen[p] {
			return
		}
		seen[p] = true
		if p.Path() == path {
			if tn, ok := p.Scope().Lookup(name).(*types.TypeName); ok {
				found, _ = tn.Type().Underlying().(*types.Interface)
			}
			return
		}
		for _, q := range p.Imports() {
			walk(q)
		}
	}
	walk(m.pass.Pkg)
	m.ifaces[key] = found
	return found
}

// changesOnFailure reports whether call works on a variable that the loop
// changes on the way from a failure in branch to the next attempt (in its
// post statement, in the branch, or before the branch in the body: the
// next item, the next message), so that a failure moves on rather than
// retries. Assignments after the branch are skipped by a failure (the
// etag of a watch, updated on success).
func (w *loopWalk) changesOnFailure(call *ast.CallExpr, branch ast.Node) bool {
	return astq.Search(call, func(n ast.Node, found *bool) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		o := w.m.info.Uses[id]
		if o == nil || !local(o) {
			return true
		}
		for _, d := range w.di.defs[o] {
			if !in(w.loop, d.pos) || d.pos > branch.End() {
				continue
			}
			if f, ok := w.loop.(*ast.ForStmt); ok && f.Init != nil && d.pos <= f.Init.End() {
				continue // set once, before the first pass
			}
			if r, ok := ast.Unparen(d.rhs).(*ast.CallExpr); ok && r == call {
				continue
			}
			if tv, ok := w.m.info.Types[d.rhs]; ok && d.tuple < 0 && tv.Value != nil {
				continue // reset to a constant (memberID = ""): the same attempt from the start, not the next item
			}
			*found = true
		}
		return !*found
	})
}

// inNestedLoop reports whether pos lies in a loop inside body (outside
// function literals).
func inNestedLoop(body *ast.BlockStmt, pos token.Pos) bool {
	found := false
	astq.InspectOwn(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			if n.Pos() <= pos && pos < n.End() {
				found = true
			}
		}
		return !found && n != nil && n.Pos() <= pos && pos < n.End()
	})
	return found
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

// failExit reports whether x is taken on every failure of the attempt that
// assigns e: beyond the guards already in force where e is assigned, it is
// guarded by "e != nil" and otherwise only by conditions on the attempt's
// results (not by a counter, a clock or anything else).
func (w *loopWalk) failExit(x exit, e types.Object, at attemptDef) bool {
	d := at.depth
	if len(x.guards) <= d {
		return false
	}
	nonNil := 0
	for _, g := range x.guards[d:] {
		switch {
		case impliesNonNil(w.m.info, g, e) && testsErrorKind(w.m.info, g.cond, e):
			// if errors.As(err, &permanent) { return }: taken on some
			// failures, not on every one
			return false
		case impliesNonNil(w.m.info, g, e):
			nonNil++
		case g.cond == nil:
			return false
		default:
			// a condition on another result of the attempt (n < 0), not on
			// the error itself (!retryable(err)), on the results of another
			// call (a retry policy's own error), nor on anything else
			if k, _, _ := w.condKind(g.cond, false); k != condAttempt || mentionsIn(w.m.info, g.cond, e) || !w.mentionsAny(g.cond, w.attemptResults(at, e)) {
				return false
			}
		}
	}
	return nonNil == 1
}

// testsErrorKind reports whether cond tests what kind of error e is
// (errors.Is(e, target), errors.As(e, &t)) rather than only whether it is
// nil.
func testsErrorKind(info *types.Info, cond ast.Expr, e types.Object) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		if fn, _ := typeutil.Callee(info, c).(*types.Func); fn != nil && len(c.Args) == 2 && isVar(info, e)(c.Args[0]) {
			found = fn.FullName() == "errors.Is" || fn.FullName() == "errors.As"
		}
		return !found
	})
	return found
}

// reaching returns the attempt whose assignment reaches pos: the last one
// before it, or, for code before every assignment, the last of the
// previous pass.
func reaching(attempts []attemptDef, pos token.Pos) attemptDef {
	var at attemptDef
	for _, a := range attempts {
		if a.pos <= pos {
			at = a
		}
	}
	if at.call == nil && len(attempts) > 0 {
		at = attempts[len(attempts)-1]
	}
	return at
}

// inPlaceCalls returns the calls returning an error that the loop's exits
// compare with nil in place.
func (w *loopWalk) inPlaceCalls() []*ast.CallExpr {
	var calls []*ast.CallExpr
	isCall := isErrorCall(w.m.info)
	for _, x := range w.exits {
		for _, g := range x.guards {
			if g.cond == nil {
				continue
			}
			ast.Inspect(g.cond, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok && isCall(c) {
					calls = append(calls, c)
					return false
				}
				return true
			})
		}
	}
	return calls
}

// iteratesAll reports whether every attempt works on something that
// changes from one pass to the next: an item picked by the loop counter
// (items[i]), or a value computed from its own previous value (dir =
// filepath.Dir(dir)). Such a loop walks or searches; it does not repeat an
// attempt. It reports false when there are no calls.
func (w *loopWalk) iteratesAll(calls []*ast.CallExpr) bool {
	if len(calls) == 0 {
		return false
	}
	for _, c := range calls {
		if !w.iterates(c, 0) {
			return false
		}
	}
	return true
}

func (w *loopWalk) iterates(n ast.Node, depth int) bool {
	if depth > 3 || n == nil {
		return false
	}
	return astq.Search(n, func(n ast.Node, found *bool) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IndexExpr:
			if w.mentionsAny(n.Index, w.counts) {
				*found = true
			}
		case *ast.UnaryExpr:
			// a value received from a channel in the loop is the next item
			// (an event, a message), as in a consumer
			if n.Op == token.ARROW {
				*found = true
			}
		case *ast.Ident:
			o := w.m.info.Uses[n]
			if o == nil || !local(o) || w.counts[o] {
				return true
			}
			if w.carried(o) {
				*found = true
				return false
			}
			for _, d := range w.di.defs[o] {
				if in(w.loop, d.pos) && d.rhs != nil && w.iterates(d.rhs, depth+1) {
					*found = true
				}
			}
		}
		return true
	})
}

// carried reports whether o is assigned in the loop from its own previous
// value, directly or through other variables assigned in the loop.
func (w *loopWalk) carried(o types.Object) bool {
	// A variable declared in the body is new on every pass: what it is
	// assigned from its own value (ctx, cancel = context.WithTimeout(ctx,
	// d)) does not reach the next pass.
	if in(w.body, o.Pos()) {
		return false
	}
	var depends func(e ast.Expr, depth int) bool
	depends = func(e ast.Expr, depth int) bool {
		if e == nil || depth > 3 {
			return false
		}
		return astq.Search(e, func(n ast.Node, hit *bool) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			u := w.m.info.Uses[id]
			if u == o {
				*hit = true
				return false
			}
			if u != nil && local(u) && u != o {
				for _, d := range w.di.defs[u] {
					if in(w.loop, d.pos) && depends(d.rhs, depth+1) {
						*hit = true
					}
				}
			}
			return !*hit
		})
	}
	for _, d := range w.di.defs[o] {
		if in(w.loop, d.pos) && !w.copyOf(d.rhs) && depends(d.rhs, 0) {
			return true
		}
	}
	return false
}

// copyOf reports whether e copies a request for the next attempt
// (req = req.Clone(ctx), req.WithContext(ctx)): the same request again, not
// the next item.
func (w *loopWalk) copyOf(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := w.m.callee(call)
	if fn == nil {
		return false
	}
	switch fn.FullName() {
	case "(*net/http.Request).Clone", "(*net/http.Request).WithContext":
		return true
	}
	return false
}

// labelOf returns the label of loop within fn, or "".
func labelOf(fn ast.Node, loop ast.Stmt) string {
	label := ""
	ast.Inspect(fn, func(n ast.Node) bool {
		if l, ok := n.(*ast.LabeledStmt); ok && l.Stmt == loop {
			label = l.Label.Name
			return false
		}
		return label == ""
	})
	return label
}

var errorType = types.Universe.Lookup("error").Type()

// block walks a statement list under guards. inSwitch is set inside a switch
// or select (an unlabelled break leaves that, not the loop); nested is set
// inside a nested loop (unlabelled break and continue belong to it).
func (w *loopWalk) block(list []ast.Stmt, guards []guard, inSwitch, nested bool) {
	for _, st := range list {
		w.cur = len(guards)
		w.collect(shallow(st))
		if w.jump != nil && w.jump.resched[st] != nil {
			w.conts++ // time.AfterFunc(d, self) starts the next pass
			continue
		}
		switch st := st.(type) {
		case *ast.IfStmt:
			w.cur = len(guards)
			w.collect(st.Init)
			then := with(guards, guard{cond: st.Cond})
			els := with(guards, guard{cond: st.Cond, neg: true})
			w.block(st.Body.List, then, inSwitch, nested)
			if st.Else != nil {
				w.block([]ast.Stmt{st.Else}, els, inSwitch, nested)
			}
			bodyLeaves := w.leaves(st.Body.List, inSwitch, nested)
			elseLeaves := st.Else != nil && w.leaves([]ast.Stmt{st.Else}, inSwitch, nested)
			switch {
			case bodyLeaves && !elseLeaves:
				guards = els
			case elseLeaves && !bodyLeaves:
				guards = then
			case !bodyLeaves && st.Else == nil:
				// if retry { sleep; if still { goto RETRY } }: what follows
				// runs when the branch did not start the next pass, when
				// !(retry && still)
				if last := w.waitsThenRepeats(st.Body, nested); last != nil {
					guards = with(guards, guard{cond: &ast.BinaryExpr{X: st.Cond, OpPos: last.Cond.Pos(), Op: token.LAND, Y: last.Cond}, neg: true})
				}
			}
		case *ast.BlockStmt:
			w.block(st.List, guards, inSwitch, nested)
		case *ast.LabeledStmt:
			w.block([]ast.Stmt{st.Stmt}, guards, inSwitch, nested)
		case *ast.SwitchStmt:
			w.collect(st.Init)
			for _, c := range st.Body.List {
				cc := c.(*ast.CaseClause)
				g := guards
				for _, e := range cc.List {
					cond := e
					if st.Tag != nil {
						cond = &ast.BinaryExpr{X: st.Tag, Op: token.EQL, Y: e, OpPos: e.Pos()}
					}
					g = with(g, guard{cond: cond})
				}
				if cc.List == nil {
					g = with(g, guard{cond: ast.NewIdent("default")})
				}
				w.block(cc.Body, g, true, nested)
			}
		case *ast.TypeSwitchStmt:
			for _, c := range st.Body.List {
				w.block(c.(*ast.CaseClause).Body, with(guards, guard{cond: ast.NewIdent("typeswitch")}), true, nested)
			}
		case *ast.SelectStmt:
			for _, c := range st.Body.List {
				cc := c.(*ast.CommClause)
				w.collect(cc.Comm)
				w.block(cc.Body, with(guards, guard{comm: commOrDefault(cc)}), true, nested)
			}
		case *ast.ForStmt:
			guards = w.nested(st.Body.List, guards)
		case *ast.RangeStmt:
			guards = w.nested(st.Body.List, guards)
		case *ast.ReturnStmt:
			if w.jump != nil && w.jump.recur[st] {
				w.conts++ // the recursive call starts the next pass
				break
			}
			w.exits = append(w.exits, exit{node: st, guards: guards})
		case *ast.BranchStmt:
			switch st.Tok {
			case token.BREAK:
				if (st.Label == nil && !inSwitch && !nested) || (st.Label != nil && st.Label.Name == w.label) {
					w.exits = append(w.exits, exit{node: st, guards: guards})
				}
			case token.CONTINUE:
				if w.nextPass(st, nested) {
					w.conts++
					if nested {
						w.outerConts = append(w.outerConts, guards)
					} else {
						w.contNodes = append(w.contNodes, st)
					}
				}
			case token.GOTO:
				if w.nextPass(st, nested) {
					w.conts++ // goto RETRY starts the next pass
					break
				}
				w.exits = append(w.exits, exit{node: st, guards: with(guards, guard{cond: ast.NewIdent("goto")})})
			}
		}
	}
}

// commOrDefault returns a select case's communication, or an empty
// statement for the default case.
func commOrDefault(cc *ast.CommClause) ast.Stmt {
	if cc.Comm == nil {
		return &ast.EmptyStmt{Semicolon: cc.Case}
	}
	return cc.Comm
}

// shallow returns the parts of st that block does not walk itself: simple
// statements are returned whole, compound ones not at all.
func shallow(st ast.Stmt) ast.Node {
	switch st.(type) {
	case *ast.AssignStmt, *ast.IncDecStmt, *ast.ExprStmt, *ast.DeclStmt, *ast.SendStmt:
		return st
	}
	return nil
}

func with(gs []guard, g guard) []guard {
	out := make([]guard, len(gs), len(gs)+1)
	copy(out, gs)
	return append(out, g)
}

// leaves reports whether a statement list always ends the current pass of
// the loop: its last statement returns, continues, breaks the loop, or
// panics.
func (w *loopWalk) leaves(list []ast.Stmt, inSwitch, nested bool) bool {
	if len(list) == 0 {
		return false
	}
	if w.jump != nil && w.jump.resched[list[len(list)-1]] != nil {
		return true // time.AfterFunc(d, self) ends the pass
	}
	switch st := list[len(list)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		switch st.Tok {
		case token.CONTINUE:
			return st.Label == nil && !nested || st.Label != nil && st.Label.Name == w.label
		case token.BREAK:
			return st.Label == nil && !inSwitch && !nested || st.Label != nil && st.Label.Name == w.label
		case token.GOTO:
			return true
		}
	case *ast.BlockStmt:
		return w.leaves(st.List, inSwitch, nested)
	case *ast.IfStmt:
		return st.Else != nil && w.leaves(st.Body.List, inSwitch, nested) && w.leaves([]ast.Stmt{st.Else}, inSwitch, nested)
	case *ast.SelectStmt:
		// select { case <-time.After(d): continue; case <-done: return }
		for _, c := range st.Body.List {
			if !w.leaves(c.(*ast.CommClause).Body, true, nested) {
				return false
			}
		}
		return len(st.Body.List) > 0
	case *ast.SwitchStmt:
		return w.clausesLeave(st.Body, nested)
	case *ast.TypeSwitchStmt:
		return w.clausesLeave(st.Body, nested)
	case *ast.ExprStmt:
		if call, ok := st.X.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
				if _, ok := w.m.info.Uses[id].(*types.Builtin); ok {
					return true
				}
			}
		}
	}
	return false
}

// clausesLeave reports whether a switch with a default clause leaves the
// pass in every clause (a fallthrough goes on to the next clause, which
// must leave too).
func (w *loopWalk) clausesLeave(body *ast.BlockStmt, nested bool) bool {
	dflt := false
	for _, c := range body.List {
		cc := c.(*ast.CaseClause)
		if cc.List == nil {
			dflt = true
		}
		if n := len(cc.Body); n > 0 {
			if b, ok := cc.Body[n-1].(*ast.BranchStmt); ok && b.Tok == token.FALLTHROUGH {
				continue
			}
		}
		if !w.leaves(cc.Body, true, nested) {
			return false
		}
	}
	return dflt
}

// impliesNil reports whether g holding means e == nil.
func impliesNil(info *types.Info, g guard, e types.Object) bool {
	return g.cond != nil && condImplies(info, g.cond, !g.neg, isVar(info, e), token.EQL)
}

// impliesNonNil reports whether g holding means e != nil.
func impliesNonNil(info *types.Info, g guard, e types.Object) bool {
	return g.cond != nil && condImplies(info, g.cond, !g.neg, isVar(info, e), token.NEQ)
}

func isVar(info *types.Info, e types.Object) func(ast.Expr) bool {
	return func(x ast.Expr) bool {
		id, ok := ast.Unparen(x).(*ast.Ident)
		return ok && info.Uses[id] == e
	}
}

// isErrorCall matches a call returning an error, compared with nil in place:
// if op() == nil { return }.
func isErrorCall(info *types.Info) func(ast.Expr) bool {
	return func(x ast.Expr) bool {
		call, ok := ast.Unparen(x).(*ast.CallExpr)
		if !ok {
			return false
		}
		if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
			return false
		}
		t := info.TypeOf(call)
		return t != nil && isError(t) && attemptCall(info, call)
	}
}

// condImplies reports whether cond having truth value want implies the
// comparison "e op nil", where isE matches e.
func condImplies(info *types.Info, cond ast.Expr, want bool, isE func(ast.Expr) bool, op token.Token) bool {
	switch c := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if c.Op == token.NOT {
			return condImplies(info, c.X, !want, isE, op)
		}
	case *ast.BinaryExpr:
		switch c.Op {
		case token.LAND:
			if want {
				return condImplies(info, c.X, true, isE, op) || condImplies(info, c.Y, true, isE, op)
			}
		case token.LOR:
			if !want {
				return condImplies(info, c.X, false, isE, op) || condImplies(info, c.Y, false, isE, op)
			}
		case token.EQL, token.NEQ:
			if !isNilCompare(info, c, isE) {
				return false
			}
			return (c.Op == op) == want
		}
	case *ast.CallExpr:
		// errors.Is(err, target) and errors.As(err, &t) hold only for an
		// error that is not nil (target a non-nil error value).
		fn, _ := typeutil.Callee(info, c).(*types.Func)
		if fn == nil || len(c.Args) != 2 || !isE(c.Args[0]) || !want || op != token.NEQ {
			return false
		}
		switch fn.FullName() {
		case "errors.Is":
			tv, ok := info.Types[c.Args[1]]
			return ok && !tv.IsNil()
		case "errors.As":
			return true
		}
	}
	return false
}

// bounds sets s's cap and deadline from the loop condition and the exits.
func (w *loopWalk) bounds(s *Scope, cond ast.Expr, rangeCap *Cap) {
	var caps []Cap
	other := false
	var dl Deadline
	better := func(d Deadline) {
		rank := map[DeadlineKind]int{DeadlineNone: 0, DeadlineUnknown: 1, DeadlineCaller: 2, DeadlineLibrary: 3, DeadlineInScope: 4}
		if rank[d.Kind] > rank[dl.Kind] || dl.Kind == DeadlineUnknown && d.Kind != DeadlineUnknown {
			dl = d
		}
	}
	dl = Deadline{Kind: DeadlineNone}
	if rangeCap != nil {
		caps = append(caps, *rangeCap)
	}
	lateExit := false       // the exit being classified comes after the pass's attempt
	var gated []*paramField // for each cap of an exit, the parameter field it requires positive
	classify := func(e ast.Expr, inCond bool) {
		switch k, c, d := w.condKind(e, inCond); k {
		case condCounter:
			if lateExit && c.Kind == CapKnown && w.postCounted(e) {
				c.N++ // for n := 0; ; n++ { op(); if n >= 2 { return } }: 3 attempts
			}
			if inCond && c.Kind == CapKnown {
				// for i := 1; i <= 5; i++: 5 attempts, not 6
				if k, ok := w.counterStart(e); ok {
					c.N = max(c.N-int(k), 1)
				}
			}
			caps = append(caps, c)
		case condTime:
			better(d)
		case condOther:
			other = true
		case condNever:
			if w.policyOnly() {
				caps = append(caps, c)
				w.never = true
			} else {
				other = true // it also repeats on its own: the policy's bound is not the loop's
			}
		}
	}
	if cond != nil {
		for _, part := range conjuncts(cond) {
			classify(part, true)
		}
	}
	for _, x := range w.exits {
		if w.offByDefault(x.guards) {
			continue // if max > 0 && n >= max, max 0 by default: no cap
		}
		lateExit = w.afterAttempt(x.node)
		onSuccess := w.successSide(x)
		before := len(caps)
		for i, g := range x.guards {
			if g.comm != nil {
				if d, ok := w.commDeadline(g.comm); ok {
					better(d)
				}
				continue
			}
			if onSuccess {
				// an exit no retried failure reaches bounds no retry; a
				// context or clock it tests still ends the loop
				for _, part := range disjuncts(g.cond) {
					if k, _, d := w.condKind(part, false); k == condTime {
						better(d)
					}
				}
				continue
			}
			if !w.othersOnResults(x.guards[w.sharedGuards(x):], i-w.sharedGuards(x)) || w.gatesStep(x, i) {
				// if n > 0 { if !sleep(ctx, d) { return } }: the exit needs
				// more than the count; the count alone leaves nothing.
				if k, _, _ := w.condKind(g.cond, false); k == condCounter {
					if !w.onSignal(x, i) {
						other = true
					}
					continue
				}
			}
			// each way out counts: a disjunct of the guard (or, for an
			// else branch, a conjunct of its condition) leaves by itself
			parts := disjuncts(g.cond)
			if g.neg {
				parts = conjuncts(g.cond)
			}
			for _, part := range parts {
				if g.neg && w.passFilter(part) {
					// past if i == 0 && skipFirst { continue }, i != 0 holds
					// on every pass but one: it bounds nothing
					continue
				}
				classify(part, false)
			}
		}
		if len(caps) > before {
			gated = append(gated, w.capGate(x.guards))
		}
	}
	settleGate(s, gated, len(caps), rangeCap != nil)
	w.m.settleBounds(s, caps, other, dl)
}

// successSide reports whether no pass whose attempt fails and is retried
// reaches exit x: a guard of x says the attempt reaching it succeeded (a
// success exit, also one past an early continue on its error: kafka-go's
// LookupPartition returns on the partition it finds only after a
// successful read), or the loop repeats on success too and x comes after
// the failure branch by which it retries (the metadata watch's return on
// its callback's result, past if err != nil { sleep; continue }). Such an
// exit caps nothing: the failures repeat until one succeeds.
func (w *loopWalk) successSide(x exit) bool {
	if w.pastExits[x.node] {
		return true
	}
	if b := w.failBranch; b != nil && b != w.body && x.node.Pos() >= b.End() && !inNestedLoop(w.body, b.Pos()) {
		return true
	}
	for e := range w.retried {
		implied := false
		for _, g := range x.guards {
			if g.cond != nil && impliesNil(w.m.info, g, e) {
				implied = true
			}
		}
		if !implied {
			continue
		}
		// the success must be of a retried attempt (err is often shared
		// with calls that leave on failure), and a predicate on the
		// results of a successful call still retries (a status): its exit
		// is the retry's own decision
		if at := reaching(w.attemptDefs(e), x.node.Pos()); at.call != nil && w.retriedAt[at.pos] && !w.predicateExit(x, e, at, true) && w.continuesOnFailure(e) {
			return true
		}
	}
	return false
}

// continuesOnFailure reports whether the loop starts its next pass from
// a branch on e != nil (if err != nil { if temporary(err) { continue } }):
// the attempt's failures are what it retries. A loop that leaves (or
// panics) on the error and continues only on what a successful call
// returned retries by that result (Temporal's test-suite activity retry,
// which continues while the policy's backoff is positive): its exits
// past the success are the retry's own.
func (w *loopWalk) continuesOnFailure(e types.Object) bool {
	found := false
	ast.Inspect(w.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
			return false
		case *ast.IfStmt:
			if !found && impliesNonNil(w.m.info, guard{cond: n.Cond}, e) {
				for _, br := range w.contNodes {
					if n.Body.Pos() <= br.Pos() && br.End() <= n.Body.End() {
						found = true
					}
				}
			}
		}
		return !found
	})
	return found
}

// onSignal reports whether a guard of exit x other than the i-th is a
// stop signal (a wait helper's, see stopWaitArg): if n > 0 { if
// !sleep(ctx, d) { return } } leaves when the context ends; the count only
// says whether to wait.
func (w *loopWalk) onSignal(x exit, i int) bool {
	for j, g := range x.guards {
		if j == i || g.cond == nil {
			continue
		}
		if u, ok := ast.Unparen(g.cond).(*ast.UnaryExpr); ok && u.Op == token.NOT && !g.neg {
			if call, ok := ast.Unparen(u.X).(*ast.CallExpr); ok {
				if _, ok := w.m.stopWaitArg(w.di, call); ok {
					return true
				}
			}
		}
	}
	return false
}

// afterAttempt reports whether an attempt of the pass (a call assigning an
// error variable of the body) comes before n in the body.
func (w *loopWalk) afterAttempt(n ast.Node) bool {
	for o := range w.errs {
		for _, d := range w.di.defs[o] {
			if in(w.body, d.pos) && d.pos < n.Pos() {
				return true
			}
		}
	}
	return false
}

// gatesStep reports whether the counter guard i of exit x gates a step
// whose own failure the exit leaves on: if n > 0 { err = rewind(); if err
// != nil { return } }, the error assigned after the count is tested. The
// count then bounds nothing.
func (w *loopWalk) gatesStep(x exit, i int) bool {
	from := x.guards[i].cond
	if from == nil {
		return false
	}
	for _, g := range x.guards[i+1:] {
		for e := range w.errs {
			if !impliesNonNil(w.m.info, g, e) {
				continue
			}
			for _, d := range w.di.defs[e] {
				if d.pos > from.End() && d.pos < x.node.Pos() && in(w.body, d.pos) {
					return true
				}
			}
		}
	}
	return false
}

// sharedGuards returns how many of the first guards of exit x are in force
// at the attempt that reaches it, made before x: those conditions gate the
// attempt as much as the exit (if refresh { err := op(); if err != nil &&
// n <= 0 { return } }), so they do not keep a count from capping it.
func (w *loopWalk) sharedGuards(x exit) int {
	n := 0
	for e := range w.errs {
		at := reaching(w.attemptDefs(e), x.node.Pos())
		if at.call == nil || at.pos > x.node.Pos() || at.depth > len(x.guards) || at.depth <= n {
			continue
		}
		ok := true
		for _, g := range x.guards[:at.depth] {
			if g.cond == nil || g.cond.Pos() > at.pos {
				ok = false
			}
		}
		if ok {
			n = at.depth
		}
	}
	return n
}

// othersOnResults reports whether every guard of an exit but the i-th
// tests the attempt's results (err != nil, a status, a result variable):
// then the i-th, when it counts attempts, caps them.
func (w *loopWalk) othersOnResults(guards []guard, i int) bool {
	for j, g := range guards {
		if j == i {
			continue
		}
		if g.cond == nil {
			return false
		}
		ok := false
		for e := range w.errs {
			if impliesNonNil(w.m.info, g, e) {
				ok = true
			}
		}
		if !ok && !w.onResults(g.cond) {
			return false
		}
	}
	return true
}

// predicateExit reports whether x is the exit of a retry decided by a
// predicate on the results of attempt at (the error e, or a response it
// returns with e) rather than by e == nil: a guard "!shouldRetry(res)",
// "!retryable(err)" or a test of the response's status code, that does not
// hold only for a failed attempt (e != nil). The loop generated API SDKs
// emit: res, err = do(req); if !shouldRetry(res) || n >= max { break }.
//
// With calls set, only a predicate call counts (shouldRetry(res), a bool
// it returned), not a test of the status code in place: a loop that
// leaves on every error and repeats until the status is 200 is more often
// a poll for a result than a retry.
func (w *loopWalk) predicateExit(x exit, e types.Object, at attemptDef, calls bool) bool {
	if at.call == nil {
		return false
	}
	results := w.predicateResults(at, e)
	for _, g := range x.guards[min(at.depth, len(x.guards)):] {
		if g.cond == nil || impliesNonNil(w.m.info, g, e) {
			continue
		}
		if w.m.predicateCond(g.cond, !g.neg, results, calls) {
			return true
		}
	}
	return false
}

// attemptResults returns the variables that the assignment of attempt at
// sets: e, and the results beside it (res, err = do(req)).
func (w *loopWalk) attemptResults(at attemptDef, e types.Object) map[types.Object]bool {
	out := map[types.Object]bool{e: true}
	ast.Inspect(w.body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 || ast.Unparen(as.Rhs[0]) != at.call {
			return true
		}
		for _, l := range as.Lhs {
			if o := w.obj(l); o != nil {
				out[o] = true
			}
		}
		return false
	})
	return out
}

// predicateResults is attemptResults with verdicts, computed once per
// attempt and error variable.
func (w *loopWalk) predicateResults(at attemptDef, e types.Object) map[types.Object]bool {
	key := predKey{at.call, e}
	if r, ok := w.predMemo[key]; ok {
		return r
	}
	r := w.attemptResults(at, e)
	w.verdicts(r)
	if w.predMemo == nil {
		w.predMemo = make(map[predKey]map[types.Object]bool)
	}
	w.predMemo[key] = r
	return r
}

type predKey struct {
	call *ast.CallExpr
	e    types.Object
}

// verdicts adds to results the bool variables that the loop assigns from
// a predicate on them (retry := shouldRetry(req, res); d, ok :=
// c.shouldRetryRequest(res, n)): a test of one is a test of the attempt's
// results.
func (w *loopWalk) verdicts(results map[types.Object]bool) {
	isBool := func(t types.Type) bool { return t != nil && types.Identical(t.Underlying(), types.Typ[types.Bool]) }
	astq.InspectOwn(w.body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 {
			return true
		}
		call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !ok || !w.m.onResult(call, results) {
			return true
		}
		for _, l := range as.Lhs {
			if o := w.obj(l); o != nil && isBool(o.Type()) && !results[o] {
				results[o] = true
			}
		}
		return true
	})
}

// onResult reports whether call passes an error or response among results.
func (m *model) onResult(call *ast.CallExpr, results map[types.Object]bool) bool {
	for _, a := range call.Args {
		id, ok := ast.Unparen(a).(*ast.Ident)
		if !ok || !results[m.info.Uses[id]] {
			continue
		}
		if t := m.info.TypeOf(a); t != nil && (isError(t) || isResponse(t)) {
			return true
		}
	}
	return false
}

// predicateCond reports whether cond, holding with truth value want, says
// that the attempt whose results are results needs no retry: a predicate
// call on an error or response result that is false (!shouldRetry(res)),
// or a comparison of a response result's status code.
func (m *model) predicateCond(cond ast.Expr, want bool, results map[types.Object]bool, calls bool) bool {
	switch c := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if c.Op == token.NOT {
			return m.predicateCond(c.X, !want, results, calls)
		}
	case *ast.BinaryExpr:
		switch c.Op {
		case token.LOR, token.LAND:
			return m.predicateCond(c.X, want, results, calls) || m.predicateCond(c.Y, want, results, calls)
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			return !calls && (m.isStatusOf(c.X, results) || m.isStatusOf(c.Y, results))
		}
	case *ast.Ident:
		// retry, err = run(); if !retry { return err }: the attempt says
		// itself whether to go on, in a bool result beside its error.
		o := m.info.Uses[c]
		return results[o] && o != nil && types.Identical(o.Type().Underlying(), types.Typ[types.Bool])
	case *ast.CallExpr:
		if want {
			return false // exits when the predicate holds: a failure exit
		}
		fn := m.callee(c)
		if fn == nil && !isFuncValue(m.info, c) {
			return false
		}
		if fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "errors" {
			return false // errors.Is(err, target) holds only for an error
		}
		if t := m.info.TypeOf(c); t == nil || !types.Identical(t.Underlying(), types.Typ[types.Bool]) {
			return false
		}
		return m.onResult(c, results)
	}
	return false
}

// isStatusOf reports whether e is the StatusCode field of a response among
// results.
func (m *model) isStatusOf(e ast.Expr, results map[types.Object]bool) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	f, ok := m.info.Uses[sel.Sel].(*types.Var)
	if !ok || !f.IsField() || f.Name() != "StatusCode" || f.Pkg() == nil || f.Pkg().Path() != "net/http" {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	return ok && results[m.info.Uses[id]]
}

// isResponse reports whether t is *net/http.Response.
func isResponse(t types.Type) bool { return astq.IsPointerTo(t, "net/http", "Response") }

// isFuncValue reports whether call calls a func value (a variable, a
// field, a parameter), not a declared function.
func isFuncValue(info *types.Info, call *ast.CallExpr) bool {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		_, ok := info.Uses[f].(*types.Var)
		return ok
	case *ast.SelectorExpr:
		_, ok := info.Uses[f.Sel].(*types.Var)
		return ok
	}
	return false
}

// nested walks the body of a loop nested in the candidate, under guards,
// and returns the guards in force after it. When the nested loop leaves to
// the next pass of the candidate with one continue under one condition of
// its own (if err != nil { continue outer }), the code after the nested
// loop runs only when that condition did not hold on its last pass.
func (w *loopWalk) nested(list []ast.Stmt, guards []guard) []guard {
	before := len(w.outerConts)
	w.block(list, guards, false, true)
	conts := w.outerConts[before:]
	if len(conts) != 1 || len(conts[0]) != len(guards)+1 || conts[0][len(guards)].cond == nil {
		return guards
	}
	g := conts[0][len(guards)]
	return with(guards, guard{cond: g.cond, neg: !g.neg})
}

// takenOnNil reports whether exit x is taken whenever attempt at succeeds:
// each guard beyond those in force at the attempt holds when e == nil,
// whatever else is true (!(err != nil && retries > 0) does).
func (w *loopWalk) takenOnNil(x exit, e types.Object, at attemptDef) bool {
	if at.call == nil || len(x.guards) <= at.depth {
		return false
	}
	for _, g := range x.guards[at.depth:] {
		if g.cond == nil {
			return false
		}
		v := nilTruth(w.m.info, g.cond, e)
		if v == 0 || (v > 0) == g.neg {
			return false
		}
	}
	return true
}

// nilTruth evaluates cond assuming e == nil: 1 true, -1 false, 0 unknown.
func nilTruth(info *types.Info, cond ast.Expr, e types.Object) int {
	switch c := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if c.Op == token.NOT {
			return -nilTruth(info, c.X, e)
		}
	case *ast.BinaryExpr:
		switch c.Op {
		case token.LAND:
			x, y := nilTruth(info, c.X, e), nilTruth(info, c.Y, e)
			switch {
			case x < 0 || y < 0:
				return -1
			case x > 0 && y > 0:
				return 1
			}
			return 0
		case token.LOR:
			x, y := nilTruth(info, c.X, e), nilTruth(info, c.Y, e)
			switch {
			case x > 0 || y > 0:
				return 1
			case x < 0 && y < 0:
				return -1
			}
			return 0
		case token.EQL, token.NEQ:
			if isNilCompare(info, c, isVar(info, e)) {
				if c.Op == token.EQL {
					return 1
				}
				return -1
			}
		}
	}
	return 0
}

// mentionsAny reports whether e mentions one of objs.
func (w *loopWalk) mentionsAny(e ast.Expr, objs map[types.Object]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && objs[w.m.info.Uses[id]] {
			found = true
		}
		return !found
	})
	return found
}
