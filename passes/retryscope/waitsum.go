package retryscope

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"sort"
)

// Wait summaries. A function waits for a retry that calls it when its job
// is to wait (helperCalls' rule: unconditionally, in its own top-level
// statements or a top-level select's communications, with no loop of its
// own) through a time function (waitCall's table) or a call of another
// function that waits. Each function's summary says whether it waits and
// how long: a kind fixed inside, combined with the kinds of the arguments
// a caller passes to the parameters the duration comes from. Summaries
// are computed once per package, to a fixed point over its functions (a
// helper of a helper to any depth, recursion included), and exported as
// waitFacts, so that a caller in another package knows the wait too.
//
// The rules of the summary:
//   - (*time.Timer).Reset is no wait of a helper: it waits only where the
//     timer is received from, and a helper's caller does not see it.
//   - A function that makes a timer (time.NewTimer) waits where it is
//     called, but a function that gets its timer from one (a pool's Get)
//     waits on it with other channels (a receive with a timeout: nats.go's
//     NextMsg) and is no wait: its first wait decides.

// waitFact is the wait summary of a function that waits when called. It
// is exported on the exported functions and methods that have one.
type waitFact struct {
	// Timer is set when the function's wait is a timer it makes and
	// hands out.
	Timer bool
	// Kind is the kind of the duration with the function's parameters
	// fixed.
	Kind WaitKind
	// Params are the indices of the parameters the duration comes from, in
	// order: a caller's arguments there are classified where it calls
	// (siteKind).
	Params []int
}

func (*waitFact) AFact() {}

func (f *waitFact) String() string {
	timer := ""
	if f.Timer {
		timer = " timer"
	}
	return fmt.Sprintf("waits%s %s, params %v", timer, f.Kind, f.Params)
}

func (f *waitFact) equal(g *waitFact) bool {
	if f == nil || g == nil {
		return f == g
	}
	return f.Timer == g.Timer && f.Kind == g.Kind && slices.Equal(f.Params, g.Params)
}

// waitSummary returns fn's wait summary, nil when a call of fn does not
// wait: for a function of this package the package's summaries (computed
// on the first call), for another's its fact.
func (m *model) waitSummary(fn *types.Func) *waitFact {
	if fn.Pkg() == nil {
		return nil
	}
	if fn.Pkg() != m.pass.Pkg {
		f := new(waitFact)
		if m.pass.ImportObjectFact(fn, f) {
			return f
		}
		return nil
	}
	if m.waitSums == nil {
		m.summariseWaits()
	}
	return m.waitSums[fn]
}

// summariseWaits computes the package's wait summaries: each function's
// from the calls helperCalls visits in it, with the summaries found so
// far, round after round until none changes. Every round sees at least
// the waits of the one before, one call deeper; the number of rounds is
// bounded by the number of functions, and a recursion that would change
// the answer for ever (a function whose first wait is its own timer) stops
// there.
func (m *model) summariseWaits() {
	m.waitSums = make(map[*types.Func]*waitFact)
	type candidate struct {
		fn    *types.Func
		decl  *ast.FuncDecl
		calls []*ast.CallExpr
	}
	var cands []candidate
	for _, f := range m.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, ok := m.info.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			var calls []*ast.CallExpr
			helperCalls(fd.Body, func(n *ast.CallExpr) bool {
				if callee := m.callee(n); callee != nil && callee.FullName() != "(*time.Timer).Reset" {
					calls = append(calls, n)
				}
				return false
			})
			if len(calls) > 0 {
				cands = append(cands, candidate{fn, fd, calls})
			}
		}
	}
	for range len(cands) + 1 {
		changed := false
		for _, c := range cands {
			s := m.summarise(c.fn, c.decl, c.calls)
			if !s.equal(m.waitSums[c.fn]) {
				changed = true
				if s == nil {
					delete(m.waitSums, c.fn)
				} else {
					m.waitSums[c.fn] = s
				}
			}
		}
		if !changed {
			break
		}
	}
}

// summarise returns the wait summary of fn, whose declaration is decl and
// whose calls helperCalls visits are calls, from the summaries known: its
// first call that waits decides.
func (m *model) summarise(fn *types.Func, decl *ast.FuncDecl, calls []*ast.CallExpr) *waitFact {
	for _, call := range calls {
		ws := m.waitCall(nil, call) // the def index only once a call waits
		if ws == nil {
			continue
		}
		if ws.sum != nil && ws.sum.Timer {
			return nil // a timer from a helper, waited on with other channels
		}
		di := m.defIndex(decl)
		ws.di = di
		sig := fn.Signature()
		params := make(map[types.Object]int, sig.Params().Len())
		for i := range sig.Params().Len() {
			params[sig.Params().At(i)] = i
		}
		c := &classifier{m: m, di: di, seen: map[types.Object]bool{}, params: params, reached: make(map[int]bool)}
		f := &waitFact{Timer: ws.sum == nil && ws.timer, Kind: m.siteKind(ws, c)}
		for i := range c.reached {
			f.Params = append(f.Params, i)
		}
		sort.Ints(f.Params)
		return f
	}
	return nil
}

// exportWaits computes the package's wait summaries, once, in the run
// (Result.Waits reads them later), and exports those of its exported
// functions and methods as facts.
func (m *model) exportWaits() {
	if m.waitSums == nil {
		m.summariseWaits()
	}
	if !exportsHelpers(m.pass.Pkg.Path(), m.fileName()) {
		return
	}
	for fn, decl := range m.funcs {
		if !ast.IsExported(decl.Name.Name) {
			continue
		}
		if s := m.waitSummary(fn); s != nil {
			m.pass.ExportObjectFact(fn, s)
		}
	}
}

// Waits reports whether a call of fn waits: fn is a function of the
// package or of a dependency whose wait summary says so (waitsum.go). It
// does not answer for the time functions and libraries that wait
// themselves.
func (r *Result) Waits(fn *types.Func) bool {
	return r.model.waitSummary(fn.Origin()) != nil
}

// depWaiters returns the names of the functions of the package's
// dependencies that have a wait summary (waitFact), as the prefilter sees
// them (depWaiters of a prefilter.Package).
func (m *model) depWaiters() map[string]bool {
	names := make(map[string]bool)
	for _, f := range m.pass.AllObjectFacts() {
		if _, ok := f.Fact.(*waitFact); ok && f.Object.Pkg() != m.pass.Pkg {
			names[f.Object.Name()] = true
		}
	}
	return names
}
