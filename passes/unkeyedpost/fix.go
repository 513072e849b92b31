package unkeyedpost

import (
	"fmt"
	"go/ast"
	"go/token"
	"strconv"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/internal/fiximport"
	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/keys"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// fix keys the request where it is built. Built inside the retry: mint a
// key above the retry and set it after the construction. Built once before
// the retry, or sent through a retrying client: set a key minted there.
func (c *checker) fix(fd *ast.FuncDecl, scope *retryscope.Scope, s *sendInfo) (analysis.SuggestedFix, bool) {
	var none analysis.SuggestedFix
	built, ok := s.built.(*ast.CallExpr)
	if !ok {
		return none, false
	}
	p := c.parents.Of(fd)
	stmt, ok := p[built].(*ast.AssignStmt)
	if !ok || len(stmt.Lhs) != 2 || len(stmt.Rhs) != 1 {
		return none, false
	}
	req, ok := stmt.Lhs[0].(*ast.Ident)
	if !ok || req.Name == "_" {
		return none, false
	}
	after := c.afterErrCheck(p, stmt)
	if after == nil {
		return none, false
	}
	inside := scope.Kind != retryscope.Client && scope.Contains(built.Pos())
	var above ast.Stmt
	switch {
	case inside:
		if !(scope.Node.Pos() <= scope.Body.Pos() && scope.Body.End() <= scope.Node.End()) {
			return none, false
		}
		if above = keys.Above(scope, c.parents.Of(fd)); above == nil {
			return none, false
		}
	case c.res.Innermost(built.Pos()) != nil:
		return none, false // built in another retry: a key minted there would change per attempt
	case scope.Kind != retryscope.Client && built.Pos() > scope.Node.Pos():
		return none, false
	}

	file := c.pass.Fset.File(stmt.Pos())
	src, err := c.pass.ReadFile(file.Name())
	if err != nil {
		return none, false
	}
	pkgPos := after.End()
	if above != nil {
		pkgPos = above.Pos()
	}
	pkg, edits, ok := c.importName(pkgPos)
	if !ok {
		return none, false
	}
	indent := keys.Indent(src, file, stmt.Pos())
	header := strconv.Quote("Idempotency-Key")
	if !inside {
		edits = append(edits, analysis.TextEdit{Pos: after.End(), End: after.End(),
			NewText: fmt.Appendf(nil, "\n%s%s.Header.Set(%s, %s.NewKey())", indent, req.Name, header, pkg)})
		return analysis.SuggestedFix{Message: "Set an idempotency key on the request", TextEdits: edits}, true
	}
	key := ""
	n := c.keysAbove[scope]
	for _, cand := range []string{"key", "idemKey", "idempotencyKey"} {
		if n > 0 {
			cand += strconv.Itoa(n + 1) // a second request of the scope: a key of its own
		}
		if keys.Free(c.pass.Pkg, cand, above.Pos()) && keys.Free(c.pass.Pkg, cand, after.End()) && !c.declares(scope.Node, cand) {
			key = cand
			break
		}
	}
	if key == "" {
		return none, false
	}
	if c.keysAbove == nil {
		c.keysAbove = make(map[*retryscope.Scope]int)
	}
	c.keysAbove[scope]++
	edits = append(edits,
		analysis.TextEdit{Pos: above.Pos(), End: above.Pos(),
			NewText: fmt.Appendf(nil, "%s := %s.NewKey()\n%s", key, pkg, keys.Indent(src, file, above.Pos()))},
		analysis.TextEdit{Pos: after.End(), End: after.End(),
			NewText: fmt.Appendf(nil, "\n%s%s.Header.Set(%s, %s)", indent, req.Name, header, key)})
	return analysis.SuggestedFix{Message: "Mint an idempotency key above the retry and set it on the request", TextEdits: edits}, true
}

// afterErrCheck returns the statement after which the request can be
// used: the if statement that checks the construction's error and leaves,
// or the construction itself when it discards the error. It returns nil
// when the request may be nil there.
func (c *checker) afterErrCheck(p keys.Parents, stmt *ast.AssignStmt) ast.Stmt {
	errID, ok := stmt.Lhs[1].(*ast.Ident)
	if !ok {
		return nil
	}
	if errID.Name == "_" {
		return stmt
	}
	list, _ := astq.StmtList(p[stmt])
	for i, st := range list {
		if st != stmt || i+1 >= len(list) {
			continue
		}
		ifs, ok := list[i+1].(*ast.IfStmt)
		if !ok || ifs.Init != nil || ifs.Else != nil {
			return nil
		}
		b, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
		if !ok || b.Op != token.NEQ || !c.isNil(b.Y) {
			return nil
		}
		id, ok := ast.Unparen(b.X).(*ast.Ident)
		if !ok || c.obj(id) != c.obj(errID) || !c.endsBlock(ifs.Body.List) {
			return nil
		}
		return ifs
	}
	return nil
}

// endsBlock reports whether list ends in a statement that leaves it:
// return, continue, break, goto or panic.
func (c *checker) endsBlock(list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	switch st := list[len(list)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		if call, ok := st.X.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
				return true
			}
		}
	}
	return false
}

// declares reports whether n declares something named name.
func (c *checker) declares(n ast.Node, name string) bool {
	found := false
	ast.Inspect(n, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok && id.Name == name && c.info.Defs[id] != nil {
			found = true
		}
		return !found
	})
	return found
}

// importName returns the name under which the file refers to
// runtime/idempotency at pos, with the edit that imports it when needed.
func (c *checker) importName(pos token.Pos) (string, []analysis.TextEdit, bool) {
	f := fiximport.File(c.pass, pos)
	if f == nil {
		return "", nil, false
	}
	return fiximport.NameGrouped(c.pass, f, keys.RuntimePath, pos, "idempotency", "idemkey", "idempotencyrt")
}
