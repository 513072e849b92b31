package retryscope

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
)

// What the package's own code stores in its struct fields: the defaults a
// delay or a bound is judged by when it reads a field (issue 19, shape 1 of
// testdata/recall/README.md): sarama's NewConfig sets
// c.Consumer.Retry.Backoff = 2 * time.Second, kafka-go's NewReader sets
// config.ReadBackoffMin = defaultReadBackoffMin when it is 0.

// fieldStore is one store into a struct field by the package's code.
type fieldStore struct {
	// rhs is the value stored; nil when it is not visible (a tuple
	// assignment, ++, the field's address taken).
	rhs ast.Expr
	// op is the assignment's token (ASSIGN, DEFINE, ADD_ASSIGN, ...), INC
	// or DEC; token.ILLEGAL for a composite literal's element, token.AND for
	// &x.F.
	op  token.Token
	pos token.Pos
	// fn is the function declaring the store; nil at package level.
	fn *ast.FuncDecl
}

// fieldStores returns, for each field of a struct type declared in the
// package, the stores into it in the package's non-test files (an
// assignment, a composite literal, its address taken). Computed once per
// package: the one index of what the package writes to its fields.
func (m *model) fieldStores() map[*types.Var][]fieldStore {
	if m.stores != nil {
		return m.stores
	}
	m.stores = make(map[*types.Var][]fieldStore)
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
		for _, d := range f.Decls {
			fd, _ := d.(*ast.FuncDecl)
			add := func(v *types.Var, s fieldStore) {
				s.fn = fd
				m.stores[v] = append(m.stores[v], s)
			}
			ast.Inspect(d, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.AssignStmt:
					for i, l := range n.Lhs {
						if v := field(l); v != nil {
							var rhs ast.Expr
							if len(n.Rhs) == len(n.Lhs) {
								rhs = n.Rhs[i]
							}
							add(v, fieldStore{rhs: rhs, op: n.Tok, pos: n.End()})
						}
					}
				case *ast.IncDecStmt:
					if v := field(n.X); v != nil {
						add(v, fieldStore{op: n.Tok, pos: n.Pos()})
					}
				case *ast.UnaryExpr:
					if n.Op == token.AND {
						if v := field(n.X); v != nil {
							add(v, fieldStore{op: token.AND, pos: n.Pos()})
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
									add(v, fieldStore{rhs: kv.Value, op: token.ILLEGAL, pos: kv.Pos()})
								}
							}
							continue
						}
						if i < st.NumFields() {
							add(st.Field(i), fieldStore{rhs: elt, op: token.ILLEGAL, pos: elt.Pos()})
						}
					}
				}
				return true
			})
		}
	}
	return m.stores
}

// written reports whether any code of the package stores into field v.
func (m *model) written(v *types.Var) bool { return len(m.fieldStores()[v]) > 0 }

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
	v := m.fieldOf(x)
	if v == nil || v.Pkg() != m.pass.Pkg {
		return false
	}
	if _, ok := v.Type().Underlying().(*types.Signature); !ok {
		return false
	}
	return !m.written(v)
}

// fieldOf returns the struct field that the selector e reads (through any
// chain of selectors: c.conf.Consumer.Retry.Backoff), or nil.
func (m *model) fieldOf(e ast.Expr) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	s, ok := m.info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return nil
	}
	v, _ := s.Obj().(*types.Var)
	return v
}

// fieldDefault is what the package's code gives a field of its own by
// default, judged by every store into it in its non-test files.
type fieldDefault struct {
	// set is false when the package stores nothing of its own into the
	// field (it never writes it, stores only what its caller passes, or
	// copies into it another field that it never writes): the value is its
	// users' to set.
	set bool
	// constant is set when every store is a constant expression, a copy
	// of another field whose default is constant (or its users'), or
	// counts it on (grows): NewConfig's c.Admin.Retry.Backoff = 100 *
	// time.Millisecond, or NewReader's if config.ReadBackoffMin == 0 {
	// config.ReadBackoffMin = defaultReadBackoffMin } with
	// backoffDelayMin: config.ReadBackoffMin.
	constant bool
	// grows is set when a store counts the field on from its own value
	// (b.attempts++, d *= 2): a counter, not a fixed value.
	grows bool
	// values are the constants stored.
	values []constant.Value
}

// fieldDefaultOf judges field v of this package by what the package
// stores into it.
func (m *model) fieldDefaultOf(v *types.Var) fieldDefault {
	return m.fieldDefaultDepth(v, map[*types.Var]bool{})
}

func (m *model) fieldDefaultDepth(v *types.Var, seen map[*types.Var]bool) fieldDefault {
	if seen[v] || len(seen) > maxDepth {
		return fieldDefault{set: true} // a cycle of copies, or too deep: not known
	}
	seen[v] = true
	defer delete(seen, v)
	out := fieldDefault{constant: true}
	for _, s := range m.fieldStores()[v] {
		switch s.op {
		case token.INC, token.DEC, token.ADD_ASSIGN, token.SUB_ASSIGN, token.MUL_ASSIGN, token.SHL_ASSIGN:
			// b.attempts++, b.cur *= 2: counted on from its own value
			if s.rhs != nil {
				if tv, ok := m.info.Types[s.rhs]; !ok || tv.Value == nil {
					return fieldDefault{set: true}
				}
			}
			out.set, out.grows = true, true
			continue
		case token.ASSIGN, token.DEFINE, token.ILLEGAL:
		default:
			return fieldDefault{set: true} // &x.F: not a constant default
		}
		if s.rhs == nil {
			return fieldDefault{set: true} // x.F, err = f()
		}
		e := ast.Unparen(s.rhs)
		if s.fn != nil {
			// c.backoff = d, with d := 2 * time.Second before it
			di := m.defIndex(s.fn)
			e = ast.Unparen(m.origin(di, e, s.pos))
			if id, ok := e.(*ast.Ident); ok {
				if o := m.info.Uses[id]; o != nil && local(o) && len(di.defs[o]) == 0 {
					// a parameter (RetryWait(d) sets opts.rwait = d): what
					// the package's caller passes, its users' value
					continue
				}
			}
		}
		for {
			call, ok := e.(*ast.CallExpr)
			if !ok || !m.isConversion(call) || len(call.Args) != 1 {
				break
			}
			e = ast.Unparen(call.Args[0]) // time.Duration(n)
		}
		if tv, ok := m.info.Types[e]; ok && tv.Value != nil {
			out.set = true
			out.values = append(out.values, tv.Value)
			continue
		}
		if tv, ok := m.info.Types[e]; ok && tv.IsNil() {
			continue // a hook cleared: no value of its own
		}
		if b, ok := e.(*ast.BinaryExpr); ok && (b.Op == token.MUL || b.Op == token.SHL || b.Op == token.ADD) && m.fieldOf(b.X) == v {
			// b.cur = b.cur * 2
			if tv, ok := m.info.Types[b.Y]; ok && tv.Value != nil {
				out.set, out.grows = true, true
				continue
			}
		}
		if g := m.fieldOf(e); g != nil && g.Pkg() == m.pass.Pkg {
			// a copy of another field: its default, or its users' value
			d := m.fieldDefaultDepth(g, seen)
			if !d.set {
				continue
			}
			if !d.constant {
				return fieldDefault{set: true}
			}
			out.set = true
			out.grows = out.grows || d.grows
			out.values = append(out.values, d.values...)
			continue
		}
		return fieldDefault{set: true}
	}
	if !out.set {
		out.constant = false
	}
	return out
}

// fieldWaitKind classifies a wait on the value of field v of this
// package: a field whose every store the package makes is a constant (the
// default its constructor sets) is a constant wait, one the package
// counts on grows; one it sets to values it computes is unknown. A field
// the package never sets, or sets only to what its callers pass (an
// option's RetryWait(d)), holds what its users set, fixed from one attempt
// to the next: a constant wait too, as is a field of another package.
func (m *model) fieldWaitKind(v *types.Var) WaitKind {
	if v.Pkg() != m.pass.Pkg {
		return WaitConstant
	}
	d := m.fieldDefaultOf(v)
	switch {
	case !d.set:
		return WaitConstant
	case !d.constant:
		return WaitUnknown
	case d.grows:
		return WaitGrowth
	}
	return WaitConstant
}

// zeroByDefault reports whether the package leaves integer field v at 0
// unless its users set it: it never stores into it, or stores only the
// constant 0 (sarama's Consumer.Retry.Max, which NewConfig does not set).
func (m *model) zeroByDefault(v *types.Var) bool {
	if v.Pkg() != m.pass.Pkg || !isInteger(v.Type()) {
		return false
	}
	d := m.fieldDefaultOf(v)
	if !d.set {
		return true
	}
	if !d.constant || d.grows {
		return false
	}
	for _, c := range d.values {
		if constant.Sign(c) != 0 {
			return false
		}
	}
	return true
}
