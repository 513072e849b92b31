package retryscope

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/flow"
	"github.com/idemlint/idemlint/passes/internal/flow/policy"
	"github.com/idemlint/idemlint/passes/internal/names"
)

// The loop scopes, as the flow engine reads them (issue 46): each
// loop or call-graph cycle of the package that has an attempt no precision
// policy rejects (policy.Context.Judge) is a Loop scope. Its waits are the
// calls on the way from each kept attempt's failure (Again) edge to that
// attempt's next call; its cap and deadline are read from the loop's
// exits on that way (the exits' conditions classified by the loop's
// condReader, conds.go: condKind, the counts by counterCap); a select
// case that leaves is read by commDeadline. A loop that is no for or range
// statement (a goto back to a label, a recursion, a time.AfterFunc
// rescheduling) is NotFor: its Node is the labelled statement or the
// call that starts the next pass, and its jump says how.

// engineScopes returns the package's loop scopes read from the flow
// engine's package p, in source order.
func (m *model) engineScopes(p *flow.Package) []*Scope {
	pc := policy.NewContext(p, m.res.Knowledge())
	var out []*Scope
	for _, fn := range p.Funcs {
		loops := append(slices.Clone(p.Loops(fn).Loops), p.Cycles(fn)...)
		for _, l := range loops {
			if l.Syntax == nil {
				continue
			}
			v := pc.Judge(l)
			if len(v.Kept) == 0 {
				continue
			}
			if s := m.engineScope(p, l, v.Kept); s != nil {
				out = append(out, s)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b *Scope) int { return int(a.Pos - b.Pos) })
	return out
}

// engineLoop is one engine loop being read as a scope.
type engineLoop struct {
	m    *model
	p    *flow.Package
	l    *flow.Loop
	r    *condReader // the readers of the loop's conditions, over its syntax (conds.go)
	kept []*flow.Attempt
	// exprs are the expressions of the function's syntax by the position
	// the builder gives the value they compute (a BinaryExpr's or a
	// UnaryExpr's operator, a CallExpr's Lparen), and calls its calls by
	// Lparen.
	exprs map[token.Pos]ast.Expr
	calls map[token.Pos]*ast.CallExpr
	// never is set when the loop's cap is a policy that never retries by
	// default (condNever); neverAt are the exit blocks that test such a
	// policy's decision
	never   bool
	neverAt map[*ssa.BasicBlock]bool
	// leaves are the leaf conditions of the function's if, for and
	// tagless switch statements (split at && and ||), in source order;
	// assigned is the variable each value is assigned to, by the position
	// the builder gives the value (valuePos) and, for a call's results,
	// the result's index.
	leaves   []ast.Expr
	leafOf   map[ast.Expr]ast.Expr // a leaf, or its operand under !, to the leaf
	rootOf   map[ast.Expr]ast.Expr // a leaf to the whole condition it is part of
	assigned map[resultKey]types.Object
}

// resultKey is a result of the call at lparen.
type resultKey struct {
	lparen token.Pos
	index  int
}

// engineScope reads the scope of l, whose attempts kept are retried.
func (m *model) engineScope(p *flow.Package, l *flow.Loop, kept []*flow.Attempt) *Scope {
	fnSyn := funcSyntax(l.Fn)
	outer := outerSyntax(l.Fn)
	if fnSyn == nil || outer == nil {
		return nil
	}
	_, fnBody := astq.Func(fnSyn)
	if fnBody == nil {
		return nil
	}
	di := m.defIndex(outer)
	s := &Scope{Kind: Loop, Func: fnSyn, Trigger: TriggerError}
	r := newCondReader(m, di, fnSyn, nil, nil)
	var rangeCap *Cap
	var iter *attemptIter
	switch n := l.Syntax.(type) {
	case *ast.ForStmt:
		s.Pos, s.Node, s.Body = n.For, n, n.Body
		r.loop, r.body = n, n.Body
		r.collect(n.Post)
	case *ast.RangeStmt:
		s.Pos, s.Node, s.Body = n.For, n, n.Body
		r.loop, r.body = n, n.Body
		if rangeCap = m.rangeCount(n); rangeCap == nil {
			// a range over func: an attempt iterator counts and paces
			// its attempts (iterators.go)
			if iter = m.attemptIterOf(di, n); iter == nil {
				// a range over items, a channel or another iterator
				// processes them, one each pass: no retry (as the walk
				// read it; the engine keeps some whose failure moves on
				// to the next item through a closure or a helper)
				return nil
			}
			rangeCap = &iter.cap
		}
	case *ast.LabeledStmt:
		// a goto back to the label: the repeated code is the block that
		// holds the label, from the label on
		blk := enclosingBlock(fnBody, n)
		if blk == nil {
			return nil
		}
		s.Pos, s.Node, s.Body, s.NotFor = n.Pos(), n, blk, true
		r.loop, r.body = n, blk
		s.jump = &jump{label: n.Label.Name}
	case *ast.CallExpr:
		// a recursion or a rescheduling: the repeated code is the
		// function's body, and the call starts the next pass
		s.Pos, s.Node, s.Body, s.NotFor = n.Pos(), n, fnBody, true
		r.loop, r.body = fnBody, fnBody
		s.jump = m.cycleJump(l, fnBody, n)
	default:
		return nil
	}
	r.jump = s.jump
	if r.jump != nil && r.jump.fn != nil {
		r.recurCounters()
	}
	r.collect(r.body)
	e := &engineLoop{m: m, p: p, l: l, r: r, kept: kept}
	e.index(fnSyn)

	region := e.failureRegion()
	s.Waits = e.waits(di, s.Body, region)
	if iter != nil {
		if !ownWait(s.Waits) {
			s.Waits = nil
		}
		s.Waits = append(s.Waits, iter.waits...)
	}
	e.bounds(s, region, rangeCap)
	if lit := e.step(); lit != nil && s.jump.fn != nil {
		// a recursion through a closure of the function (sarama's retry
		// := func(err error) error {...}): the closure waits, and the
		// guard of its recursive call bounds it
		s.jump.steps = []*ast.FuncLit{lit}
		if !ownWait(s.Waits) {
			s.Waits = nil
		}
		s.Waits = append(s.Waits, m.loopWaits(di, lit.Body)...)
		if s.Cap.Kind == CapNone || s.Cap.Kind == CapUnknown {
			s.Cap = m.stepCap(s.jump)
		}
	}
	if e.never && s.Cap.Kind == CapKnown && s.Cap.N <= 1 {
		return nil // by default its policy never retries (neverretry.go)
	}
	if s.jump != nil && s.jump.fn != nil && s.Cap.Kind == CapKnown {
		// the counter starts where the caller's argument says
		s.Cap = Cap{Kind: CapBounded, Pos: s.Cap.Pos}
	}
	return s
}

// step returns the literal of the loop's function through which a
// Recursion calls the function again, or nil.
func (e *engineLoop) step() *ast.FuncLit {
	site := e.l.Site()
	if e.l.Kind != flow.Recursion || site == nil {
		return nil
	}
	callee := site.Call.StaticCallee()
	if callee == nil || callee.Parent() != e.l.Fn {
		return nil
	}
	lit, _ := callee.Syntax().(*ast.FuncLit)
	return lit
}

// rangeCount is the cap of a range over an integer: the count when it is
// a constant, else bounded; nil for a range over anything else.
func (m *model) rangeCount(l *ast.RangeStmt) *Cap {
	t, ok := m.info.Types[l.X]
	if !ok || !isInteger(t.Type) {
		return nil
	}
	c := Cap{Kind: CapBounded, Pos: l.X.Pos()}
	if t.Value != nil {
		if n, ok := constant.Int64Val(t.Value); ok {
			c = Cap{Kind: CapKnown, N: int(n), Pos: l.X.Pos()}
		}
	}
	return &c
}

// cycleJump says how a call-graph cycle starts its next pass: the
// return statements that return the call of a recursion, the statement
// holding a rescheduling's time.AfterFunc.
func (m *model) cycleJump(l *flow.Loop, body *ast.BlockStmt, call *ast.CallExpr) *jump {
	j := &jump{}
	switch l.Kind {
	case flow.Recursion:
		j.recur = map[*ast.ReturnStmt]bool{}
		if fn, ok := l.Fn.Object().(*types.Func); ok {
			j.fn = fn
		}
		ast.Inspect(body, func(n ast.Node) bool {
			if r, ok := n.(*ast.ReturnStmt); ok {
				for _, res := range r.Results {
					if ast.Unparen(res) == call {
						j.recur[r] = true
					}
				}
			}
			return true
		})
	case flow.Reschedule:
		j.resched = map[ast.Stmt]*ast.CallExpr{}
		if st := enclosingStmt(body, call); st != nil {
			j.resched[st] = call
		}
	}
	return j
}

// index fills e's indexes from fn's syntax.
func (e *engineLoop) index(fn ast.Node) {
	e.exprs, e.calls = map[token.Pos]ast.Expr{}, map[token.Pos]*ast.CallExpr{}
	e.assigned, e.leafOf, e.rootOf = map[resultKey]types.Object{}, map[ast.Expr]ast.Expr{}, map[ast.Expr]ast.Expr{}
	var root ast.Expr
	var leaves func(c ast.Expr)
	split := func(c ast.Expr) {
		root = c
		leaves(c)
	}
	leaves = func(c ast.Expr) {
		switch x := ast.Unparen(c).(type) {
		case *ast.BinaryExpr:
			if x.Op == token.LAND || x.Op == token.LOR {
				leaves(x.X)
				leaves(x.Y)
				return
			}
		}
		leaf := ast.Unparen(c)
		e.leaves = append(e.leaves, leaf)
		e.rootOf[leaf] = root
		// the builder branches on x for !x, swapping the edges
		for x := leaf; ; {
			e.leafOf[x] = leaf
			u, ok := x.(*ast.UnaryExpr)
			if !ok || u.Op != token.NOT {
				break
			}
			x = ast.Unparen(u.X)
		}
	}
	assign := func(lhs []ast.Expr, rhs []ast.Expr) {
		if len(rhs) == 1 && len(lhs) > 1 {
			if call, ok := ast.Unparen(rhs[0]).(*ast.CallExpr); ok {
				for i, l := range lhs {
					if o := e.r.obj(l); o != nil {
						e.assigned[resultKey{call.Lparen, i}] = o
					}
				}
			}
			return
		}
		for i, r := range rhs {
			if pos := valuePos(r); pos.IsValid() && i < len(lhs) {
				if o := e.r.obj(lhs[i]); o != nil {
					e.assigned[resultKey{pos, 0}] = o
				}
			}
		}
	}
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			e.exprs[n.OpPos] = n
		case *ast.UnaryExpr:
			e.exprs[n.OpPos] = n
		case *ast.CallExpr:
			e.exprs[n.Lparen] = n
			e.calls[n.Lparen] = n
		case *ast.IfStmt:
			split(n.Cond)
		case *ast.ForStmt:
			if n.Cond != nil {
				split(n.Cond)
			}
		case *ast.SwitchStmt:
			if n.Tag == nil {
				for _, c := range n.Body.List {
					for _, x := range c.(*ast.CaseClause).List {
						split(x)
					}
				}
			}
		case *ast.AssignStmt:
			assign(n.Lhs, n.Rhs)
		case *ast.ValueSpec:
			names := make([]ast.Expr, len(n.Names))
			for i, id := range n.Names {
				names[i] = id
			}
			assign(names, n.Values)
		}
		return true
	})
	slices.SortFunc(e.leaves, func(a, b ast.Expr) int { return int(a.Pos() - b.Pos()) })
}

// valuePos returns the position the builder gives the value x computes:
// a call's Lparen, a binary or unary operator's position; NoPos for the
// rest.
func valuePos(x ast.Expr) token.Pos {
	switch x := ast.Unparen(x).(type) {
	case *ast.CallExpr:
		return x.Lparen
	case *ast.BinaryExpr:
		return x.OpPos
	case *ast.UnaryExpr:
		return x.OpPos
	}
	return token.NoPos
}

// condition returns the leaf condition of the syntax that v, the
// condition of an If of the loop, computes: the comparison, call or
// operator at v's position, or, for a variable (a call's result assigned
// to it, a parameter), the first leaf condition after its definition that
// is that variable; nil when there is none.
func (e *engineLoop) condition(v ssa.Value) ast.Expr {
	if x := e.exprs[v.Pos()]; x != nil && v.Pos().IsValid() {
		if leaf := e.leafOf[x]; leaf != nil {
			return leaf
		}
	}
	var o types.Object
	var from token.Pos
	var best ast.Expr
	switch v := v.(type) {
	case *ssa.Extract:
		if c, ok := v.Tuple.(*ssa.Call); ok {
			o, from = e.assigned[resultKey{c.Pos(), v.Index}], c.Pos()
		}
	case *ssa.Parameter:
		o, from = v.Object(), v.Pos()
	default:
		if v.Pos().IsValid() {
			o, from = e.assigned[resultKey{v.Pos(), 0}], v.Pos()
		}
	}
	if o == nil {
		return nil
	}
	for x, leaf := range e.leafOf {
		if x.Pos() > from && e.r.obj(x) == o && (best == nil || leaf.Pos() < best.Pos()) {
			best = leaf
		}
	}
	return best
}

// failureRegion returns the blocks a pass goes through from the failure
// (Again) edge of a kept attempt to that attempt's next call: the rest of
// the failed pass and the start of the next, up to and with the
// attempt's block; and the block of the attempt's decision, and what
// follows it.
func (e *engineLoop) failureRegion() map[*ssa.BasicBlock]bool {
	l := e.l
	region := map[*ssa.BasicBlock]bool{}
	next := l.Header
	if next == nil && len(l.Fn.Blocks) > 0 {
		next = l.Fn.Blocks[0]
	}
	for _, a := range e.kept {
		stop := a.Call.Block()
		seen := map[*ssa.BasicBlock]bool{}
		var stack []*ssa.BasicBlock
		push := func(b *ssa.BasicBlock) {
			if b != nil && !seen[b] && (l.Contains(b) || b == next) {
				seen[b] = true
				stack = append(stack, b)
			}
		}
		if l.IsBack(a.Again) || a.Again.To == nil {
			push(next)
		} else {
			push(a.Again.To)
		}
		if a.If != nil {
			// the decision itself: a predicate given the attempt counter
			// is a policy's bound
			push(a.If.Block())
		}
		if !a.OnSuccess && a.Leave.To != nil {
			// a success whose result is tested again (if
			// resp.StatusCode >= 500 { sleep; continue }): the failed
			// result's way to the next pass
			for _, b := range e.failedResults(a.Leave.To) {
				push(b)
			}
		}
		for len(stack) > 0 {
			b := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			region[b] = true
			if b == stop {
				continue
			}
			if l.IsBack(flow.Edge{From: b}) {
				push(next)
			}
			for _, s := range b.Succs {
				if l.IsBack(flow.Edge{From: b, To: s}) {
					push(next)
				} else if l.Contains(s) {
					push(s)
				}
			}
		}
	}
	return region
}

// failedResults returns the blocks of the loop that a pass entering it
// at from enters after a branch on the attempt's results (a status, a
// result variable) and from which it goes on to the next pass.
func (e *engineLoop) failedResults(from *ssa.BasicBlock) []*ssa.BasicBlock {
	l := e.l
	if !l.Contains(from) {
		return nil
	}
	type visit struct {
		b     *ssa.BasicBlock
		armed bool
	}
	seen := map[visit]bool{}
	var out []*ssa.BasicBlock
	stack := []visit{{from, false}}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[v] {
			continue
		}
		seen[v] = true
		armed := v.armed
		if ifi, ok := last(v.b).(*ssa.If); ok && !armed {
			if c := e.condition(ifi.Cond); c != nil && e.r.onResults(c) {
				armed = true
			}
		}
		for _, s := range v.b.Succs {
			if l.IsBack(flow.Edge{From: v.b, To: s}) || !l.Contains(s) {
				continue
			}
			if armed {
				out = append(out, s)
			}
			stack = append(stack, visit{s, armed})
		}
	}
	return out
}

// waits returns the waits of the calls in region, in source order, each
// classified by callWait; none is a hot loop (WaitNone), and none where
// the way blocks (a receive, a select, a callee named like a wait, a
// nested loop that waits) is unknown. A call in an if that the package's
// defaults never take (untakenByDefault) does not count, nor do the calls
// of a nested loop that waits on its own (it paces itself), nor the call
// that starts a cycle's next pass.
func (e *engineLoop) waits(di *defIndex, body *ast.BlockStmt, region map[*ssa.BasicBlock]bool) []Wait {
	m, l := e.m, e.l
	var untaken []ast.Node // the branches the package's defaults never take
	ast.Inspect(body, func(n ast.Node) bool {
		if st, ok := n.(*ast.IfStmt); ok && m.untakenByDefault(st.Cond) {
			untaken = append(untaken, st.Body)
		}
		return true
	})
	skipped := func(pos token.Pos) bool {
		return slices.ContainsFunc(untaken, func(n ast.Node) bool { return in(n, pos) })
	}
	paces := map[*flow.Loop]bool{} // the nested loops that wait on their own
	selfPaced := func(b *ssa.BasicBlock) bool {
		in := e.p.Loops(l.Fn).Of(b)
		for in != nil && in != l && in.Parent != l && in.Parent != nil {
			in = in.Parent
		}
		if in == nil || in == l || in.Parent != l {
			return false
		}
		if v, ok := paces[in]; ok {
			return v
		}
		paces[in] = false
		for _, ib := range in.Blocks {
			for _, instr := range ib.Instrs {
				if c, ok := instr.(ssa.CallInstruction); ok {
					if call := e.calls[c.Common().Pos()]; call != nil && m.waitCall(di, call) != nil {
						paces[in] = true
					}
				}
			}
		}
		return paces[in]
	}
	var waits []Wait
	blocking := false
	for _, b := range l.Fn.Blocks {
		if !region[b] {
			continue
		}
		if selfPaced(b) {
			blocking = true
			continue
		}
		for _, instr := range b.Instrs {
			if skipped(instr.Pos()) {
				continue
			}
			switch instr := instr.(type) {
			case *ssa.Select:
				if instr.Blocking {
					blocking = true
				}
			case *ssa.UnOp:
				if instr.Op == token.ARROW {
					blocking = true
				}
			}
			c, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			call := e.calls[c.Common().Pos()]
			if call == nil || skipped(call.Pos()) {
				continue
			}
			if l.Kind == flow.Reschedule && m.calleeName(call) == "time.AfterFunc" && len(call.Args) == 2 {
				// the next pass starts when the timer fires
				waits = append(waits, m.waitAt(&waitSite{call: call, dur: call.Args[0], di: di}, call))
				continue
			}
			if l.Site() != nil && c == ssa.CallInstruction(l.Site()) {
				continue // the recursive call waits only as the pass does
			}
			wt, ok, blocks := m.callWait(di, body, call)
			if ok && wt.Kind != WaitConstant && failureConstant(c, e.failureWay()) {
				// the duration is a variable the failure's way sets to
				// a constant before the wait (consul's RenewPeriodic:
				// waitDur = time.Second; continue)
				wt.Kind = WaitConstant
			}
			if ok {
				if !slices.ContainsFunc(waits, func(o Wait) bool { return o.Node == wt.Node }) {
					waits = append(waits, wt)
				}
				continue
			}
			blocking = blocking || blocks
		}
	}
	slices.SortStableFunc(waits, func(a, b Wait) int { return int(a.Pos - b.Pos) })
	if len(waits) == 0 {
		k := WaitNone
		if blocking {
			k = WaitUnknown
		}
		waits = append(waits, Wait{Kind: k, Pos: body.Lbrace, Node: body})
	}
	return waits
}

// failureWay returns the blocks a kept attempt's failure reaches before
// the loop's next pass (no back edge taken): the failure branch.
func (e *engineLoop) failureWay() map[*ssa.BasicBlock]bool {
	way := make(map[*ssa.BasicBlock]bool)
	for _, a := range e.kept {
		if a.Again.To != nil && !e.l.IsBack(a.Again) {
			maps.Copy(way, e.l.PassFrom(a.Again.To))
		} else if a.Again.From != nil {
			way[a.Again.From] = true // the failure goes straight to the next pass
		}
	}
	return way
}

// failureConstant reports whether a time.Duration argument of call c is a
// phi whose every value from a block of way (a failure's way to the next
// pass, failureWay) is a non-zero constant: what the failure branch sets
// the wait to before it continues.
func failureConstant(c ssa.CallInstruction, region map[*ssa.BasicBlock]bool) bool {
	for _, a := range c.Common().Args {
		phi, ok := a.(*ssa.Phi)
		if !ok || !isDuration(phi.Type()) {
			continue
		}
		found := false
		for i, v := range phi.Edges {
			if !region[phi.Block().Preds[i]] {
				continue
			}
			k, isConst := v.(*ssa.Const)
			if !isConst || k.Value == nil || k.Value.String() == "0" {
				return false
			}
			found = true
		}
		return found
	}
	return false
}

func isDuration(t types.Type) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration"
}

// bounds reads the scope's cap and deadline from the loop's exits: an
// exit in region (taken on the way from a failure to the next attempt)
// whose condition counts attempts is a cap, one on a context, a clock or
// a stop signal anywhere in the loop a deadline, and one the model cannot
// read an unknown bound.
func (e *engineLoop) bounds(s *Scope, region map[*ssa.BasicBlock]bool, rangeCap *Cap) {
	r := e.r
	var caps []Cap
	other := false
	dl := Deadline{Kind: DeadlineNone}
	better := func(d Deadline) {
		rank := map[DeadlineKind]int{DeadlineNone: 0, DeadlineUnknown: 1, DeadlineCaller: 2, DeadlineLibrary: 3, DeadlineInScope: 4}
		if rank[d.Kind] > rank[dl.Kind] || dl.Kind == DeadlineUnknown && d.Kind != DeadlineUnknown {
			dl = d
		}
	}
	if rangeCap != nil {
		caps = append(caps, *rangeCap)
	}
	first := token.NoPos // the first kept attempt
	for _, a := range e.kept {
		if pos := a.Call.Pos(); !first.IsValid() || pos < first {
			first = pos
		}
	}
	var gated []*paramField // for each exit that caps, the parameter field it requires positive
	e.neverAt = make(map[*ssa.BasicBlock]bool)
	for _, x := range e.l.Exits {
		if ifi, ok := last(x.From).(*ssa.If); ok {
			if cond := e.condition(ifi.Cond); cond != nil {
				if k, _, _ := r.condKind(cond, e.inCond(cond)); k == condNever {
					e.neverAt[x.From] = true
				}
			}
		}
	}
	for _, x := range e.l.Exits {
		ifi, ok := last(x.From).(*ssa.If)
		if !ok {
			continue
		}
		if comms, ok := e.selectCases(ifi.Cond, x.To == x.From.Succs[0]); ok {
			for _, comm := range comms {
				if d, ok := r.commDeadline(comm); ok {
					better(d)
				}
			}
			continue
		}
		cond := e.condition(ifi.Cond)
		if cond == nil {
			switch ifi.Cond.(type) {
			case *ssa.Phi, *ssa.UnOp, *ssa.Extract, *ssa.Parameter:
				if region[x.From] && !e.underFailureKind(x.From, nil) && !e.flagOfFailureKind(x) {
					other = true // a variable the model cannot read
				}
			}
			continue
		}
		gs := []guard{{cond: cond, neg: x.To != x.From.Succs[0]}}
		for _, g := range e.guards(x.From) {
			gs = append(gs, g.guard)
		}

		for _, g := range gs {
			if mentionsStatus(g.cond) {
				s.Trigger = TriggerStatus
			}
		}
		if r.offByDefault(gs) {
			continue // if max > 0 && n >= max, max 0 by default: no cap
		}
		k, c, d := r.condKind(cond, e.inCond(cond))

		switch k {
		case condTime:
			better(d)
		case condCounter:
			if !region[x.From] {
				break
			}
			if g, ok := e.othersOnResults(x.From, cond); !ok {
				// if n > 0 { if !sleep(ctx, d) { return } }: the exit
				// needs more than the count; the count alone leaves
				// nothing
				if !g {
					other = true
				}
				break
			}
			caps = append(caps, e.counted(c, cond, first))
			gated = append(gated, r.capGate(gs))
		case condInvariant:
			// i < n || n < 0: an exit on what the loop never changes, past
			// a count's test, leaves the count as the cap (a negative n,
			// "forever", is the caller's choice: nats.go's publishMsg)
			if !region[x.From] {
				break
			}
			var counters []ast.Expr
			for _, g := range e.guards(x.From) {
				if gk, _, _ := r.condKind(g.cond, false); gk == condCounter && g.neg {
					counters = append(counters, g.cond)
				}
			}
			if len(counters) == 1 {
				_, gc, _ := r.condKind(counters[0], false)
				caps = append(caps, e.counted(gc, counters[0], first))
				gated = append(gated, r.capGate(gs))
			}
		case condOther:
			if region[x.From] && !e.underFailureKind(x.From, cond) && !e.flagOfFailureKind(x) {
				other = true
			}
		case condNever:
			// a policy's decision that never retries by default
			// (neverretry.go): the loop's bound when the policy is all it
			// retries by, else the policy's bound is not the loop's
			if e.policyOnly() {
				caps = append(caps, c)
				gated = append(gated, r.capGate(gs))
				e.never = true
			} else if region[x.From] {
				other = true
			}
		}
		if !region[x.From] || k == condCounter || k == condTime || !r.onResults(cond) {
			continue
		}
		// an exit on the attempt's results under a count (if i < 2 {
		// continue } before it): the count caps the retry when every
		// other guard tests the results too
		var counters []ast.Expr
		onResults := true
		for _, g := range e.guards(x.From) {
			if g.neg && r.passFilter(g.cond) {
				continue // past if i == 0 && skip { continue }: no bound
			}
			if gk, _, _ := r.condKind(g.cond, false); gk == condCounter {
				counters = append(counters, g.cond)
			} else if !r.onResults(g.cond) {
				onResults = false
			}
		}
		if onResults && len(counters) == 1 {
			_, gc, _ := r.condKind(counters[0], false)
			caps = append(caps, e.counted(gc, counters[0], first))
			gated = append(gated, r.capGate(gs))
		}
	}
	settleGate(s, gated, len(caps), rangeCap != nil)
	e.m.settleBounds(s, caps, other, dl)
}

// underFailureKind reports whether exit block b, whose condition is
// cond, is reached only under a test of the attempt's error for a kind of
// failure (if errors.Is(err, OffsetOutOfRange) { if r.flag { return } }:
// kafka-go's reader.run): the exit gives up on that failure, it bounds
// nothing the loop retries.
func (e *engineLoop) underFailureKind(b *ssa.BasicBlock, cond ast.Expr) bool {
	for _, g := range e.guards(b) {
		if g.cond == cond || g.neg {
			continue
		}
		if call, ok := ast.Unparen(g.cond).(*ast.CallExpr); ok && e.r.onResults(g.cond) && (e.m.calleeName(call) == "errors.Is" || e.m.calleeName(call) == "errors.As") {
			return true
		}
	}
	return false
}

// flagOfFailureKind reports whether exit x is taken on a flag that only a
// kind of the attempt's failure sets to leave (ok = false under
// err.(NotDefinedError), metadata's Subscribe): like an exit under
// errors.Is, it gives up on that failure and bounds nothing the loop
// retries. The flag is a phi (through phis) whose every constant that
// leaves comes from a block under such a test, and whose other values are
// constants that stay.
func (e *engineLoop) flagOfFailureKind(x flow.Edge) bool {
	ifi, ok := last(x.From).(*ssa.If)
	if !ok {
		return false
	}
	leaveOn := x.To == x.From.Succs[0] // the flag's value that leaves
	found := false
	seen := make(map[*ssa.Phi]bool)
	var walk func(phi *ssa.Phi) bool
	walk = func(phi *ssa.Phi) bool {
		if seen[phi] {
			return true
		}
		seen[phi] = true
		for i, v := range phi.Edges {
			switch v := v.(type) {
			case *ssa.Phi:
				if !walk(v) {
					return false
				}
			case *ssa.Const:
				if v.Value == nil || v.Value.Kind() != constant.Bool {
					return false
				}
				if constant.BoolVal(v.Value) != leaveOn {
					continue
				}
				if !e.failureKindAt(phi.Block().Preds[i]) {
					return false
				}
				found = true
			default:
				return false
			}
		}
		return true
	}
	phi, ok := ifi.Cond.(*ssa.Phi)
	return ok && walk(phi) && found
}

// failureKindAt reports whether block b of the loop is reached only when
// a kept attempt's error is of a kind: past the holding edge of a type
// assertion of the error (err.(NotDefinedError)) or an errors.Is or
// errors.As of it.
func (e *engineLoop) failureKindAt(b *ssa.BasicBlock) bool {
	errs := make(map[ssa.Value]bool)
	for _, a := range e.kept {
		if v := flow.ErrorResult(a.Call); v != nil {
			errs[v] = true
		}
	}
	for d := b; d != nil && e.l.Contains(d); d = d.Idom() {
		ifi, ok := last(d).(*ssa.If)
		if !ok {
			continue
		}
		if !d.Succs[0].Dominates(b) {
			continue
		}
		switch c := ifi.Cond.(type) {
		case *ssa.Extract:
			if ta, ok := c.Tuple.(*ssa.TypeAssert); ok && c.Index == 1 && errs[ta.X] {
				return true
			}
		case *ssa.Call:
			if flow.IsErrorsIsAs(c) && len(c.Call.Args) > 0 && errs[c.Call.Args[0]] {
				return true
			}
		}
	}
	return false
}

// othersOnResults reports whether every guard of exit block b from
// another statement than its condition cond tests the attempt's results
// (err != nil, a status, a result variable), so that a count in cond
// caps the attempts; when not, signal says whether one of them is a stop
// signal's (a wait helper's false, stopWaitArg), which leaves whatever
// the count.
func (e *engineLoop) othersOnResults(b *ssa.BasicBlock, cond ast.Expr) (signal, ok bool) {
	ok = true
	for _, g := range e.guards(b) {
		if e.rootOf[g.cond] == e.rootOf[cond] || e.inCond(g.cond) || g.neg && e.r.passFilter(g.cond) || e.r.onResults(g.cond) || e.gatesAttempt(g) {
			continue
		}
		ok = false
		if u, isNot := g.cond.(*ast.UnaryExpr); isNot && u.Op == token.NOT && !g.neg {
			if call, isCall := ast.Unparen(u.X).(*ast.CallExpr); isCall {
				if _, stop := e.m.stopWaitArg(e.r.di, call); stop {
					signal = true
				}
			}
		}
	}
	return signal, ok
}

// policyOnly reports whether the loop repeats only through the tests of
// a policy's decision (the exit blocks of e.never: one per failure way,
// olivere's PerformRequest asks its retrier on each): every kept attempt
// but a decision's own goes through one of them from its failure to the
// next pass, or through a pass taken once (firstPassOnly).
func (e *engineLoop) policyOnly() bool {
	for _, a := range e.kept {
		if a.If != nil && e.neverAt[a.If.Block()] {
			continue // a decision itself
		}
		if e.l.RepeatsAvoiding(a.Again, func(x *ssa.BasicBlock) bool { return e.neverAt[x] || e.firstPassOnly(x) }) {
			return false
		}
	}
	return true
}

// firstPassOnly reports whether block x of the loop is entered only on a
// flag's first-pass value: its one predecessor branches on a bool phi of
// the loop's header that starts as a constant and is set to the other
// constant on every way to the next pass (if !retried { healthcheck();
// retried = true; continue }, olivere's PerformRequest): a pass taken
// once, not a retry of its own.
func (e *engineLoop) firstPassOnly(x *ssa.BasicBlock) bool {
	if len(x.Preds) != 1 {
		return false
	}
	ifi, ok := last(x.Preds[0]).(*ssa.If)
	if !ok {
		return false
	}
	phi, ok := ifi.Cond.(*ssa.Phi)
	if !ok || phi.Block() != e.l.Header {
		return false
	}
	onTrue := x.Preds[0].Succs[0] == x // x is taken when the flag is true
	var start *bool
	from := e.l.PassFrom(x)
	for i, v := range phi.Edges {
		pred := phi.Block().Preds[i]
		inside := e.l.Contains(pred)
		if v == ssa.Value(phi) && inside && !from[pred] {
			continue // unchanged by a pass that did not take x
		}
		k, ok := v.(*ssa.Const)
		if !ok || k.Value == nil || k.Value.Kind() != constant.Bool {
			return false
		}
		b := constant.BoolVal(k.Value)
		if !inside {
			if start != nil && *start != b {
				return false
			}
			start = &b
		} else if b == onTrue {
			return false // a next pass may take x again
		}
	}
	return start != nil && *start == onTrue
}

// gatesAttempt reports whether guard g is in force at a kept attempt
// too, made before the exit (if refresh { err := op(); if err != nil &&
// n <= 0 { return } }): it gates the attempt as much as the exit.
func (e *engineLoop) gatesAttempt(g engineGuard) bool {
	for _, a := range e.kept {
		if slices.ContainsFunc(e.guards(a.Call.Block()), func(o engineGuard) bool { return o.at == g.at && o.neg == g.neg }) {
			return true
		}
	}
	return false
}

// inCond reports whether cond is part of the for statement's condition.
func (e *engineLoop) inCond(cond ast.Expr) bool {
	f, ok := e.r.loop.(*ast.ForStmt)
	return ok && f.Cond != nil && in(f.Cond, cond.Pos())
}

// counted adjusts the cap c that the counter comparison cond gives: an exit in the body after the attempt (first)
// sees the pass's number before the post statement steps it, and a for
// condition's counter may start above 0.
func (e *engineLoop) counted(c Cap, cond ast.Expr, first token.Pos) Cap {
	if c.Kind != CapKnown {
		return c
	}
	if e.inCond(cond) {
		if k, ok := e.r.counterStart(cond); ok {
			c.N = max(c.N-int(k), 1)
		}
	} else if first.IsValid() && first < cond.Pos() && e.r.postCounted(cond) {
		c.N++ // for n := 0; ; n++ { op(); if n >= 2 { return } }: 3 attempts
	}
	return c
}

// engineGuard is a guard of a block: the condition of the If ending
// block at, and whether the block is on its false edge.
type engineGuard struct {
	guard
	at *ssa.BasicBlock
}

// guards returns the conditions of the loop's branches that decide
// whether a pass reaches block b, with whether b is on their false edge:
// each If of the loop above b in the dominator tree, up to the header,
// one of whose edges leads to b and the other cannot, in the same pass.
func (e *engineLoop) guards(b *ssa.BasicBlock) []engineGuard {
	var out []engineGuard
	for d := b; d != e.l.Header; {
		p := d.Idom()
		if p == nil || !e.l.Contains(p) {
			break
		}
		if ifi, ok := last(p).(*ssa.If); ok {
			t, f := e.reaches(p.Succs[0], b), e.reaches(p.Succs[1], b)
			if c := e.condition(ifi.Cond); c != nil && t != f {
				out = append(out, engineGuard{guard{cond: c, neg: f}, p})
			}
		}
		d = p
	}
	return out
}

// reaches reports whether b is reached from from in the same pass: not
// through a back edge.
func (e *engineLoop) reaches(from, b *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{from}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x == b {
			return true
		}
		if seen[x] || !e.l.Contains(x) {
			continue
		}
		seen[x] = true
		for _, s := range x.Succs {
			if !e.l.IsBack(flow.Edge{From: x, To: s}) {
				stack = append(stack, s)
			}
		}
	}
	return false
}

// selectCases returns the communications of the select cases by which
// the loop leaves when cond, a test of a select's chosen index (the
// builder's idx == k), is taken (when true is set) or not: case k, or
// every case after it, since the tests of those are outside the loop;
// false when cond is no such test.
func (e *engineLoop) selectCases(cond ssa.Value, taken bool) ([]ast.Stmt, bool) {
	b, ok := cond.(*ssa.BinOp)
	if !ok || b.Op != token.EQL {
		return nil, false
	}
	x, ok := b.X.(*ssa.Extract)
	k, kok := b.Y.(*ssa.Const)
	if !ok || !kok || x.Index != 0 || k.Value == nil {
		return nil, false
	}
	sel, ok := x.Tuple.(*ssa.Select)
	if !ok {
		return nil, false
	}
	idx, ok := constant.Int64Val(k.Value)
	stmt := e.selectStmt(sel.Pos())
	if !ok || stmt == nil {
		return nil, false
	}
	var out []ast.Stmt
	i := int64(0)
	for _, c := range stmt.Body.List {
		cc := c.(*ast.CommClause)
		if cc.Comm == nil {
			continue // default is the index -1
		}
		if i == idx && taken || i > idx && !taken {
			out = append(out, cc.Comm)
		}
		i++
	}
	return out, true
}

// selectStmt returns the select statement at pos in the loop's function.
func (e *engineLoop) selectStmt(pos token.Pos) *ast.SelectStmt {
	var found *ast.SelectStmt
	ast.Inspect(funcSyntax(e.l.Fn), func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectStmt); ok && s.Select == pos {
			found = s
		}
		return found == nil
	})
	return found
}

// last returns the last instruction of b.
func last(b *ssa.BasicBlock) ssa.Instruction {
	if len(b.Instrs) == 0 {
		return nil
	}
	return b.Instrs[len(b.Instrs)-1]
}

// funcSyntax returns the *ast.FuncDecl or *ast.FuncLit of fn, or of the
// function whose range-over-func statement fn is the yield closure of.
func funcSyntax(fn *ssa.Function) ast.Node {
	for ; fn != nil; fn = fn.Parent() {
		switch n := fn.Syntax().(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return n
		}
	}
	return nil
}

// outerSyntax returns the outermost function holding fn, for the def
// index: a declaration, or a literal of a package-level initialiser.
func outerSyntax(fn *ssa.Function) ast.Node {
	var out ast.Node
	for ; fn != nil; fn = fn.Parent() {
		switch n := fn.Syntax().(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			out = n
		}
	}
	return out
}

// enclosingBlock returns the innermost block of root whose list holds st.
func enclosingBlock(root ast.Node, st ast.Stmt) *ast.BlockStmt {
	var found *ast.BlockStmt
	ast.Inspect(root, func(n ast.Node) bool {
		if b, ok := n.(*ast.BlockStmt); ok && slices.Contains(b.List, st) {
			found = b
		}
		return found == nil
	})
	return found
}

// enclosingStmt returns the statement of a block of root that holds n.
func enclosingStmt(root ast.Node, n ast.Node) ast.Stmt {
	var found ast.Stmt
	ast.Inspect(root, func(x ast.Node) bool {
		if b, ok := x.(*ast.BlockStmt); ok {
			for _, st := range b.List {
				if st.Pos() <= n.Pos() && n.End() <= st.End() {
					found = st
				}
			}
		}
		return true
	})
	return found
}

// loops adds the package's loop scopes, read from the flow engine (h),
// when the package may have a loop (mayLoop); a package the engine cannot
// build (type errors) has none.
func (m *model) loops(h *flow.Handle) {
	if !m.mayLoop {
		return
	}
	p := h.Get()
	if p == nil {
		return
	}
	for _, s := range m.engineScopes(p) {
		m.res.add(s)
	}
}

// loopMayAttempt reports whether loop (a for or range statement) calls,
// outside function literals, something with an error result: a flow
// engine's attempt is such a call (flow.Fallible) in the loop's blocks,
// so a loop with none has no attempt and needs no SSA build.
func loopMayAttempt(info *types.Info, loop ast.Node) bool {
	found := false
	astq.InspectOwn(loop, func(n ast.Node) bool {
		if found {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		t := info.TypeOf(call)
		if tup, ok := t.(*types.Tuple); ok && tup.Len() > 0 {
			t = tup.At(tup.Len() - 1).Type()
		}
		found = t != nil && isError(t)
		return !found
	})
	return found
}

// mayRepeat reports whether fn (a *ast.FuncDecl or *ast.FuncLit whose
// body is body) may start a pass again other than by a for or range
// statement: a goto, a call of the function itself (through one of its
// literals too), or a time.AfterFunc that may reschedule it. The flow
// engine's Cycles and goto loops are the exact answer; this only says
// whether asking is worth a build.
func mayRepeat(info *types.Info, fn ast.Node, body *ast.BlockStmt) bool {
	if body == nil {
		return false
	}
	var self types.Object
	if fd, ok := fn.(*ast.FuncDecl); ok {
		self = info.Defs[fd.Name]
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.BranchStmt:
			found = n.Tok == token.GOTO
		case *ast.CallExpr:
			callee := typeutil.Callee(info, n)
			fn, _ := callee.(*types.Func)
			found = callee != nil && (callee == self || fn != nil && names.IsFull(fn, "time.AfterFunc"))
		}
		return !found
	})
	return found
}

// Retries that are not for loops: a label jumped back to with goto
// (RETRY: ...; goto RETRY), and a function that calls itself again after a
// failure (return c.fetch(ctx, attempts-1)). The model reads each as a
// loop of its own: a synthetic *ast.ForStmt whose body is the statements
// from the label to the end of its block (or the function's body), where
// the goto or the recursive return starts the next pass, as continue
// would, and falling off the end leaves.

// jump says how a synthetic loop starts its next pass.
type jump struct {
	label string                   // goto label
	recur map[*ast.ReturnStmt]bool // recursive returns
	fn    *types.Func              // the function that calls itself
	// resched are the statements that schedule the function again after a
	// wait, by the time.AfterFunc call in each (reschedule).
	resched map[ast.Stmt]*ast.CallExpr
	// steps are the local closures through which the function calls
	// itself (sarama's retry := func(err error) error { ...; time.Sleep(d);
	// return client.tryRefreshMetadata(...) }, returned as retry(err)):
	// their waits are the loop's, and the guard of their recursive call
	// bounds it.
	steps []*ast.FuncLit
}

// stepCap returns the bound of a recursion through step closures: the
// condition of an if around a step's recursive call that mentions an
// integer parameter of the function (if attemptsRemaining > 0 {...}); a
// bound the model does not know otherwise.
func (m *model) stepCap(j *jump) Cap {
	params := j.fn.Signature().Params()
	for _, lit := range j.steps {
		var c *Cap
		var stack []*ast.IfStmt
		var visit func(n ast.Node) bool
		visit = func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.IfStmt:
				stack = append(stack, n)
				ast.Inspect(n.Body, visit)
				stack = stack[:len(stack)-1]
				if n.Else != nil {
					ast.Inspect(n.Else, visit)
				}
				return false
			case *ast.CallExpr:
				if m.callee(n) != j.fn {
					return true
				}
				for _, ifst := range stack {
					for i := range params.Len() {
						if p := params.At(i); isInteger(p.Type()) && mentionsIn(m.info, ifst.Cond, p) {
							c = &Cap{Kind: CapBounded, Pos: ifst.Cond.Pos()}
						}
					}
				}
			}
			return c == nil
		}
		ast.Inspect(lit.Body, visit)
		if c != nil {
			return *c
		}
	}
	return Cap{Kind: CapUnknown}
}
