package flow

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/passes/internal/names"
)

// Cycles returns the cycles of the package's call graph that start again
// from fn: each call of fn that calls fn itself, directly or through one
// of fn's own function literals (Recursion), or that schedules fn with
// time.AfterFunc (Reschedule). Each is a Loop whose Header is fn's entry,
// whose Blocks are the blocks from which the call is reached, whose one
// back edge leaves the call's block (To nil: the call starts the next
// pass) and whose Syntax is the call expression. Its Attempts are the
// fallible calls of the pass that decide whether the call is reached
// within one pass of each loop of fn that does not hold the call: a
// failure that goes on to that loop's next pass, and reaches the call
// once the loop ends, is another attempt's.
func (p *Package) Cycles(fn *ssa.Function) []*Loop {
	var out []*Loop
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			kind, ok := selfCall(fn, call)
			if !ok {
				continue
			}
			l := cycleLoop(kind, fn, call)
			l.Syntax = callSyntax(fn, call)
			l.site = call
			for _, inner := range p.Loops(fn).Loops {
				if !inner.Contains(call.Block()) {
					l.blocked = append(l.blocked, inner.Back...)
				}
			}
			l.exits()
			out = append(out, l)
		}
	}
	return out
}

// selfCall reports whether call, in fn, calls fn again, and how.
func selfCall(fn *ssa.Function, call *ssa.Call) (LoopKind, bool) {
	callee := call.Call.StaticCallee()
	if callee == nil {
		return 0, false
	}
	if callee == fn {
		return Recursion, true
	}
	if callee.Parent() == fn && calls(callee, fn) {
		return Recursion, true
	}
	if obj, _ := callee.Object().(*types.Func); obj != nil && names.IsFull(obj, "time.AfterFunc") &&
		len(call.Call.Args) == 2 && funcOf(call.Call.Args[1]) == fn {
		return Reschedule, true
	}
	return 0, false
}

// calls reports whether fn holds a call of target.
func calls(fn, target *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok && c.Common().StaticCallee() == target {
				return true
			}
		}
	}
	return false
}

// funcOf returns the function v holds: a function, a closure of one, a
// bound method (the method), or the closure stored in the variable v
// loads, captured or local; nil when it is none of these.
func funcOf(v ssa.Value) *ssa.Function {
	switch v := v.(type) {
	case *ssa.Function:
		return v
	case *ssa.MakeClosure:
		fn, _ := v.Fn.(*ssa.Function)
		if fn != nil && fn.Synthetic != "" && fn.Object() != nil {
			// a bound method's wrapper stands for the method
			if m, ok := fn.Object().(*types.Func); ok && fn.Prog != nil {
				if f := fn.Prog.FuncValue(m); f != nil {
					return f
				}
			}
		}
		return fn
	case *ssa.UnOp:
		return funcOf(storedIn(v.X))
	}
	return nil
}

// storedIn returns the one value stored in the cell addr (a local Alloc,
// or a captured one through its FreeVar); nil when there is not exactly
// one.
func storedIn(addr ssa.Value) ssa.Value {
	if fv, ok := addr.(*ssa.FreeVar); ok {
		addr = binding(fv)
	}
	cell, ok := addr.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var val ssa.Value
	for _, r := range *cell.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Addr == ssa.Value(cell) {
			if val != nil {
				return nil
			}
			val = st.Val
		}
	}
	return val
}

// binding returns the value the enclosing function binds to fv.
func binding(fv *ssa.FreeVar) ssa.Value {
	fn := fv.Parent()
	i := -1
	for j, f := range fn.FreeVars {
		if f == fv {
			i = j
		}
	}
	if i < 0 || fn.Parent() == nil {
		return nil
	}
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == ssa.Value(fn) && i < len(mc.Bindings) {
				return mc.Bindings[i]
			}
		}
	}
	return nil
}

// cycleLoop returns the loop of fn whose next pass is started by call:
// the blocks from which call's block is reached.
func cycleLoop(kind LoopKind, fn *ssa.Function, call *ssa.Call) *Loop {
	in := make([]bool, len(fn.Blocks))
	reachers(in, call.Block())
	l := newLoop(kind, fn, in)
	l.Header = fn.Blocks[0]
	l.Entries = []*ssa.BasicBlock{l.Header}
	l.Back = []Edge{{From: call.Block()}}
	return l
}

// callSyntax returns the call expression of call in fn's syntax.
func callSyntax(fn *ssa.Function, call *ssa.Call) ast.Node {
	syn := fn.Syntax()
	if syn == nil {
		return nil
	}
	lparen := call.Call.Pos()
	var found ast.Node
	ast.Inspect(syn, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		if ce, ok := n.(*ast.CallExpr); ok && ce.Lparen == lparen {
			found = ce
		}
		return true
	})
	return found
}
