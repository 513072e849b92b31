package flow

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// stmts indexes the statements of one function's syntax that a loop can
// map to: for and range statements (not a range over a func: that is its
// yield closure's loop) and labelled statements a goto targets.
type stmts struct {
	list  []ast.Stmt
	gotos map[types.Object]bool
	// a label's code runs from the label to the end of the block that
	// holds it: the statements after the labelled one are the goto loop's
	labelEnd map[*ast.LabeledStmt]token.Pos
}

// stmtsOf returns the statement index of fn; nil for a function with no
// syntax.
func (p *Package) stmtsOf(fn *ssa.Function) *stmts {
	var body *ast.BlockStmt
	switch syn := fn.Syntax().(type) {
	case *ast.FuncDecl:
		body = syn.Body
	case *ast.FuncLit:
		body = syn.Body
	case *ast.RangeStmt:
		body = syn.Body
	}
	if body == nil {
		return nil
	}
	ix := &stmts{gotos: make(map[types.Object]bool), labelEnd: make(map[*ast.LabeledStmt]token.Pos)}
	ast.Inspect(body, func(n ast.Node) bool {
		var list []ast.Stmt
		switch n := n.(type) {
		case *ast.BlockStmt:
			list = n.List
		case *ast.CaseClause:
			list = n.Body
		case *ast.CommClause:
			list = n.Body
		}
		for _, st := range list {
			for ls, ok := st.(*ast.LabeledStmt); ok; ls, ok = ls.Stmt.(*ast.LabeledStmt) {
				ix.labelEnd[ls] = n.End()
			}
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt:
			ix.list = append(ix.list, n)
		case *ast.RangeStmt:
			if p.bySyn[n] == nil {
				ix.list = append(ix.list, n)
			}
		case *ast.LabeledStmt:
			ix.list = append(ix.list, n)
		case *ast.BranchStmt:
			if n.Tok == token.GOTO && n.Label != nil {
				ix.gotos[p.info.Uses[n.Label]] = true
			}
		}
		return true
	})
	return ix
}

// span returns the first and last positions of the instructions of the
// blocks in (a set by index), phis left out: a lifted variable's phi is
// at its declaration, maybe outside the loop.
func span(fn *ssa.Function, in []bool) (lo, hi token.Pos) {
	for _, b := range fn.Blocks {
		if !in[b.Index] {
			continue
		}
		for _, instr := range b.Instrs {
			if _, phi := instr.(*ssa.Phi); phi {
				continue
			}
			if pos := instr.Pos(); pos.IsValid() {
				if !lo.IsValid() || pos < lo {
					lo = pos
				}
				hi = max(hi, pos)
			}
		}
	}
	return lo, hi
}

// loopStmt returns the innermost for or range statement of ix that holds
// [lo, hi] and is not claimed; nil when none is.
func (ix *stmts) loopStmt(lo, hi token.Pos, claimed map[ast.Stmt]bool) ast.Stmt {
	var best ast.Stmt
	for _, s := range ix.list {
		if _, label := s.(*ast.LabeledStmt); label || claimed[s] {
			continue
		}
		if s.Pos() <= lo && hi < s.End() && (best == nil || nearer(s, best)) {
			best = s
		}
	}
	return best
}

// mapSyntax sets the Syntax of fn's loops: the innermost for or range
// statement that holds every positioned instruction of the loop (span)
// and that no inner loop has taken, or, nearer still, the labelled
// statement a goto targets when the loop's entry starts between its label
// and the end of the block that holds it. A loop of a yield closure keeps
// its range statement.
func (ix *stmts) mapSyntax(p *Package, loops []*Loop) {
	// inner loops first, so that an outer loop whose code all lies in an
	// inner statement (a labelled continue from the inner loop is its only
	// back edge) takes the statement around the inner loop's
	claimed := make(map[ast.Stmt]bool)
	for _, l := range slices.Backward(loops) {
		if l.Syntax != nil {
			continue
		}
		lo, hi := span(l.Fn, l.in)
		if !lo.IsValid() {
			continue
		}
		best := ix.loopStmt(lo, hi, claimed)
		for _, s := range ix.list {
			if s, ok := s.(*ast.LabeledStmt); ok && !claimed[s] && ix.gotos[p.info.Defs[s.Label]] &&
				startsIn(l, s.Pos(), ix.labelEnd[s]) && (best == nil || nearer(s, best)) {
				best = s
			}
		}
		if best != nil {
			l.Syntax = best
			claimed[best] = true
		}
	}
}

// startsIn reports whether one of the loop's entries starts in [from, to):
// its first positioned instruction, not a phi, lies there.
func startsIn(l *Loop, from, to token.Pos) bool {
	for _, entry := range l.Entries {
		for _, instr := range entry.Instrs {
			if _, phi := instr.(*ssa.Phi); phi {
				continue
			}
			if pos := instr.Pos(); pos.IsValid() {
				if from <= pos && pos < to {
					return true
				}
				break
			}
		}
	}
	return false
}

// nearer reports whether candidate s is a better statement for a loop than
// best: it lies inside best, or, of two apart (the labels of an
// irreducible loop's entries), it comes first.
func nearer(s, best ast.Stmt) bool {
	if best.Pos() <= s.Pos() && s.End() <= best.End() {
		return true
	}
	if s.Pos() <= best.Pos() && best.End() <= s.End() {
		return false
	}
	return s.Pos() < best.Pos()
}
