package flow

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/passes/internal/astq"
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
	_, body := astq.Func(fn.Syntax())
	if rs, ok := fn.Syntax().(*ast.RangeStmt); ok {
		body = rs.Body // a yield closure's
	}
	if body == nil {
		return nil
	}
	ix := &stmts{gotos: make(map[types.Object]bool), labelEnd: make(map[*ast.LabeledStmt]token.Pos)}
	ast.Inspect(body, func(n ast.Node) bool {
		list, _ := astq.StmtList(n)
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
		if s.Pos() <= lo && hi < s.End() && (best == nil || ix.nearer(s, best)) {
			best = s
		}
	}
	return best
}

// mapSyntax sets the Syntax of fn's loops: the innermost for or range
// statement that holds every positioned instruction of the loop (span)
// and that no inner loop has taken, or, nearer still, the labelled
// statement a goto targets when the loop's entry starts between its label
// and the end of the block that holds it (entryLabel). A loop of a yield
// closure keeps its range statement.
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
		if label := ix.entryLabel(p, l, claimed); label != nil && (best == nil || ix.nearer(label, best)) {
			best = label
		}
		if best != nil {
			l.Syntax = best
			claimed[best] = true
		}
	}
}

// entryLabel returns the label a goto loop starts at: for each entry of
// the loop, the nearest goto-target label before the entry's first
// positioned instruction whose code (to the end of its block) holds it;
// of several entries' labels (an irreducible loop), the first in the file.
func (ix *stmts) entryLabel(p *Package, l *Loop, claimed map[ast.Stmt]bool) ast.Stmt {
	var label *ast.LabeledStmt
	for _, entry := range l.Entries {
		pos := entryPos(entry)
		if !pos.IsValid() {
			continue
		}
		var near *ast.LabeledStmt
		for _, s := range ix.list {
			ls, ok := s.(*ast.LabeledStmt)
			if !ok || claimed[ls] || !ix.gotos[p.info.Defs[ls.Label]] {
				continue
			}
			if ls.Pos() <= pos && pos < ix.labelEnd[ls] && (near == nil || ls.Pos() > near.Pos()) {
				near = ls
			}
		}
		if near != nil && (label == nil || near.Pos() < label.Pos()) {
			label = near
		}
	}
	if label == nil {
		return nil
	}
	return label
}

// entryPos returns where the code of a loop's entry b starts: its first
// positioned instruction, or, when it has none (a label whose statements
// emit no code: a local given a parameter's value), that of the block its
// jump goes to, as far as the jumps go.
func entryPos(b *ssa.BasicBlock) token.Pos {
	seen := make(map[*ssa.BasicBlock]bool)
	for b != nil && !seen[b] {
		seen[b] = true
		if pos := firstPos(b); pos.IsValid() {
			return pos
		}
		if _, ok := last(b).(*ssa.Jump); !ok {
			break
		}
		b = b.Succs[0]
	}
	return token.NoPos
}

// firstPos returns the position of b's first positioned instruction that
// is not a phi.
func firstPos(b *ssa.BasicBlock) token.Pos {
	for _, instr := range b.Instrs {
		if _, phi := instr.(*ssa.Phi); phi {
			continue
		}
		if pos := instr.Pos(); pos.IsValid() {
			return pos
		}
	}
	return token.NoPos
}

// nearer reports whether candidate s is a better statement for a loop than
// best: it lies inside best, or, of two apart (the labels of an
// irreducible loop's entries), it comes first. A label's code runs to the
// end of its block.
func (ix *stmts) nearer(s, best ast.Stmt) bool {
	sEnd, bestEnd := ix.end(s), ix.end(best)
	if best.Pos() <= s.Pos() && sEnd <= bestEnd {
		return true
	}
	if s.Pos() <= best.Pos() && bestEnd <= sEnd {
		return false
	}
	return s.Pos() < best.Pos()
}

// end returns where the code of s ends: the end of the block for a label.
func (ix *stmts) end(s ast.Stmt) token.Pos {
	if ls, ok := s.(*ast.LabeledStmt); ok {
		if end, ok := ix.labelEnd[ls]; ok {
			return end
		}
	}
	return s.End()
}
