package flow

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/passes/internal/names"
)

// A Test says what a loop's decision to start the next pass reads of an
// attempt's results.
type Test int

const (
	// ErrNil is a comparison of the call's error with nil (Outcome).
	ErrNil Test = iota
	// ErrTest reads the error another way: errors.Is or errors.As, a
	// comparison with a sentinel, a bool-returning helper given the error.
	ErrTest
	// Predicate is a bool-returning call given the call's other results
	// (shouldRetry(req, res)).
	Predicate
	// BoolResult is the call's own bool result (again, err := f()).
	BoolResult
	// ResultTest is a comparison or type assertion on the call's other
	// results (res.StatusCode != 503, r.(*failed)): a failed result.
	ResultTest
)

func (t Test) String() string {
	switch t {
	case ErrNil:
		return "err-nil"
	case ErrTest:
		return "err-test"
	case Predicate:
		return "predicate"
	case BoolResult:
		return "bool-result"
	case ResultTest:
		return "result-test"
	}
	return "?"
}

// An Attempt is a fallible call of a loop (one with an error result) whose
// results decide whether the pass goes on to the next one: a branch that
// reads them has one edge that reaches a back edge of the loop (Again) and
// one that does not (Leave).
type Attempt struct {
	Call *ssa.Call
	Test Test
	// If is the branch that decides: of the loop's branches on the call's
	// results with one edge that repeats and one that does not, the first
	// in block order that does not repeat on success, else the first; for
	// an ErrNil whose failure edge repeats, the If of Outcome.
	If           *ssa.If
	Again, Leave Edge
	// OnSuccess is true when the pass repeats when the call succeeded: the
	// success edge of an ErrNil test, or the false edge of errors.Is or
	// errors.As (which hold only for a non-nil error), is Again.
	OnSuccess bool
	// Pred is the bool-returning call the decision goes through (Predicate,
	// ErrTest through a helper), nil when there is none.
	Pred *ssa.Call
}

// Attempts returns the loop's attempts, in block order: each call with an
// error result whose failure edge leads to the next pass (Outcome,
// Repeats), or, when it has no such edge, whose results decide the next
// pass through errors.Is or errors.As, a predicate, a bool result or a
// comparison (decision). A call whose results decide nothing is no
// attempt, nor is the attempt of a loop inside l (innerAttempt).
func (l *Loop) Attempts() []*Attempt {
	var out []*Attempt
	for _, b := range l.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || !Fallible(call) || call == l.site {
				continue
			}
			if in := l.innerAttempt(call); in != nil {
				if a := l.afterInner(in, call); a != nil {
					out = append(out, a)
				}
				continue
			}
			if a := l.attempt(call); a != nil {
				out = append(out, a)
			}
		}
	}
	return out
}

// innerAttempt reports whether call is the attempt of a loop inside l:
// its failure starts that loop's next pass (not on success), and reaches
// l's only through that loop's entry, once the inner loop ends (a scan
// that skips what it cannot decode, inside a loop that reconnects); a
// range over items is no such loop (Loop.Items). A
// failure that also goes straight to l's next pass (a labelled continue,
// a goto to a label inside l) is l's attempt too. It returns that loop,
// nil when call is no inner loop's attempt.
func (l *Loop) innerAttempt(call *ssa.Call) *Loop {
	if l.forest == nil {
		return nil
	}
	for in := l.forest.Of(call.Block()); in != nil && in != l; in = in.Parent {
		if in.Items {
			continue // a round over items: the loop around it retries the round (olivere's startupHealthcheck)
		}
		a := in.attempt(call)
		if a == nil || a.OnSuccess {
			continue
		}
		entry := func(b *ssa.BasicBlock) bool { return slices.Contains(in.Entries, b) }
		if !l.RepeatsAvoiding(a.Again, entry) {
			return in
		}
	}
	return nil
}

// afterInner returns l's attempt of call, the attempt of the inner loop
// in, when l retries what the inner loop ended with: the error, carried
// out of in by the phis it flows into, is compared with nil in l past in,
// and its failure edge there leads to l's next pass (a retry loop inside
// a retry loop; nestedretry reads both). nil when l does not test it.
func (l *Loop) afterInner(in *Loop, call *ssa.Call) *Attempt {
	var first *ssa.If
	var isNil bool
	for _, v := range phisOf(ErrorResult(call)) {
		for _, r := range *v.Referrers() {
			cmp, ok := r.(*ssa.BinOp)
			if !ok || !nilCompare(cmp) {
				continue
			}
			for _, u := range *cmp.Referrers() {
				ifi, ok := u.(*ssa.If)
				if !ok || !l.Contains(ifi.Block()) || in.Contains(ifi.Block()) {
					continue
				}
				switch {
				case first == nil || ifi.Block().Dominates(first.Block()):
					first, isNil = ifi, cmp.Op == token.EQL
				case !first.Block().Dominates(ifi.Block()):
					return nil // tests that do not dominate one another
				}
			}
		}
	}
	if first == nil {
		return nil
	}
	b := first.Block()
	fail, ok := Edge{b, b.Succs[0]}, Edge{b, b.Succs[1]}
	if isNil {
		fail, ok = ok, fail
	}
	if !l.Repeats(fail) {
		return nil
	}
	return &Attempt{Call: call, Test: ErrNil, If: first, Again: fail, Leave: ok}
}

func (l *Loop) attempt(call *ssa.Call) *Attempt {
	if fail, ok, found := Outcome(call); found {
		if l.repeats(fail, nil, successes(call, fail)) { // RepeatsOnFailure
			return &Attempt{Call: call, Test: ErrNil, If: last(fail.From).(*ssa.If), Again: fail, Leave: ok}
		}
	}
	return l.decision(call)
}

// RepeatsOnFailure reports whether a pass in which call fails can go on to
// the loop's next pass: Repeats from the failure edge of its error's nil
// test (Outcome), past which the later nil tests of the same error take
// their failure edge. found is false when Outcome finds no test.
func (l *Loop) RepeatsOnFailure(call *ssa.Call) (repeats, found bool) {
	fail, _, found := Outcome(call)
	if !found {
		return false, false
	}
	return l.repeats(fail, nil, successes(call, fail)), true
}

// successes returns a test of the edges a failure of call does not take
// past fail: the success edges of the later comparisons of the same error
// value with nil (if err == nil && ... { continue }; if err != nil {
// return }: the failure returns).
func successes(call *ssa.Call, fail Edge) func(Edge) bool {
	ok := make(map[Edge]bool)
	for _, v := range errValues(ErrorResult(call)) {
		for _, r := range *v.Referrers() {
			cmp, isCmp := r.(*ssa.BinOp)
			if !isCmp || !nilCompare(cmp) {
				continue
			}
			for _, u := range *cmp.Referrers() {
				ifi, isIf := u.(*ssa.If)
				if !isIf || ifi.Block() == fail.From {
					continue
				}
				b := ifi.Block()
				if cmp.Op == token.EQL {
					ok[Edge{b, b.Succs[0]}] = true
				} else {
					ok[Edge{b, b.Succs[1]}] = true
				}
			}
		}
	}
	return func(e Edge) bool { return ok[e] }
}

// taint is how a value depends on an attempt's results.
type taint struct {
	fromErr bool      // it reads the error result
	direct  bool      // it is one of the call's results, unchanged
	pred    *ssa.Call // the bool-returning call it went through
}

// decision follows call's results through the loop's values (extracts,
// operators, fields, type assertions, phis, local cells, calls given them)
// to the branches that have one edge that repeats and one that does not:
// the first, in block order, that does not repeat on success (a failed
// result tested after an err == nil), else the first.
func (l *Loop) decision(call *ssa.Call) *Attempt {
	seen := make(map[ssa.Value]taint)
	var work []ssa.Value
	add := func(v ssa.Value, t taint) {
		if _, ok := seen[v]; ok || v == nil {
			return
		}
		seen[v] = t
		work = append(work, v)
	}
	if tup, ok := call.Type().(*types.Tuple); ok {
		for _, r := range *call.Referrers() {
			if ex, ok := r.(*ssa.Extract); ok {
				add(ex, taint{fromErr: ex.Index == tup.Len()-1, direct: true})
			}
		}
	} else {
		add(call, taint{fromErr: true, direct: true})
	}
	var best *Attempt
	for len(work) > 0 {
		v := work[0]
		work = work[1:]
		t := seen[v]
		t.direct = false
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			if r.Block() == nil || !l.Contains(r.Block()) {
				continue
			}
			switch r := r.(type) {
			case *ssa.If:
				if a := l.decide(call, r, seen[v], v); a != nil && better(a, best) {
					best = a
				}
			case *ssa.BinOp, *ssa.UnOp, *ssa.FieldAddr, *ssa.Field, *ssa.IndexAddr, *ssa.Index,
				*ssa.TypeAssert, *ssa.ChangeType, *ssa.ChangeInterface, *ssa.MakeInterface, *ssa.Convert,
				*ssa.Slice, *ssa.Extract, *ssa.Phi:
				add(r.(ssa.Value), t)
			case *ssa.Store:
				if r.Val != v {
					continue
				}
				if cell, ok := r.Addr.(*ssa.Alloc); ok {
					for _, u := range *cell.Referrers() {
						if load, ok := u.(*ssa.UnOp); ok && isLoadOf(load, cell) {
							add(load, t)
						}
					}
				}
			case *ssa.Call:
				if !returnsBool(r) {
					continue
				}
				pt := taint{fromErr: t.fromErr, pred: r}
				if _, isTup := r.Type().(*types.Tuple); isTup {
					for _, u := range *r.Referrers() {
						if ex, ok := u.(*ssa.Extract); ok {
							add(ex, pt)
						}
					}
				} else {
					add(r, pt)
				}
			}
		}
	}
	return best
}

// decide returns the attempt that branch ifi on cond (a value that reads
// call's results as t says) makes, or nil when both its edges repeat or
// neither does.
func (l *Loop) decide(call *ssa.Call, ifi *ssa.If, t taint, cond ssa.Value) *Attempt {
	b := ifi.Block()
	tEdge, fEdge := Edge{b, b.Succs[0]}, Edge{b, b.Succs[1]}
	rt, rf := l.Repeats(tEdge), l.Repeats(fEdge)
	if rt == rf {
		return nil
	}
	a := &Attempt{Call: call, If: ifi, Pred: t.pred, Again: tEdge, Leave: fEdge}
	if rf {
		a.Again, a.Leave = fEdge, tEdge
	}
	switch {
	case t.fromErr && t.pred == nil && nilCompare(cond):
		a.Test = ErrNil
		// err != nil true, or err == nil false, is the failure
		fail := tEdge
		if cond.(*ssa.BinOp).Op == token.EQL {
			fail = fEdge
		}
		a.OnSuccess = a.Again != fail
	case t.fromErr:
		a.Test = ErrTest
		// errors.Is and errors.As are false for a nil error too: a pass
		// that repeats on their false edge repeats on success
		if IsErrorsIsAs(t.pred) {
			a.OnSuccess = (cond == ssa.Value(t.pred) && rf) || (isNot(cond, t.pred) && rt)
		}
	case t.pred != nil:
		a.Test = Predicate
	case t.direct:
		a.Test = BoolResult
	default:
		a.Test = ResultTest
	}
	return a
}

func nilCompare(v ssa.Value) bool {
	cmp, ok := v.(*ssa.BinOp)
	return ok && (cmp.Op == token.EQL || cmp.Op == token.NEQ) && (isNilConst(cmp.X) || isNilConst(cmp.Y))
}

func isNot(v ssa.Value, x ssa.Value) bool {
	u, ok := v.(*ssa.UnOp)
	return ok && u.Op == token.NOT && u.X == x
}

// IsErrorsIsAs reports whether call is errors.Is or errors.As: true only
// for a non-nil error.
func IsErrorsIsAs(call *ssa.Call) bool {
	if call == nil {
		return false
	}
	fn := call.Call.StaticCallee()
	if fn == nil {
		return false
	}
	obj, _ := fn.Object().(*types.Func)
	return obj != nil && names.IsFull(obj, "errors.Is", "errors.As")
}

// returnsBool reports whether call returns a bool, alone or with other
// results.
func returnsBool(call *ssa.Call) bool {
	res := call.Call.Signature().Results()
	for v := range res.Variables() {
		if b, ok := v.Type().Underlying().(*types.Basic); ok && b.Kind() == types.Bool {
			return true
		}
	}
	return false
}

// better reports whether decision a is to be preferred to best: a pass
// that repeats on a failure (or a failed result, tested after a success)
// over one that repeats on success, then the first in block order.
func better(a, best *Attempt) bool {
	if best == nil {
		return true
	}
	if a.OnSuccess != best.OnSuccess {
		return !a.OnSuccess
	}
	return before(a.If, best.If)
}

// before reports whether instruction a comes before b in their function's
// block order.
func before(a, b ssa.Instruction) bool {
	if a.Block() != b.Block() {
		return a.Block().Index < b.Block().Index
	}
	return true
}
