package retryscope

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/idemlint/idemlint/passes/internal/astq"
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
	// A test's writes configure the test (a BackoffFunc a test installs),
	// not the package's defaults: the package and its test variant (what
	// go vet analyses) get the same answer.
	for f := range astq.NonTestFiles(m.pass.Fset, m.pass.Files) {
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

// storedValue returns what store s puts in its field, resolved through
// the locals of the function that makes it (c.backoff = d, d :=
// 2*time.Second before), and the def index it was read in; nil when the
// store is not a plain assignment of a visible value (++, op=, &x.F, a
// tuple).
func (m *model) storedValue(s fieldStore) (ast.Expr, *defIndex) {
	if s.rhs == nil || (s.op != token.ASSIGN && s.op != token.DEFINE && s.op != token.ILLEGAL) {
		return nil, nil
	}
	di := m.packageDefs()
	if s.fn != nil {
		di = m.defIndex(s.fn)
	}
	return ast.Unparen(m.origin(di, s.rhs, s.pos)), di
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
	return m.nilByDefault(v, 0)
}

// nilByDefault reports whether the package leaves field v nil unless its
// users set it: it never stores into it, or stores only nil and copies of
// fields it leaves nil (elastic-transport's c.retryBackoff =
// cfg.RetryBackoff, a Config field the package never sets).
func (m *model) nilByDefault(v *types.Var, depth int) bool {
	if depth > maxDepth {
		return false
	}
	for _, s := range m.fieldStores()[v] {
		e, di := m.storedValue(s)
		if e == nil {
			return false
		}
		if tv, ok := m.info.Types[e]; ok && tv.IsNil() {
			continue
		}
		if m.optionParam(di, s, e) {
			continue // an option's WithRetryBackoff(fn): the users' choice, not the default
		}
		g := m.fieldOf(e)
		if g == nil || g.Pkg() != m.pass.Pkg || g == v || !m.nilByDefault(g, depth+1) {
			return false
		}
	}
	return true
}

// constOrFixed returns the value of e when it is a constant, or a
// package-level variable of this package whose only store is a constant
// initializer (var defaultMaxRetries = 3).
func (m *model) constOrFixed(e ast.Expr) (constant.Value, bool) {
	if tv, ok := m.info.Types[e]; ok && tv.Value != nil {
		return tv.Value, true
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return nil, false
	}
	v, ok := m.info.Uses[id].(*types.Var)
	if !ok || v.Pkg() != m.pass.Pkg || v.Parent() != v.Pkg().Scope() {
		return nil, false
	}
	ds := m.packageDefs().defs[v]
	if len(ds) != 1 || ds[0].op != token.VAR || ds[0].rhs == nil || ds[0].tuple >= 0 || m.addressTaken(v) {
		return nil, false
	}
	if tv, ok := m.info.Types[ds[0].rhs]; ok && tv.Value != nil {
		return tv.Value, true
	}
	return nil, false
}

// addressTaken reports whether the package's code takes the address of
// the variable v (&v), through which anything may be stored in it.
func (m *model) addressTaken(v types.Object) bool {
	if m.addrTaken == nil {
		m.addrTaken = make(map[types.Object]bool)
		for _, f := range m.pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.AND {
					if id, ok := ast.Unparen(u.X).(*ast.Ident); ok {
						if o := m.info.Uses[id]; o != nil {
							m.addrTaken[o] = true
						}
					}
				}
				return true
			})
		}
	}
	return m.addrTaken[v]
}

// fromParam reports whether e, the value store s puts in a field, is a
// parameter of the function (or of a closure in it) that makes the store:
// what the package's caller passes.
func (m *model) fromParam(di *defIndex, s fieldStore, e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	if !ok || s.fn == nil {
		return false
	}
	o := m.info.Uses[id]
	return o != nil && local(o) && len(di.defs[o]) == 0
}

// optionParam reports whether store s puts a parameter e in the field
// where only users who ask for it get it: in a function literal (the
// closure a functional option returns: WithMaxRetries(n) returns func(c
// *Config) { c.MaxRetries = n }) or in a method (a setter). A function's
// direct store of its own parameter (newClient(backoff) stores backoff) is
// what every user passes, not an option.
func (m *model) optionParam(di *defIndex, s fieldStore, e ast.Expr) bool {
	return m.fromParam(di, s, e) && m.optionStore(s)
}

// optionStore reports whether store s is made only for users who ask for
// it: in a method (a setter) or in a function literal (the closure a
// functional option returns), of a function the package itself does not
// call.
func (m *model) optionStore(s fieldStore) bool {
	if s.fn == nil {
		return false
	}
	if fn, _ := m.info.Defs[s.fn.Name].(*types.Func); fn == nil || m.calledInPackage(fn) {
		// etcd's withMax(defaultUnaryMaxRetries): what the package itself
		// passes is its own default, not its users' choice
		return false
	}
	if s.fn.Recv != nil {
		return true
	}
	inLit := false
	ast.Inspect(s.fn.Body, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok && in(lit, s.pos) {
			inLit = true
		}
		return !inLit
	})
	return inLit
}

// calledInPackage reports whether the package's non-test code calls fn
// (statically).
func (m *model) calledInPackage(fn *types.Func) bool {
	if m.calledFuncs == nil {
		m.calledFuncs = make(map[*types.Func]bool)
		for f := range astq.NonTestFiles(m.pass.Fset, m.pass.Files) {
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					if g := m.callee(call); g != nil {
						m.calledFuncs[g.Origin()] = true
					}
				}
				return true
			})
		}
	}
	return m.calledFuncs[fn]
}

// inspectDefault walks root with visit as ast.Inspect does, outside
// function literals; through an if statement for which untaken is true it
// walks only what runs when the branch is not taken: its init and its else.
func inspectDefault(root ast.Node, untaken func(*ast.IfStmt) bool, visit func(ast.Node) bool) {
	var walk func(n ast.Node) bool
	walk = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			if untaken(n) {
				if n.Init != nil {
					ast.Inspect(n.Init, walk)
				}
				if n.Else != nil {
					ast.Inspect(n.Else, walk)
				}
				return false
			}
		}
		return visit(n)
	}
	ast.Inspect(root, walk)
}

// untakenByDefault reports whether the branch an if statement's cond
// guards is not taken by default: cond is an unset hook (unsetHook), or a
// conjunction with one (c.retryBackoff != nil && i < c.maxRetries).
func (m *model) untakenByDefault(cond ast.Expr) bool {
	for _, part := range conjuncts(cond) {
		if m.unsetHook(part) {
			return true
		}
	}
	return false
}

// intDefault returns the constant the package gives integer field v of
// its own by default: every store of the package's code into it is that
// one constant, or a copy of a field whose default it is (elastic-
// transport's c.maxRetries = cfg.MaxRetries, with cfg.MaxRetries =
// defaultMaxRetries when the user leaves it 0). A store of anything else (a
// parameter, a computed value, the field's address) leaves it unknown.
func (m *model) intDefault(v *types.Var, depth int) (int64, bool) {
	if v.Pkg() != m.pass.Pkg || !isInteger(v.Type()) || depth > maxDepth {
		return 0, false
	}
	var n int64
	found := false
	for _, s := range m.fieldStores()[v] {
		e, di := m.storedValue(s)
		if e == nil {
			return 0, false
		}
		if m.optionParam(di, s, e) {
			continue // an option's WithMaxRetries(n): the users' choice, not the default
		}
		var k int64
		if c, ok := m.constOrFixed(e); ok {
			x, exact := constant.Int64Val(constant.ToInt(c))
			if !exact {
				return 0, false
			}
			k = x
		} else if g := m.fieldOf(e); g != nil && g != v {
			x, ok := m.intDefault(g, depth+1)
			if !ok {
				return 0, false
			}
			k = x
		} else {
			return 0, false
		}
		if found && k != n {
			return 0, false
		}
		n, found = k, true
	}
	return n, found
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
	// kind combines the kinds of the values the package stores of its
	// own: WaitConstant for constants (NewConfig's c.Admin.Retry.Backoff =
	// 100 * time.Millisecond) and values computed without randomness,
	// WaitGrowth for a field it counts on (b.attempts++, d *= 2),
	// WaitJittered for a random one, WaitUnknown for one it cannot read
	// (a call it does not see into, the field's address taken).
	kind WaitKind
	// own is false when the package stores nothing of its own (it never
	// writes the field, or only passes on what its callers give): the
	// users' value; kind means nothing then.
	own bool
	// fromCaller is set when a store passes on what the package's caller
	// gives (an option's RetryWait(d) sets opts.rwait = d; a constructor's
	// parameter), or copies a field that holds it.
	fromCaller bool
	// values are the constants stored; opaque is set when some store's
	// value is not a constant.
	values []constant.Value
	opaque bool
}

// fieldDefaultOf judges field v of this package by what the package
// stores into it: through copies into it of other fields of the package
// (kafka-go's backoffDelayMin: r.config.ReadBackoffMin, which NewReader
// defaults to 100 ms), and through local variables.
func (m *model) fieldDefaultOf(v *types.Var) *fieldDefault {
	if d, ok := m.fieldDefaults[v]; ok {
		if d == nil {
			return &fieldDefault{kind: WaitUnknown, own: true, opaque: true} // a cycle of copies
		}
		return d
	}
	if m.fieldDefaults == nil {
		m.fieldDefaults = make(map[*types.Var]*fieldDefault)
	}
	m.fieldDefaults[v] = nil
	d := &fieldDefault{}
	add := func(k WaitKind) {
		if !d.own {
			d.kind, d.own = k, true
		} else {
			d.kind = combine(d.kind, k)
		}
	}
	for _, s := range m.fieldStores()[v] {
		switch s.op {
		case token.INC, token.DEC, token.ADD_ASSIGN, token.SUB_ASSIGN, token.MUL_ASSIGN, token.SHL_ASSIGN:
			// b.attempts++, b.cur *= 2: counted on from its own value
			d.opaque = true
			if s.rhs != nil {
				if tv, ok := m.info.Types[s.rhs]; !ok || tv.Value == nil {
					add(WaitUnknown)
					continue
				}
			}
			add(WaitGrowth)
			continue
		case token.ASSIGN, token.DEFINE, token.ILLEGAL:
		default:
			d.opaque = true
			add(WaitUnknown) // &x.F: anything may be stored
			continue
		}
		if s.rhs == nil {
			d.opaque = true
			add(WaitUnknown) // x.F, err = f()
			continue
		}
		// c.backoff = d, with d := 2 * time.Second before it
		e, di := m.storedValue(s)
		if tv, ok := m.info.Types[e]; ok && tv.Value != nil {
			d.values = append(d.values, tv.Value)
			add(WaitConstant)
			continue
		}
		if tv, ok := m.info.Types[e]; ok && tv.IsNil() {
			continue // a hook cleared: no value of its own
		}
		if m.fromParam(di, s, e) {
			d.fromCaller = true // a parameter: what the caller passes
			continue
		}
		d.opaque = true
		if b, ok := e.(*ast.BinaryExpr); ok && (b.Op == token.MUL || b.Op == token.SHL || b.Op == token.ADD) && m.fieldOf(b.X) == v {
			add(WaitGrowth) // b.cur = b.cur * 2
			continue
		}
		if g := m.fieldOf(e); g != nil && g.Pkg() == m.pass.Pkg {
			// a copy of another field: its default, or its users' value
			gd := m.fieldDefaultOf(g)
			d.fromCaller = d.fromCaller || gd.fromCaller || !gd.own
			d.values = append(d.values, gd.values...)
			d.opaque = d.opaque || gd.opaque
			if gd.own {
				add(gd.kind)
			}
			continue
		}
		// a value the package computes: jittered when random, unknown when
		// the model cannot read it, otherwise fixed (time.Duration(secs) *
		// time.Second, a Retry-After the package parses into an error's
		// field: no randomness the wait could draw on)
		c := &classifier{m: m, di: di, seen: map[types.Object]bool{}}
		switch k := c.kind(e, 0); k {
		case WaitServer:
			add(WaitConstant)
		default:
			add(k)
		}
	}
	m.fieldDefaults[v] = d
	return d
}

// fieldWaitKind classifies a wait on the value of field v of this
// package by what the package stores in it (fieldDefaultOf): a field whose
// every store is a constant (the default its constructor sets), or a value
// computed without randomness, is a constant wait; one it counts on grows;
// one it sets to a random value is jittered; one it sets to what it cannot
// read is unknown. A field the package never sets, or sets only to what
// its callers pass, holds what its users set, fixed from one attempt to
// the next: a constant wait too, as is a field of another package.
func (m *model) fieldWaitKind(v *types.Var) WaitKind {
	if v.Pkg() != m.pass.Pkg {
		return WaitConstant
	}
	if d := m.fieldDefaultOf(v); d.own {
		return d.kind
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
	if d.fromCaller || d.opaque {
		return false
	}
	for _, c := range d.values {
		if constant.Sign(c) != 0 {
			return false
		}
	}
	return true
}
