package astq

import (
	"go/ast"
	"go/token"
	"go/types"
)

// StructLit returns the composite literal e is, or whose address it takes
// (&T{...}), through parentheses; nil otherwise.
func StructLit(e ast.Expr) *ast.CompositeLit {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	lit, _ := e.(*ast.CompositeLit)
	return lit
}

// KeyedValue returns the value lit gives the field for which is reports
// true (is gets the field's object, nil where the key is not resolved), and
// whether lit is keyed: a literal with a positional element gives false,
// and no value. A keyed literal that leaves the field out gives nil, true.
func KeyedValue(info *types.Info, lit *ast.CompositeLit, is func(*types.Var, *ast.Ident) bool) (ast.Expr, bool) {
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return nil, false
		}
		if k, ok := kv.Key.(*ast.Ident); ok {
			v, _ := info.Uses[k].(*types.Var)
			if is(v, k) {
				return kv.Value, true
			}
		}
	}
	return nil, true
}

// StmtExpr returns the expression st evaluates as a whole: an expression
// statement's, or the one right-hand side of an assignment (v := <-ch,
// t = time.AfterFunc(d, f)); nil for other statements.
func StmtExpr(st ast.Stmt) ast.Expr {
	switch st := st.(type) {
	case *ast.ExprStmt:
		return st.X
	case *ast.AssignStmt:
		if len(st.Rhs) == 1 {
			return st.Rhs[0]
		}
	}
	return nil
}
