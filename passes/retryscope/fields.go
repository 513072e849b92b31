package retryscope

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// What the package's own code stores in its struct fields: the defaults a
// delay is judged by when it reads a field (issue 19, shape 1 of
// testdata/recall/README.md).

// fieldWrites returns, for each field of a struct type declared in the
// package, whether any code of the package stores into it (an assignment,
// a composite literal, its address taken). Computed once per package.
func (m *model) fieldWrites() map[*types.Var]bool {
	if m.written != nil {
		return m.written
	}
	m.written = make(map[*types.Var]bool)
	field := func(e ast.Expr) *types.Var {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		if s, ok := m.info.Selections[sel]; ok && s.Kind() == types.FieldVal {
			v, _ := s.Obj().(*types.Var)
			return v
		}
		return nil
	}
	for _, f := range m.pass.Files {
		// A test's writes configure the test (a BackoffFunc a test
		// installs), not the package's defaults: the package and its test
		// variant (what go vet analyses) get the same answer.
		if strings.HasSuffix(m.pass.Fset.File(f.Pos()).Name(), "_test.go") {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					if v := field(l); v != nil {
						m.written[v] = true
					}
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					if v := field(n.X); v != nil {
						m.written[v] = true
					}
				}
			case *ast.CompositeLit:
				st, ok := m.info.TypeOf(n).Underlying().(*types.Struct)
				if !ok {
					return true
				}
				for i, elt := range n.Elts {
					if kv, ok := elt.(*ast.KeyValueExpr); ok {
						if id, ok := kv.Key.(*ast.Ident); ok {
							if v, ok := m.info.Uses[id].(*types.Var); ok && v.IsField() {
								m.written[v] = true
							}
						}
						continue
					}
					if i < st.NumFields() {
						m.written[st.Field(i)] = true
					}
				}
			}
			return true
		})
	}
	return m.written
}

// unsetHook reports whether cond is "x.F != nil" for a func-typed field F
// of a type of this package that no code of the package sets: an optional
// hook left to the package's users (sarama's Retry.BackoffFunc), so the
// branch cond guards is not taken by default.
func (m *model) unsetHook(cond ast.Expr) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != token.NEQ {
		return false
	}
	x := b.X
	if tv, ok := m.info.Types[b.X]; ok && tv.IsNil() {
		x = b.Y
	} else if tv, ok := m.info.Types[b.Y]; !ok || !tv.IsNil() {
		return false
	}
	sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s, ok := m.info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return false
	}
	v, ok := s.Obj().(*types.Var)
	if !ok || v.Pkg() != m.pass.Pkg {
		return false
	}
	if _, ok := v.Type().Underlying().(*types.Signature); !ok {
		return false
	}
	return !m.fieldWrites()[v]
}
