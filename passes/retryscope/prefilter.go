package retryscope

import (
	"go/ast"
	"go/token"
	"maps"
	"slices"
	"strings"

	"github.com/idemlint/idemlint/internal/prefilter"
	"github.com/idemlint/idemlint/passes/internal/astq"
)

// A LoopFilter tells, from a package's syntax alone, which of its loops
// might be retry loops that wait between attempts (Loop scopes whose
// Waits are not WaitNone). It over-approximates loop and loopWaits: a
// false answer means no such scope.
type LoopFilter struct {
	// helpers are the names of the functions and methods, of the package
	// or of its dependencies, that may wait when called (waitFact): the
	// package's are found by waitHelper, to a fixed point.
	helpers map[string]bool
	// iterators are the functions and methods of the package that may
	// return an attempt iterator (see waitingIterator).
	iterators map[string]bool
	// typeNames are the package's type names: an unqualified call by one
	// is a conversion (or the call of a local variable), never the call
	// of a function.
	typeNames map[string]bool
	// shadowed are the names of builtin functions that the package
	// declares somewhere (a variable, parameter, function or type): only
	// an unshadowed builtin is surely no attempt.
	shadowed map[string]bool
}

// builtins are the builtin functions: they return no error, so a call of
// one is no attempt.
var builtins = map[string]bool{
	"append": true, "cap": true, "clear": true, "close": true, "complex": true, "copy": true, "delete": true,
	"imag": true, "len": true, "make": true, "max": true, "min": true, "new": true, "panic": true, "print": true,
	"println": true, "real": true, "recover": true,
}

// LexiconMayWait reports, from a package's tokens alone, whether some loop
// of it may be one that LoopFilter.MayWait accepts: the package has a for
// loop and nil, and either a call by the name of a time function other
// than (*time.Timer).Reset (a loop of any file may call a wait helper that
// calls one, or range over an attempt iterator), or a file with a for
// loop and a select, a receive or a call by a name with a blocking word:
// the wait of a loop that calls no helper stands in the loop's own file.
func LexiconMayWait(lex *prefilter.Lexicon) bool {
	if !lex.For || !lex.Nil {
		return false
	}
	if slices.ContainsFunc(waitNames, func(name string) bool { return name != "Reset" && lex.Calls[name] }) {
		return true
	}
	if len(lex.Files) == 0 {
		return lexiconBlocks(lex)
	}
	return slices.ContainsFunc(lex.Files, func(f *prefilter.Lexicon) bool { return f.For && lexiconBlocks(f) })
}

// lexiconBlocks reports whether lex has a select, a receive or a call by a
// name with a blocking word.
func lexiconBlocks(lex *prefilter.Lexicon) bool {
	if lex.Select || lex.Arrow {
		return true
	}
	for name := range lex.Calls {
		lower := strings.ToLower(name)
		for _, w := range waitWords {
			if strings.Contains(lower, w) {
				return true
			}
		}
	}
	return false
}

// loopFilterKey is the key of a package's LoopFilter among its prefilter
// memos.
type loopFilterKey struct{}

// LoopFilterOf returns the LoopFilter of the prefilter's package, whose
// files are files (p.Syntax's), made once for every prefilter that asks;
// it knows the wait helpers of p's dependencies by their facts' names.
func LoopFilterOf(p *prefilter.Package, files []*ast.File) *LoopFilter {
	return p.Memo(loopFilterKey{}, func() any { return NewLoopFilter(files, depWaiters(p)) }).(*LoopFilter)
}

// depWaiters returns the names of the functions of p's dependencies that
// have a wait summary (waitFact): a call of one, by name, may wait.
func depWaiters(p *prefilter.Package) map[string]bool {
	if p.FactNames == nil {
		return nil
	}
	names, _ := p.FactNames(new(waitFact))
	return names
}

// LexiconCallsWaiter reports whether the package of lex, with a for loop
// and nil, calls by name a function of a dependency that waits (a
// waitFact's): a loop of it may wait through that function, which
// LexiconMayWait and LexiconMayOwnWait, reading the package's tokens
// alone, do not see.
func LexiconCallsWaiter(p *prefilter.Package, lex *prefilter.Lexicon) bool {
	if !lex.For || !lex.Nil {
		return false
	}
	for name := range depWaiters(p) {
		if lex.Calls[name] {
			return true
		}
	}
	return false
}

// mayExportWaits reports whether the package of lex may export a wait
// summary (waitFact): it calls a time function that waits or a wait
// helper of a dependency, by name, and an exported function of it may be
// a wait helper (LoopFilter's helpers).
func mayExportWaits(p *prefilter.Package, lex *prefilter.Lexicon) bool {
	deps := depWaiters(p)
	calls := false
	for name := range lex.Calls {
		calls = calls || name != "Reset" && slices.Contains(waitNames, name) || deps[name]
	}
	if !calls {
		return false
	}
	files, err := p.Syntax()
	if err != nil {
		return true
	}
	lf := LoopFilterOf(p, files)
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && fd.Name.IsExported() && lf.helpers[fd.Name.Name] {
				return true
			}
		}
	}
	return false
}

// LexiconMayOwnWait is LexiconMayWait for loops that MayOwnWait accepts
// (and jump backs, which need a wait of their own too): the package has a
// for loop, nil, and a call by the name of a time function that waits (a
// wait helper calls one too), where (*time.Timer).Reset counts only with a
// receive (mayOwnWait's rule: generated protobuf messages all have a Reset
// method, and no receive).
func LexiconMayOwnWait(lex *prefilter.Lexicon) bool {
	return lex.For && lex.Nil && slices.ContainsFunc(waitNames, func(name string) bool {
		return lex.Calls[name] && (name != "Reset" || lex.Arrow)
	})
}

// NewLoopFilter reads the helpers and type names of the package of files;
// deps are the names of its dependencies' wait helpers (depWaiters).
func NewLoopFilter(files []*ast.File, deps map[string]bool) *LoopFilter {
	lf := &LoopFilter{helpers: maps.Clone(deps), iterators: make(map[string]bool), typeNames: make(map[string]bool), shadowed: make(map[string]bool)}
	var bodies []*ast.FuncDecl
	declare := func(id *ast.Ident) {
		if id != nil && builtins[id.Name] {
			lf.shadowed[id.Name] = true
		}
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if n.Tok == token.DEFINE {
					for _, l := range n.Lhs {
						if id, ok := l.(*ast.Ident); ok {
							declare(id)
						}
					}
				}
			case *ast.ValueSpec:
				for _, id := range n.Names {
					declare(id)
				}
			case *ast.Field:
				for _, id := range n.Names {
					declare(id)
				}
			case *ast.FuncDecl:
				declare(n.Name)
			case *ast.TypeSpec:
				declare(n.Name)
			}
			return true
		})
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				if d.Tok == token.TYPE {
					for _, spec := range d.Specs {
						lf.typeNames[spec.(*ast.TypeSpec).Name.Name] = true
					}
				}
			case *ast.FuncDecl:
				if d.Body != nil {
					bodies = append(bodies, d)
				}
			}
		}
	}
	if lf.helpers == nil {
		lf.helpers = make(map[string]bool)
	}
	// The wait helpers, and the helpers that wait through one of them, to
	// a fixed point: the syntax's over-approximation of the wait
	// summaries (waitsum.go), which need types. Names only grow.
	for changed := true; changed; {
		changed = false
		for _, d := range bodies {
			if !lf.helpers[d.Name.Name] && lf.waitHelper(d.Body) {
				lf.helpers[d.Name.Name] = true
				changed = true
			}
		}
	}
	for _, f := range files {
		for _, d := range f.Decls {
			if d, ok := d.(*ast.FuncDecl); ok && d.Body != nil && lf.waitingIterator(d.Body) {
				lf.iterators[d.Name.Name] = true
			}
		}
	}
	return lf
}

// waitingIterator reports whether a function with body may return an
// attempt iterator (iterators.go): a function literal it returns calls,
// by name, a time function other than (*time.Timer).Reset or a helper
// that does.
func (lf *LoopFilter) waitingIterator(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		ret, ok := n.(*ast.ReturnStmt)
		if found || !ok || len(ret.Results) != 1 {
			return !found
		}
		lit, ok := ast.Unparen(ret.Results[0]).(*ast.FuncLit)
		if !ok {
			return true
		}
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				name := prefilter.CallName(c)
				if name != "Reset" && slices.Contains(waitNames, name) || lf.helpers[name] {
					found = true
				}
			}
			return !found
		})
		return !found
	})
	return found
}

// rangesIterator reports whether a range over x may range over an attempt
// iterator: a call of a function that may return one, or a variable when
// the package has such a function.
func (lf *LoopFilter) rangesIterator(x ast.Expr) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.CallExpr:
		return lf.iterators[prefilter.CallName(x)]
	case *ast.Ident:
		return len(lf.iterators) > 0
	}
	return false
}

// MayWait reports whether loop (a *ast.ForStmt or *ast.RangeStmt) might be
// a retry loop that waits: it is no range with a value variable (only a
// range over an integer counts attempts, and an integer has no value
// variable); it has the shape of an attempt (retryShape); and its body,
// outside function literals, holds a select, a receive, or a call by a
// name that waitCall could take for a wait (a time function, a helper that
// calls one) or that has one of the blocking words.
func (lf *LoopFilter) MayWait(loop ast.Stmt) bool {
	body, iterator := lf.attemptLoop(loop)
	return iterator || body != nil && lf.mayWaitIn(body)
}

// MayOwnWait is MayWait for a loop that waits with a wait of its own
// (ownWait: a wait call, not only a select, a receive or a blocking word,
// which block the loop): its body calls, by name, a time function or a
// wait helper of the package, or it ranges over an attempt iterator. The
// model exports a helper fact only for such a loop.
func (lf *LoopFilter) MayOwnWait(loop ast.Stmt) bool {
	body, iterator := lf.attemptLoop(loop)
	return iterator || body != nil && lf.mayOwnWait(body)
}

// attemptLoop returns the body of loop (a *ast.ForStmt or *ast.RangeStmt)
// when it may be a retry loop: no range with a value variable (only a
// range over an integer counts attempts, and an integer has no value
// variable) or over a literal, and the shape of an attempt (retryShape);
// nil otherwise. iterator reports a range over an attempt iterator, which
// waits between its attempts.
func (lf *LoopFilter) attemptLoop(loop ast.Stmt) (body *ast.BlockStmt, iterator bool) {
	switch l := loop.(type) {
	case *ast.ForStmt:
		body = l.Body
	case *ast.RangeStmt:
		if l.Value != nil {
			return nil, false
		}
		if _, ok := ast.Unparen(l.X).(*ast.CompositeLit); ok {
			return nil, false
		}
		body = l.Body
	default:
		return nil, false
	}
	if body == nil || len(body.List) == 0 || !lf.retryShape(loop) {
		return nil, false
	}
	if l, ok := loop.(*ast.RangeStmt); ok && lf.rangesIterator(l.X) {
		return body, true
	}
	return body, false
}

// mayWaitIn reports whether body, outside function literals, holds a
// select, a receive, or a call by a name that waitCall could take for a
// wait (a time function, a helper that calls one) or that has one of the
// blocking words.
func (lf *LoopFilter) mayWaitIn(body *ast.BlockStmt) bool {
	return astq.Find(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectStmt:
			return true
		case *ast.UnaryExpr:
			return n.Op == token.ARROW
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && lf.typeNames[id.Name] {
				return false
			}
			// (*time.Timer).Reset waits only in a loop that receives
			// from the timer: a receive, found by itself.
			name := prefilter.CallName(n)
			if name != "Reset" && slices.Contains(waitNames, name) || lf.helpers[name] {
				return true
			}
			lower := strings.ToLower(name)
			return slices.ContainsFunc(waitWords, func(w string) bool { return strings.Contains(lower, w) })
		}
		return false
	})
}

// mayOwnWait reports whether body, function literals included, calls by
// name a time function that waitCall takes for a wait, or a helper of the
// package that calls one (waitHelper): what ownWait needs of a jump back
// or a loop. (*time.Timer).Reset waits only where the timer is received
// from: a Reset counts with a receive. A call by a blocking word or a
// select blocks the loop (a wait of the body, WaitUnknown), which is not a
// wait of its own.
func (lf *LoopFilter) mayOwnWait(body *ast.BlockStmt) bool {
	found, reset, receive := false, false, false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			switch name := prefilter.CallName(n); {
			case name == "Reset":
				reset = true
			case slices.Contains(waitNames, name) || lf.helpers[name]:
				found = true
			}
		case *ast.UnaryExpr:
			receive = receive || n.Op == token.ARROW
		}
		return !found
	})
	return found || reset && receive
}

// waitHelper reports whether a function with body may be a helper that
// waitCall takes for a wait (helperCalls): one of the calls helperCalls
// visits is of a time function other than (*time.Timer).Reset, or of a
// wait helper found so far, by name.
func (lf *LoopFilter) waitHelper(body *ast.BlockStmt) bool {
	found := false
	helperCalls(body, func(n *ast.CallExpr) bool {
		name := prefilter.CallName(n)
		found = name != "Reset" && slices.Contains(waitNames, name) || lf.helpers[name]
		return found
	})
	return found
}

// retryShape reports whether loop has what loop needs to find a retry:
// a variable assigned from a call in it (outside function literals; no
// conversion or builtin, see mayAttempt) that it compares with nil (==, != or a switch on it with a nil case), where
// the assignment is no attempt that fails every time (deadAttempt), or a
// call it compares with nil in place, or such a variable passed to a call
// or read for its StatusCode in a condition (a predicate exit). Every
// success exit of an attempt is implied by one of these.
func (lf *LoopFilter) retryShape(loop ast.Stmt) bool {
	isCall := lf.mayAttempt
	// The variables assigned from calls, each with its assignments that
	// may be live attempts.
	live := make(map[string]bool)
	assign := func(lhs []ast.Expr, rhs []ast.Expr, dead func(string) bool) {
		for i, l := range lhs {
			var r ast.Expr
			switch {
			case len(rhs) == len(lhs):
				r = rhs[i]
			case len(rhs) == 1:
				r = rhs[0]
			}
			if id, ok := ast.Unparen(l).(*ast.Ident); ok && r != nil && isCall(r) && !dead(id.Name) {
				live[id.Name] = true
			}
		}
	}
	never := func(string) bool { return false }
	astq.InspectOwn(loop, func(n ast.Node) bool {
		list, _ := astq.StmtList(n)
		switch n := n.(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
		case *ast.IfStmt:
			if as, ok := n.Init.(*ast.AssignStmt); ok {
				assign(as.Lhs, as.Rhs, func(name string) bool { return failsAlways(n, name) })
			}
			return true
		case *ast.ForStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt:
			// their init and post statements are no block's
			var init, post ast.Stmt
			switch n := n.(type) {
			case *ast.ForStmt:
				init, post = n.Init, n.Post
			case *ast.SwitchStmt:
				init = n.Init
			case *ast.TypeSwitchStmt:
				init = n.Init
			}
			for _, st := range []ast.Stmt{init, post} {
				if as, ok := st.(*ast.AssignStmt); ok {
					assign(as.Lhs, as.Rhs, never)
				}
			}
			return true
		default:
			return true
		}
		for i, st := range list {
			var next *ast.IfStmt
			if i+1 < len(list) {
				next, _ = list[i+1].(*ast.IfStmt)
			}
			for {
				l, ok := st.(*ast.LabeledStmt)
				if !ok {
					break
				}
				st = l.Stmt
			}
			dead := func(name string) bool { return next != nil && next.Init == nil && failsAlways(next, name) }
			switch st := st.(type) {
			case *ast.AssignStmt:
				assign(st.Lhs, st.Rhs, dead)
			case *ast.DeclStmt:
				if gd, ok := st.Decl.(*ast.GenDecl); ok {
					for _, spec := range gd.Specs {
						if vs, ok := spec.(*ast.ValueSpec); ok {
							names := make([]ast.Expr, len(vs.Names))
							for j, id := range vs.Names {
								names[j] = id
							}
							assign(names, vs.Values, dead)
						}
					}
				}
			}
		}
		return true
	})
	found := false
	// predicate reports whether a condition may test an attempt's results
	// with a predicate call or a status code (predicateExit).
	predicate := func(cond ast.Expr) bool {
		hit := false
		astq.InspectOwn(cond, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				for _, a := range n.Args {
					if id, ok := ast.Unparen(a).(*ast.Ident); ok && live[id.Name] {
						hit = true
					}
				}
			case *ast.SelectorExpr:
				if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && live[id.Name] && n.Sel.Name == "StatusCode" {
					hit = true
				}
			}
			return !hit
		})
		return hit
	}
	ast.Inspect(loop, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt:
			if predicate(n.Cond) {
				found = true
			}
			// if !retry { return err }, if last || !again { break }: a
			// bool result of the attempt, or of a predicate on it
			if boolOperand(n.Cond, live) {
				found = true
			}
		case *ast.ForStmt:
			// for errors.Is(err, errBusy) && n < max { ... }
			if n.Cond != nil && predicate(n.Cond) {
				found = true
			}
		case *ast.BinaryExpr:
			if n.Op != token.EQL && n.Op != token.NEQ {
				break
			}
			for _, pair := range [][2]ast.Expr{{n.X, n.Y}, {n.Y, n.X}} {
				if !isNilIdent(pair[1]) {
					continue
				}
				if id, ok := ast.Unparen(pair[0]).(*ast.Ident); ok && live[id.Name] || isCall(pair[0]) {
					found = true
				}
			}
		case *ast.SwitchStmt:
			if n.Tag != nil && predicate(n.Tag) {
				found = true
			}
			for _, c := range n.Body.List {
				for _, e := range c.(*ast.CaseClause).List {
					if n.Tag == nil && predicate(e) {
						found = true
					}
				}
			}
			id, ok := ast.Unparen(n.Tag).(*ast.Ident)
			if n.Tag == nil || !ok || !live[id.Name] {
				break
			}
			for _, c := range n.Body.List {
				for _, e := range c.(*ast.CaseClause).List {
					if isNilIdent(e) {
						found = true
					}
				}
			}
		}
		return !found
	})
	return found
}

// failsAlways reports whether st, an if statement that follows an
// assignment of the variable name (or holds it in its init), makes the
// attempt an exit on every failure, which loop never takes for a retry
// (failExit): its condition is "name != nil" and its body is plain
// statements and a return.
func failsAlways(st *ast.IfStmt, name string) bool {
	bin, ok := ast.Unparen(st.Cond).(*ast.BinaryExpr)
	if !ok || bin.Op != token.NEQ || len(st.Body.List) == 0 {
		return false
	}
	x, y := ast.Unparen(bin.X), ast.Unparen(bin.Y)
	if isNilIdent(x) {
		x, y = y, x
	}
	id, ok := x.(*ast.Ident)
	if !ok || id.Name != name || !isNilIdent(y) {
		return false
	}
	// Only plain statements before the return: a branch among them (if
	// temporary(err) { continue }) adds a guard, and the attempt retries.
	body := st.Body.List
	for _, s := range body[:len(body)-1] {
		switch s.(type) {
		case *ast.ExprStmt, *ast.AssignStmt, *ast.DeclStmt, *ast.IncDecStmt:
		default:
			return false
		}
	}
	_, ret := body[len(body)-1].(*ast.ReturnStmt)
	return ret
}

// mayAttempt reports whether e may be a call that loop takes for an
// attempt: a call, but no conversion to a type literal or, unqualified,
// to a type of the package, and no call of an unshadowed builtin (none
// returns an error).
func (lf *LoopFilter) mayAttempt(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		return !lf.typeNames[fun.Name] && !(builtins[fun.Name] && !lf.shadowed[fun.Name])
	case *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.InterfaceType, *ast.StructType:
		return false // a conversion
	}
	return true
}

func isNilIdent(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && id.Name == "nil"
}

// boolOperand reports whether cond is, or has as an operand of !, && or
// ||, a variable of live.
func boolOperand(cond ast.Expr, live map[string]bool) bool {
	switch c := ast.Unparen(cond).(type) {
	case *ast.Ident:
		return live[c.Name]
	case *ast.UnaryExpr:
		return c.Op == token.NOT && boolOperand(c.X, live)
	case *ast.BinaryExpr:
		return (c.Op == token.LOR || c.Op == token.LAND) && (boolOperand(c.X, live) || boolOperand(c.Y, live))
	}
	return false
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
