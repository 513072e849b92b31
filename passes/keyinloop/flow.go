package keyinloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/keys"
	"github.com/idemlint/idemlint/passes/internal/names"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// flow follows fresh values through one region of code: a retry scope's
// body, or a helper's body. It is flow-insensitive: a variable is fresh when
// some assignment in the region gives it a fresh value, unless that
// assignment only runs while the variable is still unset (a lazy
// initialisation) or only on the first attempt.
type flow struct {
	c       *checker
	region  *ast.BlockStmt
	vars    map[types.Object]ast.Node            // variable → the minting call (or parameter) its value comes from
	fields  map[types.Object]map[string]ast.Node // struct variable → field → origin
	parents keys.Parents
	// counter is the variable the retry loop counts its attempts in
	// (retryscope's Scope.Counter): a key built from it is new on every
	// attempt; its uses are their own origins.
	counter types.Object
}

// newFlow prepares a flow over region; params, when given, are sources too
// (a helper's summary).
func (c *checker) newFlow(region *ast.BlockStmt, params map[*ast.Ident]int) *flow {
	f := &flow{c: c, region: region, vars: make(map[types.Object]ast.Node), fields: make(map[types.Object]map[string]ast.Node)}
	for id := range params {
		if o := c.info.Defs[id]; o != nil {
			f.vars[o] = id
		}
	}
	return f
}

// step is one thing run propagates fresh values through: a def of the
// region (the suite's one value flow, retryscope.EachDef) or a call that
// fills a buffer with random bytes.
type step struct {
	stmt ast.Node // the def's statement
	lhs  ast.Expr
	def  retryscope.Def
	read *ast.CallExpr
	buf  ast.Expr // read's buffer
}

// run propagates fresh values until nothing changes. A multi-value
// assignment (v, err := uuid.NewRandom()) binds its first variable to the
// call (retryscope.Def.Binds).
func (f *flow) run() {
	var steps []step
	ast.Inspect(f.region, func(n ast.Node) bool {
		retryscope.EachDef(n, func(lhs ast.Expr, d retryscope.Def) {
			if d.Binds() != nil {
				steps = append(steps, step{stmt: n, lhs: lhs, def: d})
			}
		})
		if call, ok := n.(*ast.CallExpr); ok {
			if buf := f.readBuf(call); buf != nil {
				steps = append(steps, step{read: call, buf: buf})
			}
		}
		return true
	})
	for range 4 {
		changed := false
		for _, s := range steps {
			if s.read != nil {
				changed = f.readInto(s.read, s.buf) || changed
				continue
			}
			rhs := s.def.Binds()
			changed = f.bind(s.stmt, s.lhs, rhs, f.fresh(rhs)) || changed
		}
		if !changed {
			return
		}
	}
}

// bind records that lhs gets rhs (whose origin is org, if fresh) in stmt.
func (f *flow) bind(stmt ast.Node, lhs, rhs ast.Expr, org ast.Node) bool {
	changed := false
	switch l := ast.Unparen(lhs).(type) {
	case *ast.Ident:
		o := f.obj(l)
		if o == nil {
			return false
		}
		if org != nil && f.vars[o] == nil && !f.lazy(stmt, l) {
			f.vars[o] = org
			changed = true
		}
		// v := T{Key: fresh}: remember the fields.
		if lit := compositeOf(rhs); lit != nil {
			for _, elt := range lit.Elts {
				kv, ok := elt.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				key, ok := kv.Key.(*ast.Ident)
				if !ok {
					continue
				}
				if forg := f.fresh(kv.Value); forg != nil {
					changed = f.setField(o, key.Name, forg) || changed
				}
			}
		}
	case *ast.SelectorExpr:
		root, ok := ast.Unparen(l.X).(*ast.Ident)
		if !ok || org == nil || f.lazy(stmt, l) {
			return false
		}
		if o := f.obj(root); o != nil {
			changed = f.setField(o, l.Sel.Name, org)
		}
	}
	return changed
}

func (f *flow) setField(o types.Object, field string, org ast.Node) bool {
	m := f.fields[o]
	if m == nil {
		m = make(map[string]ast.Node)
		f.fields[o] = m
	}
	if m[field] != nil {
		return false
	}
	m[field] = org
	return true
}

// readBuf returns the buffer a call fills with random bytes:
// crypto/rand.Read(b), math/rand.Read(b), io.ReadFull(crypto/rand.Reader, b).
func (f *flow) readBuf(call *ast.CallExpr) ast.Expr {
	fn := typeutil.StaticCallee(f.c.info, call)
	if fn == nil {
		return nil
	}
	switch fn.FullName() {
	case "crypto/rand.Read", "math/rand.Read", "(*math/rand.Rand).Read":
		if len(call.Args) == 1 {
			return call.Args[0]
		}
	case "io.ReadFull":
		if len(call.Args) == 2 {
			if sel, ok := ast.Unparen(call.Args[0]).(*ast.SelectorExpr); ok {
				if v, ok := f.c.info.Uses[sel.Sel].(*types.Var); ok && v.Pkg() != nil && v.Pkg().Path() == "crypto/rand" && v.Name() == "Reader" {
					return call.Args[1]
				}
			}
		}
	}
	return nil
}

// readInto records that call fills buf with random bytes.
func (f *flow) readInto(call *ast.CallExpr, buf ast.Expr) bool {
	id := rootIdent(buf)
	if id == nil {
		return false
	}
	o := f.obj(id)
	if o == nil || f.vars[o] != nil || f.lazy(call, id) {
		return false
	}
	f.vars[o] = call
	return true
}

// rootIdent returns the variable at the root of b, b[:], &b.
func rootIdent(e ast.Expr) *ast.Ident {
	for e != nil {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return x
		case *ast.SliceExpr:
			e = x.X
		case *ast.UnaryExpr:
			e = x.X
		default:
			return nil
		}
	}
	return nil
}

func (f *flow) obj(id *ast.Ident) types.Object {
	if id.Name == "_" {
		return nil
	}
	if o := f.c.info.Defs[id]; o != nil {
		return o
	}
	return f.c.info.Uses[id]
}

func compositeOf(e ast.Expr) *ast.CompositeLit {
	if e == nil {
		return nil
	}
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	lit, _ := e.(*ast.CompositeLit)
	return lit
}

// fresh returns the origin of e's value when it is fresh: the minting call,
// or a source parameter's name. It returns nil otherwise.
func (f *flow) fresh(e ast.Expr) ast.Node {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if o := f.c.info.Uses[e]; o != nil {
			if o == f.counter {
				return e
			}
			return f.vars[o]
		}
	case *ast.SelectorExpr:
		if id, ok := ast.Unparen(e.X).(*ast.Ident); ok {
			if o := f.c.info.Uses[id]; o != nil && f.fields[o] != nil {
				return f.fields[o][e.Sel.Name]
			}
		}
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return f.fresh(e.X)
		}
	case *ast.StarExpr:
		return f.fresh(e.X)
	case *ast.SliceExpr:
		return f.fresh(e.X)
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			x, y := f.fresh(e.X), f.fresh(e.Y)
			if _, minted := x.(*ast.CallExpr); minted || y == nil {
				return x
			}
			return y
		}
	case *ast.CompositeLit:
		t := f.c.info.TypeOf(e)
		if t == nil {
			return nil
		}
		switch t.Underlying().(type) {
		case *types.Slice, *types.Array:
			for _, elt := range e.Elts {
				if kv, ok := elt.(*ast.KeyValueExpr); ok {
					elt = kv.Value
				}
				if o := f.fresh(elt); o != nil {
					return o
				}
			}
		}
	case *ast.CallExpr:
		return f.freshCall(e)
	}
	return nil
}

func (f *flow) freshCall(call *ast.CallExpr) ast.Node {
	info := f.c.info
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		if len(call.Args) == 1 {
			return f.fresh(call.Args[0]) // string(b), Key(s)
		}
		return nil
	}
	fn := typeutil.StaticCallee(info, call)
	if fn == nil {
		return nil
	}
	if f.c.isGenerator(fn) {
		return call
	}
	if derives(fn) {
		// A minting call among the arguments names the finding before
		// the attempt counter does (fmt.Sprint(attempt, uuid.NewString())).
		var found ast.Node
		for _, a := range call.Args {
			if o := f.fresh(a); o != nil {
				if _, minted := o.(*ast.CallExpr); minted {
					return o
				}
				if found == nil {
					found = o
				}
			}
		}
		return found
	}
	sig := fn.Signature()
	if sig.Recv() != nil && derivingMethods[fn.Name()] {
		if fn.FullName() == "(time.Time).Format" && !f.finerThanMinutes(call) {
			return nil // a date or an hour: the same for every attempt, on purpose
		}
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			return f.fresh(sel.X)
		}
	}
	// Pointer helpers: stripe.String(k), aws.String(k), ptr(k), and
	// generic ones (ptr[T any](v T) *T), read in their instantiation.
	if inst, ok := info.TypeOf(call.Fun).(*types.Signature); ok {
		sig = inst
	}
	if len(call.Args) == 1 && sig.Results().Len() == 1 {
		if p, ok := sig.Results().At(0).Type().(*types.Pointer); ok {
			if at := info.TypeOf(call.Args[0]); at != nil && types.Identical(p.Elem(), at) {
				return f.fresh(call.Args[0])
			}
		}
	}
	return nil
}

// returnsFresh reports whether the region's return statements (not those
// of nested function literals) return a fresh first result, apart from
// zero values returned with an error: a helper that sometimes returns a
// value it was given (if existing != "" { return existing }) is not a
// generator.
func (f *flow) returnsFresh() bool {
	fresh, other := false, false
	astq.InspectOwn(f.region, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ReturnStmt:
			if len(n.Results) == 0 {
				other = true
				break
			}
			if _, ok := f.fresh(n.Results[0]).(*ast.CallExpr); ok {
				fresh = true
			} else if !f.zero(n.Results[0]) {
				other = true
			}
		}
		return !other
	})
	return fresh && !other
}

// zero reports whether e is a constant zero value or nil.
func (f *flow) zero(e ast.Expr) bool {
	tv, ok := f.c.info.Types[e]
	if !ok {
		return false
	}
	if tv.IsNil() {
		return true
	}
	if tv.Value == nil {
		return false
	}
	switch tv.Value.Kind() {
	case constant.String:
		return constant.StringVal(tv.Value) == ""
	case constant.Int, constant.Float:
		return constant.Sign(tv.Value) == 0
	}
	return false
}

// sinks returns the key sinks of the region that receive a fresh value.
func (f *flow) sinks() []sink {
	var out []sink
	add := func(node ast.Node, value, target ast.Expr, what string) {
		org := f.fresh(value)
		if org == nil || f.lazy(node, target) {
			return
		}
		out = append(out, sink{origin: org, at: node, what: what})
	}
	info := f.c.info
	names := f.c.names
	ast.Inspect(f.region, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			for _, w := range keys.Writes(info, n) {
				if w.Const && names.Header(w.Name) {
					add(n, w.Value, w.Header, "the "+w.Name+" header")
				}
			}
			f.callSinks(n, add)
			if fn := typeutil.StaticCallee(info, n); fn != nil && f.c.funcs[fn.Origin()] != nil {
				for _, sk := range f.c.mintSinks(fn) {
					out = append(out, sink{origin: n, at: sk.at, what: sk.what, via: fn})
				}
			}
		case *ast.AssignStmt:
			for _, w := range keys.Writes(info, n) {
				if w.Const && names.Header(w.Name) {
					add(n, w.Value, w.Header, "the "+w.Name+" header")
				}
			}
			if len(n.Lhs) == len(n.Rhs) {
				for i, lhs := range n.Lhs {
					sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
					if !ok || !names.Field(sel.Sel.Name) && !keys.RequestIDField(info.TypeOf(sel.X), sel.Sel.Name) {
						continue
					}
					if s, ok := info.Selections[sel]; ok && s.Kind() == types.FieldVal {
						add(n, n.Rhs[i], sel, "field "+sel.Sel.Name)
					}
				}
			}
		case *ast.CompositeLit:
			for _, w := range keys.Writes(info, n) {
				if w.Const && names.Header(w.Name) {
					add(w.Node, w.Value, nil, "the "+w.Name+" header")
				}
			}
			t := info.TypeOf(n)
			if t == nil {
				return true
			}
			if _, ok := t.Underlying().(*types.Struct); !ok {
				return true
			}
			for _, elt := range n.Elts {
				kv, ok := elt.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				if key, ok := kv.Key.(*ast.Ident); ok && (names.Field(key.Name) || keys.RequestIDField(t, key.Name)) {
					add(kv, kv.Value, nil, "field "+key.Name)
				}
			}
		}
		return true
	})
	return out
}

// callSinks finds arguments that become keys: stripe-go's
// SetIdempotencyKey, a parameter named like a key, a helper's parameter
// that reaches a sink.
func (f *flow) callSinks(call *ast.CallExpr, add func(ast.Node, ast.Expr, ast.Expr, string)) {
	fn := typeutil.StaticCallee(f.c.info, call)
	if fn == nil {
		return
	}
	if keys.KeySetter(fn) && len(call.Args) == 1 {
		var target ast.Expr
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && fn.Signature().Recv() != nil {
			target = sel.X
		}
		add(call, call.Args[0], target, names.In(fn, f.c.pass.Pkg))
		return
	}
	sig := fn.Signature()
	params := sig.Params()
	summary := f.c.sinkSummary(fn)
	for i, a := range call.Args {
		pi := i
		if sig.Variadic() && pi >= params.Len()-1 {
			pi = params.Len() - 1
		}
		if pi >= params.Len() {
			break
		}
		p := params.At(pi)
		switch {
		case keys.Param(p.Name()):
			add(call, a, nil, "parameter "+p.Name()+" of "+names.In(fn, f.c.pass.Pkg))
		case summary[pi]:
			add(call, a, nil, "parameter "+p.Name()+" of "+names.In(fn, f.c.pass.Pkg))
		}
	}
}

// lazy reports whether node only runs under a condition that makes its
// value stable across attempts: a test of the target itself
// (if key == "" { key = ... }), or a first-attempt test (if attempt == 0).
func (f *flow) lazy(node ast.Node, target ast.Expr) bool {
	if f.parents == nil {
		f.parents = keys.ParentsOf(f.region) // only when a fresh value is found
	}
	want := ""
	if target != nil {
		want = types.ExprString(target)
	}
	child := node
	for p := f.parents[node]; p != nil; child, p = p, f.parents[p] {
		ifs, ok := p.(*ast.IfStmt)
		if !ok || child == ifs.Cond || child == ifs.Init {
			continue
		}
		if firstAttempt(f.c.info, ifs.Cond) {
			return true
		}
		if want == "" {
			continue
		}
		mentions := false
		ast.Inspect(ifs.Cond, func(n ast.Node) bool {
			if e, ok := n.(ast.Expr); ok && types.ExprString(e) == want {
				mentions = true
			}
			return !mentions
		})
		if mentions {
			return true
		}
	}
	return false
}

// firstAttempt reports whether cond holds only on a first attempt: an
// integer variable compared equal to 0 or 1.
func firstAttempt(info *types.Info, cond ast.Expr) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	if b.Op == token.LAND {
		return firstAttempt(info, b.X) || firstAttempt(info, b.Y)
	}
	if b.Op != token.EQL {
		return false
	}
	for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		id, ok := ast.Unparen(pair[0]).(*ast.Ident)
		if !ok {
			continue
		}
		if _, ok := info.Uses[id].(*types.Var); !ok {
			continue
		}
		tv, ok := info.Types[pair[1]]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
			continue
		}
		if n, ok := constant.Int64Val(tv.Value); ok && (n == 0 || n == 1) {
			if t, ok := info.TypeOf(id).Underlying().(*types.Basic); ok && t.Info()&types.IsInteger != 0 {
				return true
			}
		}
	}
	return false
}

// finerThanMinutes reports whether a (time.Time).Format call's layout is a
// constant that shows seconds or fractions of them.
func (f *flow) finerThanMinutes(call *ast.CallExpr) bool {
	if len(call.Args) != 1 {
		return false
	}
	layout, ok := astq.StringConst(f.c.info, call.Args[0])
	if !ok {
		return false
	}
	return strings.Contains(layout, "05") || strings.Contains(layout, ".000") || strings.Contains(layout, ".999") ||
		strings.Contains(layout, ",000") || strings.Contains(layout, ",999")
}
