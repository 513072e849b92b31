package retryscope

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

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

// jumps adds the scopes of the goto and recursion retries of fn, a
// function whose body is body.
func (m *model) jumps(di *defIndex, fn ast.Node, body *ast.BlockStmt) {
	if body == nil {
		return
	}
	// goto: a label of a statement list that a goto after it jumps back to.
	astq.InspectOwn(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return false // a goto within a loop's body: the loop is the retry
		}
		list, ok := astq.StmtList(n)
		if !ok {
			return true
		}
		for i, st := range list {
			ls, ok := st.(*ast.LabeledStmt)
			if !ok {
				continue
			}
			switch ls.Stmt.(type) {
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				continue // a label for break and continue
			}
			rest := append([]ast.Stmt{ls.Stmt}, list[i+1:]...)
			if !gotoIn(rest, ls.Label.Name) {
				continue
			}
			m.synthetic(di, fn, ls.Pos(), rest, &jump{label: ls.Label.Name})
		}
		return true
	})
	m.reschedule(di, fn, body)
	// recursion: return f(...) in f, with arguments that carry the
	// parameters over (n, n+1, attempts-1, constants).
	fd, ok := fn.(*ast.FuncDecl)
	if !ok {
		return
	}
	self, ok := m.info.Defs[fd.Name].(*types.Func)
	if !ok {
		return
	}
	recur := map[*ast.ReturnStmt]bool{}
	steps := m.recurSteps(di, fd, self, body)
	var used []*ast.FuncLit
	var first token.Pos
	astq.InspectOwn(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				call, ok := ast.Unparen(r).(*ast.CallExpr)
				if !ok {
					continue
				}
				step := steps[rootObj(m.info, call.Fun)]
				if !m.selfCall(fd, self, call) && step == nil {
					continue
				}
				recur[n] = true
				if !first.IsValid() {
					first = call.Pos()
				}
				if step != nil && !slices.Contains(used, step) {
					used = append(used, step)
				}
			}
		}
		return true
	})
	if len(recur) == 0 {
		return
	}
	m.synthetic(di, fn, first, body.List, &jump{recur: recur, fn: self, steps: used})
}

// reschedule adds the scope of a function that schedules itself again
// after a wait: time.AfterFunc(d, c.attempt) in the method attempt, or
// time.AfterFunc(d, try) in the closure held by try (var try func();
// try = func() { if err := send(); err != nil { time.AfterFunc(d, try) } }).
// The statement holding the call starts the next pass, after d.
func (m *model) reschedule(di *defIndex, fn ast.Node, body *ast.BlockStmt) {
	resched := map[ast.Stmt]*ast.CallExpr{}
	var first token.Pos
	var self types.Object
	looked := false
	astq.InspectOwn(body, func(n ast.Node) bool {
		st, ok := n.(ast.Stmt)
		if !ok {
			return true
		}
		// time.AfterFunc(d, f), or t = time.AfterFunc(d, f)
		call, ok := ast.Unparen(astq.StmtExpr(st)).(*ast.CallExpr)
		if !ok || len(call.Args) != 2 {
			return true
		}
		if f := m.callee(call); f == nil || f.FullName() != "time.AfterFunc" {
			return true
		}
		if !looked {
			self, looked = m.selfObject(di, fn), true
		}
		if self != nil && rootObj(m.info, call.Args[1]) == self {
			resched[st] = call
			if !first.IsValid() {
				first = call.Pos()
			}
		}
		return true
	})
	if len(resched) > 0 {
		m.synthetic(di, fn, first, body.List, &jump{resched: resched})
	}
}

// selfObject is what code names fn by: the function or method a
// declaration declares, or the variable a function literal is assigned to
// (its only def in di).
func (m *model) selfObject(di *defIndex, fn ast.Node) types.Object {
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		return m.info.Defs[fn.Name]
	case *ast.FuncLit:
		for o, ds := range di.defs {
			for _, d := range ds {
				if d.rhs != nil && ast.Unparen(d.rhs) == fn {
					return o
				}
			}
		}
	}
	return nil
}

// recurSteps returns the local closures of fd, each assigned once, that
// return a call of fd again (selfCall) after a wait: retry := func(err
// error) error { if n > 0 { time.Sleep(d); n--; return c.f(n) }; return err },
// by the variable that holds each.
func (m *model) recurSteps(di *defIndex, fd *ast.FuncDecl, self *types.Func, body *ast.BlockStmt) map[types.Object]*ast.FuncLit {
	steps := map[types.Object]*ast.FuncLit{}
	for _, st := range body.List {
		as, ok := st.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			continue
		}
		lit, ok := ast.Unparen(as.Rhs[0]).(*ast.FuncLit)
		if !ok {
			continue
		}
		id, ok := as.Lhs[0].(*ast.Ident)
		if !ok {
			continue
		}
		o := m.info.Defs[id]
		if o == nil || len(di.defs[o]) != 1 {
			continue
		}
		calls := astq.Find(lit.Body, func(n ast.Node) bool {
			r, ok := n.(*ast.ReturnStmt)
			return ok && slices.ContainsFunc(r.Results, func(e ast.Expr) bool {
				call, ok := ast.Unparen(e).(*ast.CallExpr)
				return ok && m.selfCall(fd, self, call)
			})
		})
		if calls && hasWaitCall(m, di, lit.Body) {
			steps[o] = lit
		}
	}
	return steps
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

// selfCall reports whether call calls self again with arguments that
// carry its parameters over: each is a parameter, a parameter plus or
// minus a constant, or a constant. A walk of a tree (f(n.Left)) or of a
// list passes something else.
func (m *model) selfCall(fd *ast.FuncDecl, self *types.Func, call *ast.CallExpr) bool {
	if m.callee(call) != self {
		return false
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		// a method: on the same receiver
		if fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
			return false
		}
		id, ok := ast.Unparen(sel.X).(*ast.Ident)
		if !ok || m.info.Uses[id] != m.info.Defs[fd.Recv.List[0].Names[0]] {
			return false
		}
	}
	params := self.Signature().Params()
	isParam := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return false
		}
		for i := range params.Len() {
			if m.info.Uses[id] == params.At(i) {
				return true
			}
		}
		return false
	}
	for _, a := range call.Args {
		if tv, ok := m.info.Types[a]; ok && tv.Value != nil {
			continue
		}
		if isParam(a) {
			continue
		}
		if b, ok := ast.Unparen(a).(*ast.BinaryExpr); ok && (b.Op == token.ADD || b.Op == token.SUB) && isParam(b.X) {
			if tv, ok := m.info.Types[b.Y]; ok && tv.Value != nil {
				continue
			}
		}
		return false
	}
	return true
}

// gotoIn reports whether a goto label statement is in list, outside
// function literals.
func gotoIn(list []ast.Stmt, label string) bool {
	return slices.ContainsFunc(list, func(st ast.Stmt) bool {
		return astq.Find(st, func(n ast.Node) bool {
			b, ok := n.(*ast.BranchStmt)
			return ok && b.Tok == token.GOTO && b.Label != nil && b.Label.Name == label
		})
	})
}

// synthetic reads list as the body of a loop whose next pass j starts,
// and adds its scope, reported at pos, when it retries.
func (m *model) synthetic(di *defIndex, fn ast.Node, pos token.Pos, list []ast.Stmt, j *jump) {
	if len(list) == 0 {
		return
	}
	end := list[len(list)-1].End()
	stmts := append([]ast.Stmt(nil), list...)
	if _, ok := list[len(list)-1].(*ast.ReturnStmt); !ok {
		// Falling off the end of the list leaves the loop (a list that
		// ends in a return, recursive or not, cannot fall off it).
		stmts = append(stmts, &ast.ReturnStmt{Return: end - 1})
	}
	start := list[0].Pos()
	if pos < start {
		start = pos // the label
	}
	loop := &ast.ForStmt{For: start, Body: &ast.BlockStmt{Lbrace: start, List: stmts, Rbrace: end - 1}}
	if m.jumpOf == nil {
		m.jumpOf = make(map[ast.Stmt]*jump)
	}
	m.jumpOf[loop] = j
	s := m.loop(di, fn, loop)
	if s == nil {
		return
	}
	if j.fn != nil && s.Cap.Kind == CapKnown {
		// the counter starts where the caller's argument says
		s.Cap = Cap{Kind: CapBounded, Pos: s.Cap.Pos}
	}
	if !ownWait(s.Waits) {
		return // a jump back with no wait of its own is a state machine more often than a retry
	}
	s.Pos = pos // the label, the recursive call, or the rescheduling
	s.NotFor = true
	s.jump = j
	m.res.add(s)
}

// MayJumpBack reports, from syntax alone, whether the model may find a
// retry in fd that is not a for loop: a call of AfterFunc (reschedule), or
// a goto (jumps) or a return of a call by fd's own name (a recursion) in
// a body that may wait (mayOwnWait: synthetic takes a jump back with no
// wait of its own for no retry). A prefilter that looks for retry loops
// must also take these.
func (lf *LoopFilter) MayJumpBack(fd *ast.FuncDecl) bool {
	if fd.Body == nil {
		return false
	}
	jump, resched := false, false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return true // a goto in a closure is a synthetic loop of the closure
		case *ast.BranchStmt:
			if n.Tok == token.GOTO {
				jump = true
			}
		case *ast.CallExpr:
			// time.AfterFunc(d, self): a rescheduling (reschedule)
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "AfterFunc" && len(n.Args) == 2 {
				resched = true
			}
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				if call, ok := ast.Unparen(r).(*ast.CallExpr); ok {
					switch f := ast.Unparen(call.Fun).(type) {
					case *ast.Ident:
						jump = jump || f.Name == fd.Name.Name
					case *ast.SelectorExpr:
						jump = jump || f.Sel.Name == fd.Name.Name
					}
				}
			}
		}
		return !resched
	})
	return resched || jump && lf.mayOwnWait(fd.Body)
}
