package keys

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/idemlint/idemlint/passes/retryscope"
)

// Parents maps every node of a function to its parent.
type Parents map[ast.Node]ast.Node

// ParentsOf indexes the nodes under root.
func ParentsOf(root ast.Node) Parents {
	p := make(Parents)
	var stack []ast.Node
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if len(stack) > 0 {
			p[n] = stack[len(stack)-1]
		}
		stack = append(stack, n)
		return true
	})
	return p
}

// ParentIndex holds the parent index of each root it was asked for.
type ParentIndex map[ast.Node]Parents

// Of returns the parent index of root, built the first time it is asked
// for.
func (pi ParentIndex) Of(root ast.Node) Parents {
	p := pi[root]
	if p == nil {
		p = ParentsOf(root)
		pi[root] = p
	}
	return p
}

// Above returns the statement before which code that must run once, before
// the scope's first attempt, is inserted: the loop statement (or its
// label), or the statement that contains the library call. It returns nil
// for clients and when that statement is not directly in a block.
func Above(s *retryscope.Scope, parents Parents) ast.Stmt {
	var n ast.Node
	switch s.Kind {
	case retryscope.Loop:
		n = s.Node
		if l, ok := parents[n].(*ast.LabeledStmt); ok {
			n = l
		}
	case retryscope.LibraryCall:
		n = s.Node
		for n != nil {
			if _, ok := n.(ast.Stmt); ok && inList(parents[n]) {
				break
			}
			n = parents[n]
		}
	default:
		return nil
	}
	st, _ := n.(ast.Stmt)
	if st == nil || !inList(parents[st]) {
		return nil
	}
	return st
}

// inList reports whether p holds a statement list.
func inList(p ast.Node) bool {
	switch p.(type) {
	case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
		return true
	}
	return false
}

// Free reports whether name resolves to nothing at pos in pkg, so that a
// new variable of that name declared there neither clashes with nor
// shadows anything.
func Free(pkg *types.Package, name string, pos token.Pos) bool {
	sc := pkg.Scope().Innermost(pos)
	if sc == nil {
		return false
	}
	_, obj := sc.LookupParent(name, pos)
	return obj == nil
}

// Indent returns the white space that starts the line of pos.
func Indent(src []byte, file *token.File, pos token.Pos) string {
	start := file.Offset(file.LineStart(file.Line(pos)))
	end := start
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[start:end])
}

// LineSpan returns the byte range of the whole lines that n occupies, the
// final newline included, and the end of n's text on its last line (a
// trailing line comment included), when nothing but white space precedes n
// on its first line and nothing but white space or a line comment follows
// it on its last.
func LineSpan(src []byte, file *token.File, n ast.Node) (start, end, textEnd token.Pos, ok bool) {
	start = file.LineStart(file.Line(n.Pos()))
	for i := file.Offset(start); i < file.Offset(n.Pos()); i++ {
		if src[i] != ' ' && src[i] != '\t' {
			return 0, 0, 0, false
		}
	}
	i := file.Offset(n.End())
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r') {
		i++
	}
	if i+1 < len(src) && src[i] == '/' && src[i+1] == '/' {
		for i < len(src) && src[i] != '\n' {
			i++
		}
	}
	if i < len(src) && src[i] != '\n' {
		return 0, 0, 0, false
	}
	j := i
	for j > file.Offset(n.End()) && (src[j-1] == ' ' || src[j-1] == '\t' || src[j-1] == '\r') {
		j--
	}
	if i < len(src) {
		i++
	}
	return start, file.Pos(i), file.Pos(j), true
}
