package retryscope

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// everyMethodPolicies lists, per client library, its stock retry policies
// that decide on the error and the status alone, the same for every
// request method: retryablehttp's DefaultRetryPolicy and
// ErrorPropagatedRetryPolicy retry connection errors, 429 and 5xx, POST
// as well as GET.
var everyMethodPolicies = map[string][]string{
	retryable: {"DefaultRetryPolicy", "ErrorPropagatedRetryPolicy"},
}

// EveryMethodPolicy reports whether fn is a stock retry policy of a client
// library that retries every request method alike (everyMethodPolicies).
func EveryMethodPolicy(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || fn.Signature().Recv() != nil {
		return false
	}
	return slices.Contains(everyMethodPolicies[fn.Pkg().Path()], fn.Name())
}

// A loopPolicy is a precision policy of hand-written loops: a named rule,
// over what the loop walk already knows of a scope (its exits and loop
// condition, the attempts it retries, its waits and bounds), by which a
// loop that reads as a retry is not one. loop applies every policy to the
// scope it would return, once its waits and bounds are known.
type loopPolicy struct {
	name     string
	notRetry func(w *loopWalk, s *Scope) bool
}

// loopPolicies are the precision policies of loops, in the order they are
// asked.
var loopPolicies = []loopPolicy{
	// A loop paced by a ticker, with no wait of its own, polls: the ticker
	// fires on schedule whether the last pass failed or not, so it is a
	// period, not a backoff. (A heartbeat loop that also sleeps or arms a
	// timer after a failure has backoffs of its own: it stays a retry.)
	{"ticker poll", func(w *loopWalk, s *Scope) bool { return w.m.receivesTicker(w.body) && !ownWait(s.Waits) }},
	// A loop that leaves only on a predicate of its attempt's results
	// retries when it waits between passes; without a wait of its own it
	// is more often a scan or a drain than a retry.
	{"predicate loop without a wait", func(w *loopWalk, s *Scope) bool { return w.byPredicate && !ownWait(s.Waits) }},
	// A loop that neither waits nor counts its attempts repeats a call
	// that consumes input (reads, scans, copies) far more often than it
	// retries: precision first.
	{"no wait and no count", func(w *loopWalk, s *Scope) bool {
		return len(s.Waits) == 1 && s.Waits[0].Kind == WaitNone && s.Cap.Kind != CapKnown && s.Cap.Kind != CapBounded
	}},
	// A worker, a poller, a subscription reader or a queue drainer: see
	// takesNextItem.
	{"next-item loop", func(w *loopWalk, s *Scope) bool { return w.takesNextItem() }},
}

// declined returns the name of the first precision policy by which s is
// no retry, or "".
func (w *loopWalk) declined(s *Scope) string {
	for _, p := range loopPolicies {
		if p.notRetry(w, s) {
			return p.name
		}
	}
	return ""
}

// takesNextItem reports whether the loop is a worker, a poller, a
// subscription reader or a queue drainer rather than a retry (issue 47):
// it never leaves on success (leavesOnlyOnStop), does not count its
// failures (countsFailures), and each attempt it retries takes the next
// item of a source (takesItem: j, err := q.Dequeue(ctx), msg, err :=
// sub.NextMsg(d)). Every pass takes an item and drops it once handled;
// the pass after a failure takes the next one, as the pass after a
// success does, so the failure branch's wait paces the source, it does
// not back off a retried call. A loop that leaves on
// success, or through a flag its success sets (the loop condition), stays
// a retry, and so does a reconnect loop: its attempt returns only an
// error (it connects), or opens what the pass then serves (a connection or
// session to close, a stream read in a loop of its own), or returns what
// the next attempt starts from (a member id, a revision).
func (w *loopWalk) takesNextItem() bool {
	type take struct {
		at attemptDef
		e  types.Object
	}
	var takes []take
	if w.failAt.call != nil {
		takes = append(takes, take{w.failAt, w.failErr})
	}
	for e := range w.retried {
		for _, at := range w.attemptDefs(e) {
			if w.retriedAt[at.pos] {
				takes = append(takes, take{at, e})
			}
		}
	}
	if len(takes) == 0 || w.countsFailures() {
		return false
	}
	fails := make(map[types.Object]bool)
	for _, t := range takes {
		fails[t.e] = true
	}
	if !w.leavesOnlyOnStop(fails) {
		return false
	}
	for _, t := range takes {
		if !w.takesItem(t.at, t.e) {
			return false
		}
	}
	return true
}

// leavesOnlyOnStop reports whether the loop never leaves on success: its
// condition, if any, tests only a context or a clock (for ctx.Err() ==
// nil) or never changes (for attempt := 0; true; attempt++), and each of
// its exits is taken on a stop (a guard on a context, a clock or a stop
// channel's case: <-ctx.Done(), errors.Is(err, context.Canceled)) or on a
// failure of a take (a guard under which one of the error variables fails
// is not nil). An exit on what follows a take's success, a callback's or
// a processing step's error included, leaves on success: a watch that
// ends when its callback says so.
func (w *loopWalk) leavesOnlyOnStop(fails map[types.Object]bool) bool {
	if w.cond != nil {
		for _, part := range conjuncts(w.cond) {
			if k, _, _ := w.condKind(part, true); k != condTime && k != condInvariant {
				return false
			}
		}
	}
	for _, x := range w.exits {
		if !w.stopExit(x) && !w.failureExit(x, fails) {
			return false
		}
	}
	return true
}

// stopExit reports whether a guard of exit x is a stop: a select case that
// is a deadline or a stop signal (commDeadline), or a condition that holds
// and one of whose disjuncts tests a context or a clock. (A test that
// does not hold, past if time.Since(last) > ttl { return }, says that the
// loop was not stopped.)
func (w *loopWalk) stopExit(x exit) bool {
	for _, g := range x.guards {
		if g.comm != nil {
			if _, ok := w.commDeadline(g.comm); ok {
				return true
			}
			continue
		}
		if g.neg {
			continue
		}
		for _, part := range disjuncts(g.cond) {
			if k, _, _ := w.condKind(part, false); k == condTime {
				return true
			}
		}
	}
	return false
}

// failureExit reports whether a guard of exit x says that one of the
// error variables fails is not nil.
func (w *loopWalk) failureExit(x exit, fails map[types.Object]bool) bool {
	for _, g := range x.guards {
		for e := range fails {
			if impliesNonNil(w.m.info, g, e) {
				return true
			}
		}
	}
	return false
}

// takesItem reports whether attempt at, assigning e, hands the pass an
// item: a result beside e that the pass works on and drops, and no result
// that it serves or carries over. A result whose type is closed (an
// io.Closer: a connection, a session), one that a call made in a loop
// nested in the body is given (a stream read until it breaks), or one
// that the attempt itself is given, directly or through a variable the
// loop assigns from it (the next attempt starts from it), makes the
// attempt a connect, not a take. An attempt that returns only its error,
// or whose results go to fields, takes nothing.
func (w *loopWalk) takesItem(at attemptDef, e types.Object) bool {
	item := false
	for o := range w.attemptResults(at, e) {
		if o == e {
			continue
		}
		if w.m.closable(o.Type()) || w.servedInLoop(o) || w.feedsAttempt(o, at.call) {
			return false
		}
		item = true
	}
	return item
}

// countsFailures reports whether the loop counts its consecutive failures:
// a counter of the loop that the body resets to a constant (attempt = 0,
// failures = 0 after a success), which sizes its backoff or caps it
// (kafka-go's reader.run). A loop that counts the failures of its take
// retries it, whatever it does on success.
func (w *loopWalk) countsFailures() bool {
	return astq.Search(w.body, func(n ast.Node, found *bool) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if n.Tok != token.ASSIGN || len(n.Lhs) != len(n.Rhs) {
				return true
			}
			for i, l := range n.Lhs {
				if o := w.obj(l); o != nil && w.counts[o] {
					if tv, ok := w.m.info.Types[n.Rhs[i]]; ok && tv.Value != nil {
						*found = true
					}
				}
			}
		}
		return true
	})
}

// closable reports whether t, or a pointer to it, implements io.Closer.
func (m *model) closable(t types.Type) bool {
	c := m.stdInterface("io", "Closer")
	if c == nil {
		return false
	}
	if types.Implements(t, c) {
		return true
	}
	_, isPtr := t.Underlying().(*types.Pointer)
	return !isPtr && !types.IsInterface(t) && types.Implements(types.NewPointer(t), c)
}

// servedInLoop reports whether a loop nested in the body (outside function
// literals) makes a call that can fail on o: o is its receiver or an
// argument (s.Recv(), r.read(ctx, offset, conn)).
func (w *loopWalk) servedInLoop(o types.Object) bool {
	return astq.Search(w.body, func(n ast.Node, found *bool) bool {
		var body *ast.BlockStmt
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt:
			body = n.Body
		case *ast.RangeStmt:
			body = n.Body
		default:
			return true
		}
		astq.InspectOwn(body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || *found || !attemptCall(w.m.info, call) {
				return !*found
			}
			operands := call.Args
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
				operands = append([]ast.Expr{sel.X}, operands...)
			}
			for _, a := range operands {
				if w.obj(a) == o {
					*found = true
				}
			}
			return !*found
		})
		return !*found
	})
}

// feedsAttempt reports whether call is given o, directly or through a
// local that the loop assigns from an expression mentioning o (offset =
// start; r.initialize(ctx, offset)).
func (w *loopWalk) feedsAttempt(o types.Object, call *ast.CallExpr) bool {
	return astq.Search(call, func(n ast.Node, found *bool) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		u := w.m.info.Uses[id]
		if u == o {
			*found = true
		} else if u != nil && local(u) {
			for _, d := range w.di.defs[u] {
				if in(w.loop, d.pos) && d.rhs != nil && mentionsIn(w.m.info, d.rhs, o) {
					*found = true
				}
			}
		}
		return !*found
	})
}
