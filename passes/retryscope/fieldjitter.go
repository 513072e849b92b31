package retryscope

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// Jitter that depends on a field (issue 19, shape 6): a backoff type's
// delay method adds randomness only when the receiver sets a field
// (if b.Jitter > 0 { d += rand.N(b.Jitter) }), and the value the caller
// built leaves it at zero (&backoff.Backoff{Max: 5 * time.Minute}): its
// delays have no jitter. The method is judged by its body with those
// branches not taken, in this package or, through delayFact's Fields and
// Zero, in another.

// fieldGuards returns the if statements of method fd that test a field of
// its receiver for being set (b.F > 0, b.F != 0, b.F != nil, b.F), with no
// else branch, and the names of those fields.
func (m *model) fieldGuards(fd *ast.FuncDecl) ([]*ast.IfStmt, []string) {
	if fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
		return nil, nil
	}
	recv := m.info.Defs[fd.Recv.List[0].Names[0]]
	if recv == nil {
		return nil, nil
	}
	var ifs []*ast.IfStmt
	var fields []string
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		st, ok := n.(*ast.IfStmt)
		if !ok || st.Else != nil || st.Init != nil {
			return true
		}
		if f := m.setTest(st.Cond, recv); f != "" {
			ifs = append(ifs, st)
			if !slices.Contains(fields, f) {
				fields = append(fields, f)
			}
		}
		return true
	})
	return ifs, fields
}

// setTest returns F when cond holds only for a receiver whose field F is
// set: recv.F > 0, 0 < recv.F, recv.F != 0, recv.F != nil, recv.F.
func (m *model) setTest(cond ast.Expr, recv types.Object) string {
	field := func(e ast.Expr) string {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			return ""
		}
		if s, ok := m.info.Selections[sel]; !ok || s.Kind() != types.FieldVal {
			return ""
		}
		if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && m.info.Uses[id] == recv {
			return sel.Sel.Name
		}
		return ""
	}
	zeroOrNil := func(e ast.Expr) bool { return astq.IsNil(m.info, e) || m.isZero(e) }
	switch c := ast.Unparen(cond).(type) {
	case *ast.SelectorExpr:
		if t := m.info.TypeOf(c); t != nil && types.Identical(t.Underlying(), types.Typ[types.Bool]) {
			return field(c)
		}
	case *ast.BinaryExpr:
		switch {
		case (c.Op == token.GTR || c.Op == token.NEQ) && zeroOrNil(c.Y):
			return field(c.X)
		case (c.Op == token.LSS || c.Op == token.NEQ) && zeroOrNil(c.X):
			return field(c.Y)
		}
	}
	return ""
}

// literalOf returns the composite literal that x, the receiver of a call
// at pos, was built from in this function (b := &backoff.Backoff{...}),
// and the fields set on it afterwards; nil when it is not known.
func (m *model) literalOf(di *defIndex, x ast.Expr, pos token.Pos) (*ast.CompositeLit, []fieldSet) {
	lit, ok := m.origin(di, x, pos).(*ast.CompositeLit)
	if !ok {
		return nil, nil
	}
	return lit, m.fieldSets(di, x)
}

// setsAny reports whether lit, or a later assignment sets, gives one of
// fields a value.
func setsAny(lit *ast.CompositeLit, sets []fieldSet, fields []string) bool {
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return true // a positional literal sets every field
		}
		if id, ok := kv.Key.(*ast.Ident); ok && slices.Contains(fields, id.Name) {
			return true
		}
	}
	for _, fs := range sets {
		if slices.Contains(fields, fs.field) {
			return true
		}
	}
	return false
}

// unsetGuards returns the field guards of method decl whose fields the
// receiver of call, built from a literal in this function, leaves unset:
// the branches its delay does not take. Nil when the receiver is not
// known.
func (c *classifier) unsetGuards(decl *ast.FuncDecl, call *ast.CallExpr) []*ast.IfStmt {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	ifs, _ := c.m.fieldGuards(decl)
	if len(ifs) == 0 {
		return nil
	}
	lit, sets := c.m.literalOf(c.di, sel.X, call.Pos())
	if lit == nil {
		return nil
	}
	recv := c.m.info.Defs[decl.Recv.List[0].Names[0]]
	var out []*ast.IfStmt
	for _, st := range ifs {
		if f := c.m.setTest(st.Cond, recv); !setsAny(lit, sets, []string{f}) {
			out = append(out, st)
		}
	}
	return out
}

// untaken reports whether pos lies in the body of one of the classifier's
// branches that are not taken.
func (c *classifier) untakenAt(pos token.Pos) bool {
	for _, st := range c.untaken {
		if st.Body.Pos() <= pos && pos < st.Body.End() {
			return true
		}
	}
	return false
}
