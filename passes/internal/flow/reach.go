package flow

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Repeats reports whether a pass that takes edge e can go on to the loop's
// next pass: a back edge of l is reached from e without leaving the loop.
func (l *Loop) Repeats(e Edge) bool { return l.RepeatsAvoiding(e, nil) }

// RepeatsAvoiding is Repeats over the paths that pass through no block
// avoid holds (avoid may be nil).
func (l *Loop) RepeatsAvoiding(e Edge, avoid func(*ssa.BasicBlock) bool) bool {
	return l.repeats(e, avoid, nil)
}

// repeats is RepeatsAvoiding that also takes no edge skip holds (skip may
// be nil).
func (l *Loop) repeats(e Edge, avoid func(*ssa.BasicBlock) bool, skip func(Edge) bool) bool {
	if l.IsBack(e) {
		return true
	}
	if e.To == nil || !l.Contains(e.To) {
		return false
	}
	seen := make([]bool, len(l.in))
	stack := []*ssa.BasicBlock{e.To}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b.Index] || (avoid != nil && avoid(b)) {
			continue
		}
		seen[b.Index] = true
		if l.Kind >= Yield && l.IsBack(Edge{From: b}) {
			return true
		}
		for _, s := range b.Succs {
			if slices.Contains(l.blocked, Edge{b, s}) || (skip != nil && skip(Edge{b, s})) {
				continue
			}
			if l.IsBack(Edge{b, s}) {
				return true
			}
			if l.in[s.Index] {
				stack = append(stack, s)
			}
		}
	}
	return false
}

var errorType = types.Universe.Lookup("error").Type()

// ErrorResult returns the value of call's error result (its last result,
// of type error): the call itself or the Extract of it; nil when the call
// has no error result or the result is never used.
func ErrorResult(call *ssa.Call) ssa.Value {
	switch t := call.Type().(type) {
	case *types.Tuple:
		if t.Len() == 0 || !types.Identical(t.At(t.Len()-1).Type(), errorType) {
			return nil
		}
		for _, r := range *call.Referrers() {
			if ex, ok := r.(*ssa.Extract); ok && ex.Index == t.Len()-1 {
				return ex
			}
		}
		return nil
	default:
		if types.Identical(t, errorType) {
			return call
		}
	}
	return nil
}

// Fallible reports whether call has an error result.
func Fallible(call *ssa.Call) bool {
	sig := call.Call.Signature()
	res := sig.Results()
	return res.Len() > 0 && types.Identical(res.At(res.Len()-1).Type(), errorType)
}

// Outcome returns the edges a pass takes after call when its error result
// is not nil (fail) and when it is (ok): the successors of the If that
// compares the error with nil. The error is followed to its comparison
// directly, through a variable's cell it is stored in and loaded from
// in the same block (a captured or address-taken variable), or, when it
// is not compared before, through the phis it flows into (a loop condition
// err != nil that tests the error of the pass before). found is false when
// the error is not tested that way (returned, passed on, tested through
// errors.Is), or its tests do not dominate one another.
func Outcome(call *ssa.Call) (fail, ok Edge, found bool) {
	errv := ErrorResult(call)
	if errv == nil {
		return Edge{}, Edge{}, false
	}
	direct := errValues(errv)
	first, isNil, ambiguous := nilTest(direct)
	if first == nil && !ambiguous {
		first, isNil, ambiguous = nilTest(phisOf(errv))
	}
	if first == nil || ambiguous {
		return Edge{}, Edge{}, false
	}
	b := first.Block()
	t, f := Edge{b, b.Succs[0]}, Edge{b, b.Succs[1]}
	if isNil {
		return f, t, true
	}
	return t, f, true
}

// errValues returns the values that are call's error result errv: errv,
// and its loads from a cell it is stored in, in the same block.
func errValues(errv ssa.Value) []ssa.Value {
	direct := []ssa.Value{errv}
	for _, r := range *errv.Referrers() {
		if st, isStore := r.(*ssa.Store); isStore && st.Val == errv {
			direct = append(direct, loadsAfter(st)...)
		}
	}
	return direct
}

// nilTest returns the If that first compares one of vals with nil (its
// block dominates the others'), and whether it tests == nil; ambiguous
// when two tests do not dominate one another.
func nilTest(vals []ssa.Value) (first *ssa.If, isNil, ambiguous bool) {
	for _, v := range vals {
		for _, r := range *v.Referrers() {
			cmp, isCmp := r.(*ssa.BinOp)
			if !isCmp || (cmp.Op != token.EQL && cmp.Op != token.NEQ) || !(isNilConst(cmp.X) || isNilConst(cmp.Y)) {
				continue
			}
			for _, u := range *cmp.Referrers() {
				ifi, isIf := u.(*ssa.If)
				if !isIf {
					continue
				}
				switch {
				case first == nil || ifi.Block().Dominates(first.Block()):
					first, isNil = ifi, cmp.Op == token.EQL
				case !first.Block().Dominates(ifi.Block()):
					return nil, false, true
				}
			}
		}
	}
	return first, isNil, false
}

// loadsAfter returns the loads of st's address later in st's block with no
// store to that address or call between: they read the value st stored.
func loadsAfter(st *ssa.Store) []ssa.Value {
	var out []ssa.Value
	instrs := st.Block().Instrs
	i := slices.Index(instrs, ssa.Instruction(st))
	for _, instr := range instrs[i+1:] {
		switch instr := instr.(type) {
		case *ssa.UnOp:
			if instr.Op == token.MUL && instr.X == st.Addr {
				out = append(out, instr)
			}
		case *ssa.Store:
			if instr.Addr == st.Addr {
				return out
			}
		case ssa.CallInstruction:
			return out
		}
	}
	return out
}

// phisOf returns the phis v flows into, directly or through other phis.
func phisOf(v ssa.Value) []ssa.Value {
	var out []ssa.Value
	seen := map[ssa.Value]bool{}
	stack := []ssa.Value{v}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, r := range *v.Referrers() {
			if phi, ok := r.(*ssa.Phi); ok && !seen[phi] {
				seen[phi] = true
				out = append(out, phi)
				stack = append(stack, phi)
			}
		}
	}
	return out
}

func isNilConst(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.IsNil()
}

func isTrue(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.Bool && constant.BoolVal(c.Value)
}

// NeverReturnsCall reports whether the builder cut the control flow after
// call because its callee never returns (NeverReturns): the next
// instruction is the panic the builder adds at the call's position.
func NeverReturnsCall(call *ssa.Call) bool {
	instrs := call.Block().Instrs
	for i, instr := range instrs {
		if instr != ssa.Instruction(call) {
			continue
		}
		for _, next := range instrs[i+1:] {
			switch next := next.(type) {
			case *ssa.MakeInterface: // the panic's operand
				continue
			case *ssa.Panic:
				return next.Pos() == call.Pos()
			}
			return false
		}
	}
	return false
}

// RepeatingCalls returns the calls of l's blocks that have an error result
// whose failure edge leads to the loop's next pass (Outcome, Repeats), in
// block order.
func (l *Loop) RepeatingCalls() []*ssa.Call {
	var out []*ssa.Call
	for _, b := range l.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || !Fallible(call) {
				continue
			}
			if fail, _, found := Outcome(call); found && l.Repeats(fail) {
				out = append(out, call)
			}
		}
	}
	return out
}

// PassFrom returns the blocks of l a pass goes through from b on, before
// its next pass: those reached from b within l without taking a back edge.
func (l *Loop) PassFrom(b *ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	in := make(map[*ssa.BasicBlock]bool)
	stack := []*ssa.BasicBlock{b}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if in[b] || !l.Contains(b) {
			continue
		}
		in[b] = true
		for _, s := range b.Succs {
			if !l.IsBack(Edge{From: b, To: s}) {
				stack = append(stack, s)
			}
		}
	}
	return in
}
