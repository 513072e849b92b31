package retryscope

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// Retries in loops that repeat on success too, beyond failureRetry's
// if err != nil { wait; continue } (issue 19, shape 6 of
// testdata/recall/README.md): the failure's wait can come after the branch
// that tells success from failure, or at the top of the next pass.

// failureTail returns the code by which a loop whose success path
// continues retries a failure at the end of the pass: after the attempt,
// at the top level of the body, an if err == nil { ...; continue }, or a
// tagless switch whose case err == nil: continues, so that the rest of the
// pass runs only after a failure, waits, and falls through to the next
// pass (kafka-go's consumer group: the default case sets backoff =
// time.After(d), received at the end of the pass). The block returned holds
// that statement and the rest of the body; nil when there is none, when the
// pass waits before it or on success, or when the attempt moves on.
func (w *loopWalk) failureTail() *ast.BlockStmt {
	list := w.body.List
	for j, st := range list {
		var succ []ast.Stmt
		var conds []ast.Expr
		switch st := st.(type) {
		case *ast.IfStmt:
			if st.Else != nil || st.Init != nil {
				continue
			}
			succ, conds = st.Body.List, []ast.Expr{st.Cond}
		case *ast.SwitchStmt:
			if st.Tag != nil || st.Init != nil {
				continue
			}
			for _, c := range st.Body.List {
				cc := c.(*ast.CaseClause)
				if len(cc.List) == 1 && w.nilOfAttempt(cc.List[0]) != nil {
					succ, conds = cc.Body, cc.List
				}
			}
		default:
			continue
		}
		if len(conds) == 0 || len(succ) == 0 {
			continue
		}
		br, ok := succ[len(succ)-1].(*ast.BranchStmt)
		if !ok || !slices.Contains(w.contNodes, br) {
			continue
		}
		e := w.nilOfAttempt(conds[0])
		if e == nil {
			continue
		}
		at := reaching(w.attemptDefs(e), st.Pos())
		if at.call == nil || at.pos > st.Pos() || at.depth != 0 || w.m.readsInput(at.call) {
			continue
		}
		tail := &ast.BlockStmt{Lbrace: st.Pos(), List: list[j:], Rbrace: w.body.Rbrace}
		if w.changesOnFailure(at.call, tail) {
			continue
		}
		if w.waitsIn(list[:j]) || w.waitsIn(succ) || !w.waitsIn(list[j:]) {
			continue
		}
		w.failAt, w.failErr = at, e
		return tail
	}
	return nil
}

// nilOfAttempt returns the error variable of the loop (not a wait's) that
// cond holding implies is nil, or nil.
func (w *loopWalk) nilOfAttempt(cond ast.Expr) types.Object {
	for e := range w.errs {
		if _, ok := w.waitErr[e]; ok {
			continue
		}
		if impliesNil(w.m.info, guard{cond: cond}, e) {
			return e
		}
	}
	return nil
}

// failureNext returns the wait by which a loop whose failure branch
// continues at once retries the failure: the pass starts, before the
// attempt, with a wait that a counter of consecutive failures gates or
// sizes, and the pass resets that counter after the branch, on success
// (kafka-go's reader: if attempt != 0 { sleep(ctx, backoff(attempt, min,
// max)) }; ...; if err != nil { ...; continue }; attempt = 0). The block
// returned holds the statements before the attempt; nil when there is no
// such wait, or when the loop waits after the attempt too.
func (w *loopWalk) failureNext() *ast.BlockStmt {
	list := w.body.List
	for e := range w.errs {
		if _, ok := w.waitErr[e]; ok {
			continue
		}
		for _, at := range w.attemptDefs(e) {
			if at.depth != 0 || w.m.readsInput(at.call) {
				continue
			}
			a := slices.IndexFunc(list, func(st ast.Stmt) bool { return in(st, at.pos-1) })
			if a <= 0 {
				continue
			}
			// the failure branch: if err != nil { ...; continue }, with no
			// wait of its own
			b := -1
			start := a + 1
			if ifst, ok := list[a].(*ast.IfStmt); ok && ifst.Init != nil && in(ifst.Init, at.pos-1) {
				start = a // if err := op(); err != nil { ...; continue }
			}
			for i := start; i < len(list); i++ {
				ifst, ok := list[i].(*ast.IfStmt)
				if !ok || ifst.Else != nil || !impliesNonNil(w.m.info, guard{cond: ifst.Cond}, e) {
					continue
				}
				if n := len(ifst.Body.List); n > 0 {
					if br, ok := ifst.Body.List[n-1].(*ast.BranchStmt); ok && slices.Contains(w.contNodes, br) {
						b = i
					}
				}
				break
			}
			if b < 0 || w.waitsIn(list[a:]) || !w.waitsIn(list[:a]) {
				continue
			}
			pre := &ast.BlockStmt{Lbrace: list[0].Pos(), List: list[:a], Rbrace: list[a-1].End()}
			if w.changesOnFailure(at.call, w.body.List[b].(*ast.IfStmt)) {
				continue
			}
			for o := range w.counts {
				if mentionsIn(w.m.info, pre, o) && w.resetIn(o, list[b+1:]) {
					w.failAt, w.failErr = at, e
					return pre
				}
			}
		}
	}
	return nil
}

// resetIn reports whether a top-level statement of list sets counter o
// to a constant (attempt = 0).
func (w *loopWalk) resetIn(o types.Object, list []ast.Stmt) bool {
	for _, st := range list {
		as, ok := st.(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
			continue
		}
		for i, l := range as.Lhs {
			if w.obj(l) == o {
				if tv, ok := w.m.info.Types[as.Rhs[i]]; ok && tv.Value != nil {
					return true
				}
			}
		}
	}
	return false
}

// waitsIn reports whether list calls a wait, outside function literals and
// outside nested loops that wait (they pace themselves, as loopWaits
// reads them).
func (w *loopWalk) waitsIn(list []ast.Stmt) bool {
	found := false
	for _, st := range list {
		astq.InspectOwn(st, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ForStmt:
				if hasWaitCall(w.m, w.di, n.Body) {
					return false
				}
			case *ast.CallExpr:
				if w.m.waitCall(w.di, n) != nil {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

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

// failureSignal returns the code by which a loop that serves a channel
// retries a failed attempt by signalling itself: the attempt's failure
// branch sends on a channel field (directly or through a helper of the
// package: sarama's child.triggerRedispatch()), which a select case of
// the loop receives; that case waits, or arms a timer that the case of the
// attempt receives (sarama's partition consumer: case <-child.trigger:
// backoff = time.After(child.computeBackoff()); case <-backoff: err :=
// child.dispatch()). It returns the body of the receiving case, whose waits
// are the retry's; nil when there is no such signal.
func (w *loopWalk) failureSignal() *ast.BlockStmt {
	info := w.m.info
	// the select cases of the loop's own selects that receive from a
	// channel field, by the field
	recv := map[*types.Var]*ast.CommClause{}
	for _, st := range w.body.List {
		sel, ok := st.(*ast.SelectStmt)
		if !ok {
			continue
		}
		for _, c := range sel.Body.List {
			cc := c.(*ast.CommClause)
			if f := w.m.fieldOf(recvChan(cc.Comm)); f != nil {
				recv[f] = cc
			}
		}
	}
	if len(recv) == 0 {
		return nil
	}
	for e := range w.errs {
		if _, ok := w.waitErr[e]; ok {
			continue
		}
		for _, at := range w.attemptDefs(e) {
			if w.m.readsInput(at.call) {
				continue
			}
			for _, br := range w.failureBranches(e, at) {
				var trig *ast.CommClause
				for _, f := range w.signals(br) {
					if recv[f] != nil {
						trig = recv[f]
					}
				}
				if trig == nil || !w.waitsIn(trig.Body) {
					continue
				}
				body := &ast.BlockStmt{Lbrace: trig.Colon, List: trig.Body, Rbrace: trig.End()}
				if in(body, at.pos-1) {
					// case <-trigger: wait; err := op(): the wait comes
					// before the attempt in the case
					w.failAt, w.failErr = at, e
					return body
				}
				// case <-timer: err := op(), where the trigger's case
				// armed timer = time.After(d)
				att := w.clauseOf(at.pos - 1)
				if att == nil {
					continue
				}
				id, ok := ast.Unparen(recvChan(att.Comm)).(*ast.Ident)
				if !ok {
					continue
				}
				t := info.Uses[id]
				for _, d := range w.di.defs[t] {
					if call, ok := ast.Unparen(d.rhs).(*ast.CallExpr); ok && in(body, d.pos-1) && w.m.waitCall(w.di, call) != nil {
						w.failAt, w.failErr = at, e
						return body
					}
				}
			}
		}
	}
	return nil
}

// recvChan returns the channel a select case receives from (<-ch, v :=
// <-ch, v, ok = <-ch), or nil.
func recvChan(comm ast.Stmt) ast.Expr {
	if u := recvExpr(comm); u != nil {
		return u.X
	}
	return nil
}

// clauseOf returns the select case of the loop's top-level selects whose
// body holds pos, or nil.
func (w *loopWalk) clauseOf(pos token.Pos) *ast.CommClause {
	for _, st := range w.body.List {
		if sel, ok := st.(*ast.SelectStmt); ok {
			for _, c := range sel.Body.List {
				cc := c.(*ast.CommClause)
				if len(cc.Body) > 0 && cc.Body[0].Pos() <= pos && pos < cc.End() {
					return cc
				}
			}
		}
	}
	return nil
}

// failureBranches returns the bodies of the ifs on "e != nil" that follow
// attempt at (in its if statement, or after it in the same list).
func (w *loopWalk) failureBranches(e types.Object, at attemptDef) []*ast.BlockStmt {
	var out []*ast.BlockStmt
	astq.InspectOwn(w.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt:
			if n.Pos() < at.pos && at.pos <= n.Body.Pos() || n.Pos() >= at.pos {
				if impliesNonNil(w.m.info, guard{cond: n.Cond}, e) && reaching(w.attemptDefs(e), n.Body.Pos()).pos == at.pos {
					out = append(out, n.Body)
				}
			}
		}
		return true
	})
	return out
}

// signals returns the channel fields that block sends on, directly or
// through a call of a function of the package with no loop of its own
// (child.triggerRedispatch()).
func (w *loopWalk) signals(block *ast.BlockStmt) []*types.Var {
	var out []*types.Var
	var look func(n ast.Node, depth int)
	look = func(n ast.Node, depth int) {
		astq.InspectOwn(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SendStmt:
				if f := w.m.fieldOf(n.Chan); f != nil {
					out = append(out, f)
				}
			case *ast.CallExpr:
				if depth > 1 {
					return true
				}
				if fn := w.m.callee(n); fn != nil && fn.Pkg() == w.m.pass.Pkg {
					if decl := w.m.funcs[fn]; decl != nil && !hasLoop(decl.Body) {
						look(decl.Body, depth+1)
					}
				}
			}
			return true
		})
	}
	look(block, 0)
	return out
}

// hasLoop reports whether body has a for or range statement, outside
// function literals.
func hasLoop(body *ast.BlockStmt) bool {
	found := false
	astq.InspectOwn(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			found = true
		}
		return !found
	})
	return found
}

// succeedsPast reports whether exit x of a recursion retry (jumps.go) is
// reached only when attempt at, made under a condition, succeeded: x
// comes after the if that holds the attempt, under fewer guards, and the
// attempt is followed in its list by if e != nil { ... } whose body always
// leaves the pass (sarama's retryJoinSync: if refreshCoordinator { err :=
// c.client.RefreshCoordinator(id); if err != nil { ...; return
// c.retryJoinSync(...) } }; return c.joinSync(...)). A pass that skips the
// attempt leaves there too; one that makes it retries its failure.
func (w *loopWalk) succeedsPast(x exit, e types.Object, at attemptDef) bool {
	if w.jump == nil || (w.jump.fn == nil && len(w.jump.resched) == 0) || at.call == nil || len(x.guards) >= at.depth || x.node.Pos() < at.pos {
		return false
	}
	// failed reports whether ifst is taken on every failure and starts the
	// next pass: if err != nil { ...; reschedule or recur }, with no else.
	failed := func(ifst *ast.IfStmt) bool {
		if ifst.Else != nil || ifst.End() > x.node.Pos() || !w.leaves(ifst.Body.List, false, false) {
			return false
		}
		b, ok := ast.Unparen(ifst.Cond).(*ast.BinaryExpr)
		return ok && b.Op == token.NEQ && isNilCompare(w.m.info, b, isVar(w.m.info, e))
	}
	return astq.Search(w.body, func(n ast.Node, found *bool) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		}
		list, ok := astq.StmtList(n)
		if !ok {
			return true
		}
		for i, st := range list {
			// the attempt in the if's own init: if err := send(); err != nil
			if ifst, ok := st.(*ast.IfStmt); ok && ifst.Init != nil && in(ifst.Init, at.pos) && failed(ifst) {
				*found = true
			}
			if !in(st, at.pos-1) || i+1 >= len(list) {
				continue
			}
			// the attempt in the statement before it
			if ifst, ok := list[i+1].(*ast.IfStmt); ok && failed(ifst) {
				*found = true
			}
		}
		return !*found
	})
}
