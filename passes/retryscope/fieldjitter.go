package retryscope

import (
	"go/ast"
	"go/constant"
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
	astq.InspectOwn(fd.Body, func(n ast.Node) bool {
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

// builtFields returns the fields of the value x, the receiver of a call
// at pos, as this package built it: a composite literal in this function
// (b := &backoff.Backoff{...}) and the fields set on it afterwards, or the
// call of a constructor of this package that returns one, its parameters
// read as the call's arguments (DefaultBacko() returns NewBacko(100ms, 2,
// 0, 10s), which returns &Backo{base, factor, jitter, cap}). Each field
// maps to the expression stored, nil when it cannot be read. ok is false
// when x is not known.
func (m *model) builtFields(di *defIndex, x ast.Expr, pos token.Pos, depth int) (map[string]ast.Expr, bool) {
	if depth > maxDepth {
		return nil, false
	}
	switch e := ast.Unparen(m.origin(di, x, pos)).(type) {
	case *ast.CompositeLit:
		fields := make(map[string]ast.Expr)
		st, _ := m.info.TypeOf(e).Underlying().(*types.Struct)
		for i, elt := range e.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok {
					fields[id.Name] = kv.Value
				}
				continue
			}
			if st == nil || i >= st.NumFields() {
				return nil, false
			}
			fields[st.Field(i).Name()] = elt
		}
		for _, fs := range m.fieldSets(di, x) {
			fields[fs.field] = fs.rhs
		}
		return fields, true
	case *ast.CallExpr:
		fn := m.callee(e)
		if fn == nil || fn.Pkg() != m.pass.Pkg || m.funcs[fn] == nil || fn.Signature().Recv() != nil {
			return nil, false
		}
		decl := m.funcs[fn]
		var ret *ast.ReturnStmt
		n := 0
		astq.InspectOwn(decl.Body, func(node ast.Node) bool {
			switch node := node.(type) {
			case *ast.ReturnStmt:
				ret, n = node, n+1
			}
			return true
		})
		if n != 1 || len(ret.Results) != 1 {
			return nil, false
		}
		inner, ok := m.builtFields(m.defIndex(decl), ret.Results[0], ret.Pos(), depth+1)
		if !ok {
			return nil, false
		}
		params := fn.Signature().Params()
		out := make(map[string]ast.Expr, len(inner))
		for f, v := range inner {
			out[f] = nil
			id, isID := ast.Unparen(v).(*ast.Ident)
			if !isID {
				if tv, ok := m.info.Types[v]; ok && (tv.Value != nil || tv.IsNil()) {
					out[f] = v // a constant of the constructor's
				}
				continue
			}
			for i := 0; i < params.Len() && i < len(e.Args); i++ {
				if m.info.Uses[id] == params.At(i) && !(fn.Signature().Variadic() && i == params.Len()-1) {
					out[f] = e.Args[i]
				}
			}
			if out[f] == nil {
				if tv, ok := m.info.Types[v]; ok && (tv.Value != nil || tv.IsNil()) {
					out[f] = v
				}
			}
		}
		return out, true
	}
	return nil, false
}

// setsAny reports whether fields (builtFields') give one of names a value
// other than the zero constant.
func (m *model) setsAny(fields map[string]ast.Expr, names []string) bool {
	for _, name := range names {
		v, ok := fields[name]
		if !ok {
			continue
		}
		if v == nil {
			return true // a value the model cannot read
		}
		tv, ok := m.info.Types[v]
		switch {
		case ok && tv.IsNil():
		case ok && tv.Value != nil && (tv.Value.Kind() == constant.Int || tv.Value.Kind() == constant.Float) && constant.Sign(tv.Value) == 0:
		default:
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
	return c.m.unsetGuardsOf(decl, c.di, sel.X, call.Pos())
}

// unsetGuardsOf returns the field guards of method decl whose fields its
// receiver x, as built before pos in di (builtFields), leaves unset.
func (m *model) unsetGuardsOf(decl *ast.FuncDecl, di *defIndex, x ast.Expr, pos token.Pos) []*ast.IfStmt {
	ifs, _ := m.fieldGuards(decl)
	if len(ifs) == 0 {
		return nil
	}
	fields, ok := m.builtFields(di, x, pos, 0)
	if !ok {
		return nil
	}
	recv := m.info.Defs[decl.Recv.List[0].Names[0]]
	var out []*ast.IfStmt
	for _, st := range ifs {
		if f := m.setTest(st.Cond, recv); !m.setsAny(fields, []string{f}) {
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
