package flow

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// mapSyntax sets the Syntax of fn's loops: the innermost for or range
// statement that holds every positioned instruction of the loop (phis
// left out: a lifted variable's phi is at its declaration) and that no
// inner loop has taken, or, nearer still, the labelled statement a goto
// targets when the loop's entry starts between its label and the end of
// the block that holds it. A loop of a yield closure keeps its range statement.
func (p *Package) mapSyntax(fn *ssa.Function, loops []*Loop) {
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
		return
	}
	var stmts []ast.Stmt // for, range and goto-target labelled statements
	gotos := make(map[types.Object]bool)
	// a label's code runs from the label to the end of the block that
	// holds it: the statements after the labelled one are the goto loop's
	labelEnd := make(map[*ast.LabeledStmt]token.Pos)
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
				labelEnd[ls] = n.End()
			}
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt:
			stmts = append(stmts, n)
		case *ast.RangeStmt:
			if p.bySyn[n] == nil { // a range over a func is its yield closure's loop
				stmts = append(stmts, n)
			}
		case *ast.LabeledStmt:
			stmts = append(stmts, n)
		case *ast.BranchStmt:
			if n.Tok == token.GOTO && n.Label != nil {
				gotos[p.info.Uses[n.Label]] = true
			}
		}
		return true
	})
	// inner loops first, so that an outer loop whose code all lies in an
	// inner statement (a labelled continue from the inner loop is its only
	// back edge) takes the statement around the inner loop's
	claimed := make(map[ast.Stmt]bool)
	for _, l := range slices.Backward(loops) {
		if l.Syntax != nil {
			continue
		}
		lo, hi := token.NoPos, token.NoPos
		for _, b := range l.Blocks {
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
		if !lo.IsValid() {
			continue
		}
		var best ast.Stmt
		for _, s := range stmts {
			if claimed[s] {
				continue
			}
			ok := false
			switch s := s.(type) {
			case *ast.LabeledStmt:
				ok = gotos[p.info.Defs[s.Label]] && startsIn(l, s.Pos(), labelEnd[s])
			default:
				ok = s.Pos() <= lo && hi < s.End()
			}
			if ok && (best == nil || nearer(s, best)) {
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
