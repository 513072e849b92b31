package flow

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// An Induction is an induction variable of a loop: a phi at an entry of the
// loop whose values from inside the loop are the phi itself stepped by
// constants (n++, attempt += 2, remaining--), wherever in the loop the
// step is (in the loop's post statement, in a failure branch only).
type Induction struct {
	Phi *ssa.Phi
	// Steps are the additions and subtractions of a constant that make the
	// next value, in the loop.
	Steps []*ssa.BinOp
	// Init are the values the phi takes from outside the loop.
	Init []ssa.Value
	// Up is true when every step adds a positive constant (or subtracts a
	// negative one), Down when every step subtracts one; neither when the
	// steps disagree.
	Up, Down bool
	// Cell is true when the variable lives in memory: a Go 1.22 loop
	// variable that a closure captures, whose phi is of pointers to a new
	// cell each pass; its value is a load of the phi. A closure's writes
	// to the cell are not seen.
	Cell bool
}

// A Bound is an exit of a loop taken on a comparison of an induction
// variable (or its stepped value) with another value: i < n, attempt >=
// max, remaining == 0.
type Bound struct {
	Exit  Edge
	Var   *Induction
	Cmp   *ssa.BinOp
	Bound ssa.Value // the other operand of Cmp
}

// inductions fills l.Inductions and l.Bounds.
func (l *Loop) inductions() {
	for _, entry := range l.Entries {
		for _, instr := range entry.Instrs {
			phi, ok := instr.(*ssa.Phi)
			if !ok {
				break // phis come first
			}
			if ind := l.induction(phi); ind != nil {
				l.Inductions = append(l.Inductions, ind)
			}
		}
	}
	if len(l.Inductions) == 0 {
		return
	}
	for _, e := range l.Exits {
		ifi, ok := last(e.From).(*ssa.If)
		if !ok {
			continue
		}
		cmp, ok := ifi.Cond.(*ssa.BinOp)
		if !ok || !IsComparison(cmp.Op) {
			continue
		}
		for _, ind := range l.Inductions {
			switch {
			case ind.Is(cmp.X):
				l.Bounds = append(l.Bounds, &Bound{Exit: e, Var: ind, Cmp: cmp, Bound: cmp.Y})
			case ind.Is(cmp.Y):
				l.Bounds = append(l.Bounds, &Bound{Exit: e, Var: ind, Cmp: cmp, Bound: cmp.X})
			}
		}
	}
}

// Is reports whether v is the variable or one of its stepped values.
func (ind *Induction) Is(v ssa.Value) bool {
	if ind.Cell {
		if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL && load.X == ssa.Value(ind.Phi) {
			return true
		}
	} else if v == ssa.Value(ind.Phi) {
		return true
	}
	for _, s := range ind.Steps {
		if v == ssa.Value(s) {
			return true
		}
	}
	return false
}

// induction returns phi as an induction variable of l, or nil.
func (l *Loop) induction(phi *ssa.Phi) *Induction {
	if ind := l.cellInduction(phi); ind != nil {
		return ind
	}
	ind := &Induction{Phi: phi, Up: true, Down: true}
	seen := map[ssa.Value]bool{}
	// stepped reports whether v, a value reaching phi from inside the loop,
	// is phi stepped by constants zero or more times
	var stepped func(v ssa.Value) bool
	stepped = func(v ssa.Value) bool {
		if v == ssa.Value(phi) {
			return true
		}
		if seen[v] {
			return true // a cycle of in-loop phis adds nothing
		}
		seen[v] = true
		instr, ok := v.(ssa.Instruction)
		if !ok || !l.Contains(instr.Block()) {
			return false
		}
		switch v := v.(type) {
		case *ssa.Phi:
			for _, e := range v.Edges {
				if !stepped(e) {
					return false
				}
			}
			return true
		case *ssa.BinOp:
			var k *ssa.Const
			var x ssa.Value
			switch {
			case v.Op == token.ADD || v.Op == token.SUB:
				if c, ok := v.Y.(*ssa.Const); ok {
					k, x = c, v.X
				} else if c, ok := v.X.(*ssa.Const); ok && v.Op == token.ADD {
					k, x = c, v.Y
				}
			}
			if k == nil || k.Value == nil || k.Value.Kind() != constant.Int || !stepped(x) {
				return false
			}
			ind.step(v, k)
			return true
		}
		return false
	}
	for i, v := range phi.Edges {
		if l.Contains(phi.Block().Preds[i]) {
			if !stepped(v) {
				return nil
			}
		} else {
			ind.Init = append(ind.Init, v)
		}
	}
	if len(ind.Steps) == 0 {
		return nil
	}
	return ind
}

// cellInduction returns phi as the induction variable of a Go 1.22 loop
// variable a closure captures, or nil. The builder gives each pass a new
// cell: the phi merges the first cell with the cells the loop makes, and
// each new cell is stored the previous pass's value (a load of the phi),
// then that value stepped by a constant:
//
//	t1 = phi [entry: t0, post: t8] #i
//	t7 = *t1; t8 = new int (i); *t8 = t7; t9 = *t8; t10 = t9 + 1; *t8 = t10
func (l *Loop) cellInduction(phi *ssa.Phi) *Induction {
	if _, ok := phi.Type().Underlying().(*types.Pointer); !ok {
		return nil
	}
	ind := &Induction{Phi: phi, Up: true, Down: true, Cell: true}
	for i, v := range phi.Edges {
		if !l.Contains(phi.Block().Preds[i]) {
			ind.Init = append(ind.Init, v)
			continue
		}
		cell, ok := v.(*ssa.Alloc)
		if !ok || !l.Contains(cell.Block()) {
			return nil
		}
		// every store to the cell is a copy of the previous value or a
		// step of a value the cell holds
		for _, r := range *cell.Referrers() {
			st, ok := r.(*ssa.Store)
			if !ok || st.Addr != ssa.Value(cell) {
				continue // loads, the phi
			}
			if isLoadOf(st.Val, phi) {
				continue
			}
			step, ok := st.Val.(*ssa.BinOp)
			if !ok || (step.Op != token.ADD && step.Op != token.SUB) || !l.Contains(step.Block()) {
				return nil
			}
			k, ok := step.Y.(*ssa.Const)
			if !ok || k.Value == nil || k.Value.Kind() != constant.Int ||
				!(isLoadOf(step.X, cell) || isLoadOf(step.X, phi)) {
				return nil
			}
			ind.step(step, k)
		}
	}
	if len(ind.Steps) == 0 {
		return nil
	}
	return ind
}

// isLoadOf reports whether v loads the value addr points to.
func isLoadOf(v, addr ssa.Value) bool {
	load, ok := v.(*ssa.UnOp)
	return ok && load.Op == token.MUL && load.X == addr
}

// IsComparison reports whether op compares: ==, !=, <, <=, >, >=.
func IsComparison(op token.Token) bool {
	switch op {
	case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
		return true
	}
	return false
}

// step records v, an addition or a subtraction of the integer constant k,
// as a step of ind: an up step keeps Up, a down step Down.
func (ind *Induction) step(v *ssa.BinOp, k *ssa.Const) {
	sign := constant.Sign(k.Value)
	if v.Op == token.SUB {
		sign = -sign
	}
	ind.Up = ind.Up && sign > 0
	ind.Down = ind.Down && sign < 0
	ind.Steps = append(ind.Steps, v)
}
