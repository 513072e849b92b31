// Package astq holds small syntax and type queries shared by the retry
// model and the checks.
package astq

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"iter"
	"strings"
)

// InTestFile reports whether pos lies in a _test.go file.
func InTestFile(fset *token.FileSet, pos token.Pos) bool {
	f := fset.File(pos)
	return f != nil && strings.HasSuffix(f.Name(), "_test.go")
}

// NonTestFiles yields the files that are not _test.go files: what a
// package's own code does, the same for the package and its test variant.
func NonTestFiles(fset *token.FileSet, files []*ast.File) iter.Seq[*ast.File] {
	return func(yield func(*ast.File) bool) {
		for _, f := range files {
			if !InTestFile(fset, f.Pos()) && !yield(f) {
				return
			}
		}
	}
}

// InspectOwn is ast.Inspect over the code that runs as part of root: it
// does not enter function literals (root included), whose bodies run when
// and where the function value is called.
func InspectOwn(root ast.Node, f func(ast.Node) bool) {
	ast.Inspect(root, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit {
			return false
		}
		return f(n)
	})
}

// Written returns what n writes or lets be written: an assignment's
// left-hand sides, an increment's operand, the operand of &; nil for other
// nodes.
func Written(n ast.Node) []ast.Expr {
	switch n := n.(type) {
	case *ast.AssignStmt:
		return n.Lhs
	case *ast.IncDecStmt:
		return []ast.Expr{n.X}
	case *ast.UnaryExpr:
		if n.Op == token.AND {
			return []ast.Expr{n.X}
		}
	}
	return nil
}

// StringConst returns the value of e when it is a constant string.
func StringConst(info *types.Info, e ast.Expr) (string, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

// Assignments returns the expressions assigned to v in body.
func Assignments(info *types.Info, body *ast.BlockStmt, v *types.Var) []ast.Expr {
	var out []ast.Expr
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				id, ok := lhs.(*ast.Ident)
				if !ok {
					continue
				}
				obj := info.Defs[id]
				if obj == nil {
					obj = info.Uses[id]
				}
				if obj != v {
					continue
				}
				if len(n.Lhs) == len(n.Rhs) {
					out = append(out, n.Rhs[i])
				} else if len(n.Rhs) == 1 {
					out = append(out, n.Rhs[0])
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if info.Defs[id] == v {
					if len(n.Values) == len(n.Names) {
						out = append(out, n.Values[i])
					} else if len(n.Values) == 1 {
						out = append(out, n.Values[0])
					}
				}
			}
		}
		return true
	})
	return out
}

// IsNamed reports whether t, or the type t points to, is the named type
// path.name.
func IsNamed(t types.Type, path, name string) bool {
	n := NamedOf(t)
	return n != nil && n.Pkg().Path() == path && n.Name() == name
}

// NamedOf returns the name of t, or of the type t points to, when it is a
// named type of a package; nil otherwise.
func NamedOf(t types.Type) *types.TypeName {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return nil
	}
	return n.Obj()
}

// Func returns the type and body of a *ast.FuncDecl or *ast.FuncLit; nil,
// nil for any other node.
func Func(n ast.Node) (*ast.FuncType, *ast.BlockStmt) {
	switch f := n.(type) {
	case *ast.FuncDecl:
		return f.Type, f.Body
	case *ast.FuncLit:
		return f.Type, f.Body
	}
	return nil, nil
}

// IsPointerTo reports whether t is a pointer to the named type path.name
// (*net/http.Response), not the type itself.
func IsPointerTo(t types.Type, path, name string) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	return ok && IsNamed(p.Elem(), path, name)
}

// IsError reports whether t is the predeclared error type.
func IsError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// ImplementsError reports whether a value of type t is an error: t, or a
// pointer to t, has the method Error() string (*RateLimitedError).
func ImplementsError(t types.Type) bool {
	errT := types.Universe.Lookup("error").Type().Underlying().(*types.Interface)
	if types.Implements(t, errT) {
		return true
	}
	if _, isPtr := t.Underlying().(*types.Pointer); !isPtr && !types.IsInterface(t) {
		return types.Implements(types.NewPointer(t), errT)
	}
	return false
}

// IsNil reports whether e is the nil value.
func IsNil(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

// Compare reports whether a op b holds, for op one of the comparison
// operators (==, !=, <, <=, >, >=); false for any other op.
func Compare(a int64, op token.Token, b int64) bool {
	switch op {
	case token.EQL:
		return a == b
	case token.NEQ:
		return a != b
	case token.LSS:
		return a < b
	case token.LEQ:
		return a <= b
	case token.GTR:
		return a > b
	case token.GEQ:
		return a >= b
	}
	return false
}

// Callee returns the function or method call statically calls (for a
// generic one, as its identifier names it), or nil.
func Callee(info *types.Info, call *ast.CallExpr) *types.Func {
	id := CalleeIdent(call)
	if id == nil {
		return nil
	}
	fn, _ := info.Uses[id].(*types.Func)
	return fn
}

// NameIdent returns the identifier that e names: x in x, and Sel in
// pkg.Sel or v.Sel; nil for any other expression.
func NameIdent(e ast.Expr) *ast.Ident {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return e
	case *ast.SelectorExpr:
		return e.Sel
	}
	return nil
}

// CalleeIdent returns the identifier that names what call calls: f in
// f(), pkg.F() and x.M(), with or without type arguments; nil for any
// other callee (a function literal, a call's result, an index).
func CalleeIdent(call *ast.CallExpr) *ast.Ident {
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = ast.Unparen(f.X)
	case *ast.IndexListExpr:
		fun = ast.Unparen(f.X)
	}
	return NameIdent(fun)
}

// Params returns fd's named parameters (not _) with their indices.
func Params(info *types.Info, fd *ast.FuncDecl) map[*ast.Ident]int {
	out := make(map[*ast.Ident]int)
	i := 0
	for _, field := range fd.Type.Params.List {
		if len(field.Names) == 0 {
			i++
			continue
		}
		for _, name := range field.Names {
			if info.Defs[name] != nil && name.Name != "_" {
				out[name] = i
			}
			i++
		}
	}
	return out
}

// Parents calls f for each node of the tree at root, in ast.Inspect's
// order, with the node that holds it (nil for root); f returning false
// skips the node's children.
func Parents(root ast.Node, f func(n, parent ast.Node) bool) {
	var stack []ast.Node
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		var parent ast.Node
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		if !f(n, parent) {
			return false
		}
		stack = append(stack, n)
		return true
	})
}

// Returns returns the return statements of body, leaving out those of the
// function literals in it.
func Returns(body *ast.BlockStmt) []*ast.ReturnStmt {
	var out []*ast.ReturnStmt
	ast.Inspect(body, func(n ast.Node) bool {
		if r, ok := n.(*ast.ReturnStmt); ok {
			out = append(out, r)
		}
		_, lit := n.(*ast.FuncLit)
		return !lit
	})
	return out
}

// StmtList returns the statement list n holds when it is a block, a case
// clause or a select case.
func StmtList(n ast.Node) ([]ast.Stmt, bool) {
	switch n := n.(type) {
	case *ast.BlockStmt:
		return n.List, true
	case *ast.CaseClause:
		return n.Body, true
	case *ast.CommClause:
		return n.Body, true
	}
	return nil, false
}

// LoopBody returns the body of n when it is a for or range statement.
func LoopBody(n ast.Node) *ast.BlockStmt {
	switch n := n.(type) {
	case *ast.ForStmt:
		return n.Body
	case *ast.RangeStmt:
		return n.Body
	}
	return nil
}

// Search walks the tree at root as ast.Inspect does until visit sets
// *found, and reports whether it did. Like ast.Inspect's function, visit
// returns whether to walk n's children; once *found is set, no further
// node is visited.
func Search(root ast.Node, visit func(n ast.Node, found *bool) bool) bool {
	found := false
	ast.Inspect(root, func(n ast.Node) bool {
		return !found && visit(n, &found)
	})
	return found
}

// Find reports whether match is true of a node of the tree at root outside
// function literals (code in a closure runs when the closure is called, not
// where it stands). It walks in ast.Inspect's order and stops at the first
// node match is true of.
func Find(root ast.Node, match func(n ast.Node) bool) bool {
	found := false
	ast.Inspect(root, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit || n == nil || found {
			return false
		}
		found = match(n)
		return !found
	})
	return found
}
