package keyinloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/passes/internal/flow/value"
	"github.com/idemlint/idemlint/passes/internal/keys"
	"github.com/idemlint/idemlint/passes/internal/names"
)

// flow finds the fresh values that reach key sinks in one region of code:
// a retry scope's body, or a helper's body. The sinks are found on the
// syntax (header writes, key fields, key parameters); where a sink's value
// comes from is the engine's value flow (flow/value): a value is fresh when
// one of its origins is a call of a generator made in the region, unless
// that call only runs while its target is still unset (a lazy
// initialisation) or only on the first attempt.
type flow struct {
	c       *checker
	region  *ast.BlockStmt
	decl    *ast.FuncDecl // the region's function, for a helper's parameters
	calls   map[token.Pos]*ast.CallExpr
	parents keys.Parents
	// counter is the variable the retry loop counts its attempts in
	// (retryscope's Scope.Counter): a key built from it is new on every
	// attempt.
	counter types.Object
}

// newFlow prepares a flow over region; decl, when given, is the function
// whose parameters are sources too (a helper's summary).
func (c *checker) newFlow(region *ast.BlockStmt, decl *ast.FuncDecl) *flow {
	f := &flow{c: c, region: region, decl: decl, calls: make(map[token.Pos]*ast.CallExpr)}
	ast.Inspect(region, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			f.calls[call.Lparen] = call
		}
		return true
	})
	return f
}

// sinkOrigin returns the fresh origin (see origin) of e, whose parent node
// is parent, written at node into target; nil when node runs lazily.
func (f *flow) sinkOrigin(node, parent ast.Node, e, target ast.Expr) ast.Node {
	if f.lazy(node, target) {
		return nil
	}
	vf := f.c.values()
	if vf == nil {
		return nil
	}
	return f.origin(vf.Expr(f.c.info, parent, e), e)
}

// origin returns where the value v of expression e comes from when it is
// fresh: the minting call (preferred), an attempt counter's use in e, or,
// in a helper's summary, the name of a parameter. It returns nil
// otherwise.
func (f *flow) origin(v ssa.Value, e ast.Expr) ast.Node {
	if v == nil {
		return nil
	}
	q := &value.Query{Through: f.through, Stop: f.isCounter}
	var minted *ast.CallExpr
	counter, param := false, ast.Node(nil)
	for _, o := range f.c.vf.Origins(v, q) {
		switch o := o.(type) {
		case *ssa.Call:
			if call := f.mint(o); call != nil && (minted == nil || call.Pos() < minted.Pos()) {
				minted = call
			}
		case *ssa.Alloc, *ssa.MakeSlice:
			if call := f.filled(o); call != nil && (minted == nil || call.Pos() < minted.Pos()) {
				minted = call
			}
		case *ssa.Parameter:
			if f.decl != nil && o.Parent() == f.c.vf.P.Func(f.decl) {
				param = f.paramIdent(o)
			}
		}
		if f.isCounter(o) {
			counter = true
		}
	}
	switch {
	case minted != nil:
		return minted
	case counter:
		if id := f.counterUse(e); id != nil {
			return id
		}
	case param != nil:
		return param
	}
	return nil
}

// mint returns the syntax of call when it calls a generator in the region
// and does not run lazily.
func (f *flow) mint(call *ssa.Call) *ast.CallExpr {
	fn := staticCallee(call)
	if fn == nil || !f.c.isGenerator(fn) {
		return nil
	}
	syn := f.calls[call.Call.Pos()]
	if syn == nil || f.lazyCall(syn) {
		return nil
	}
	return syn
}

// filled returns the call of the region that fills buf with random bytes:
// crypto/rand.Read(b), math/rand.Read(b), io.ReadFull(crypto/rand.Reader, b).
func (f *flow) filled(buf ssa.Value) *ast.CallExpr {
	var first *ast.CallExpr
	for _, u := range f.c.vf.Uses(buf, nil) {
		call, ok := u.Instr.(*ssa.Call)
		if !ok || !fills(call, u.Value) {
			continue
		}
		syn := f.calls[call.Call.Pos()]
		if syn == nil || len(syn.Args) == 0 {
			continue
		}
		if id := rootIdent(syn.Args[len(syn.Args)-1]); id == nil || f.lazy(syn, id) {
			continue
		}
		if first == nil || syn.Pos() < first.Pos() {
			first = syn
		}
	}
	return first
}

// fills reports whether call fills buf, its last argument, with random
// bytes.
func fills(call *ssa.Call, buf ssa.Value) bool {
	args := call.Call.Args
	if len(args) == 0 || args[len(args)-1] != buf {
		return false
	}
	fn := staticCallee(call)
	if fn == nil {
		return false
	}
	switch fn.FullName() {
	case "crypto/rand.Read", "math/rand.Read", "(*math/rand.Rand).Read":
		return true
	case "io.ReadFull":
		if len(args) != 2 {
			return false
		}
		r := args[0]
		if mi, ok := r.(*ssa.MakeInterface); ok {
			r = mi.X
		}
		if ld, ok := r.(*ssa.UnOp); ok && ld.Op == token.MUL {
			if g, ok := ld.X.(*ssa.Global); ok {
				v, _ := g.Object().(*types.Var)
				return v != nil && v.Pkg() != nil && v.Pkg().Path() == "crypto/rand" && v.Name() == "Reader"
			}
		}
	}
	return false
}

// through returns the values a call's result derives from: the arguments
// of an encoding or a formatting, the receiver of a method that turns it
// into a string or a number, the argument of a pointer helper
// (stripe.String(k), aws.String(k), ptr[T any](v T) *T). A generator's
// call derives from nothing: it is the origin.
func (f *flow) through(call *ssa.Call) []ssa.Value {
	fn := staticCallee(call)
	if fn == nil || f.c.isGenerator(fn) {
		return nil
	}
	args := call.Call.Args
	sig := call.Call.Signature()
	recv := sig.Recv() != nil
	if recv && len(args) > 0 {
		args = args[1:]
	}
	if derives(fn) {
		return args
	}
	if recv && derivingMethods[fn.Name()] {
		if fn.FullName() == "(time.Time).Format" && !finerThanMinutes(args) {
			return nil // a date or an hour: the same for every attempt, on purpose
		}
		return call.Call.Args[:1]
	}
	if len(args) == 1 && sig.Results().Len() == 1 {
		if p, ok := sig.Results().At(0).Type().(*types.Pointer); ok && types.Identical(p.Elem(), args[0].Type()) {
			return args
		}
	}
	return nil
}

// staticCallee returns the function a call statically calls (generic
// instances by their origin); nil for an interface method or a dynamic
// call.
func staticCallee(call *ssa.Call) *types.Func {
	if call.Call.IsInvoke() {
		return nil
	}
	return value.Callee(call)
}

// isCounter reports whether v is the attempt counter's variable: its phi,
// or its cell when a closure captures it, both at the variable's
// declaration.
func (f *flow) isCounter(v ssa.Value) bool {
	if f.counter == nil {
		return false
	}
	switch v.(type) {
	case *ssa.Phi, *ssa.Alloc:
		return v.Pos() == f.counter.Pos()
	}
	return false
}

// counterUse returns the first use of the counter in e.
func (f *flow) counterUse(e ast.Expr) *ast.Ident {
	var found *ast.Ident
	if e == nil {
		return nil
	}
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && found == nil && f.c.info.Uses[id] == f.counter {
			found = id
		}
		return found == nil
	})
	return found
}

// paramIdent returns the name of parameter p in the region's function
// declaration.
func (f *flow) paramIdent(p *ssa.Parameter) ast.Node {
	for _, field := range f.decl.Type.Params.List {
		for _, id := range field.Names {
			if f.c.info.Defs[id] == p.Object() {
				return id
			}
		}
	}
	return nil
}

// lazyCall reports whether the minting call only runs while the variable
// or field it is assigned to is still unset, or on the first attempt.
func (f *flow) lazyCall(call *ast.CallExpr) bool {
	if f.lazy(call, nil) {
		return true
	}
	f.ensureParents()
	for n := ast.Node(call); n != nil; n = f.parents[n] {
		switch st := n.(type) {
		case *ast.AssignStmt:
			for _, lhs := range st.Lhs {
				if f.lazy(st, lhs) {
					return true
				}
			}
			return false
		case *ast.ValueSpec, ast.Stmt:
			return false
		}
	}
	return false
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

// returnsFresh reports whether fn's returns return a fresh first result,
// apart from zero values returned with an error: a helper that sometimes
// returns a value it was given (if existing != "" { return existing }) is
// not a generator.
func (f *flow) returnsFresh(fn *ssa.Function) bool {
	fresh := false
	for _, r := range value.Returns(fn) {
		if len(r.Results) == 0 {
			return false
		}
		if _, ok := f.origin(r.Results[0], nil).(*ast.CallExpr); ok {
			fresh = true
		} else if !zero(r.Results[0]) {
			return false
		}
	}
	return fresh
}

// zero reports whether v is a constant zero value or nil.
func zero(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	if !ok {
		return false
	}
	if c.Value == nil {
		return true
	}
	switch c.Value.Kind() {
	case constant.String:
		return constant.StringVal(c.Value) == ""
	case constant.Int, constant.Float:
		return constant.Sign(c.Value) == 0
	}
	return false
}

// sinks returns the key sinks of the region that receive a fresh value.
func (f *flow) sinks() []sink {
	var out []sink
	add := func(node, parent ast.Node, e, target ast.Expr, what string) {
		if org := f.sinkOrigin(node, parent, e, target); org != nil {
			out = append(out, sink{origin: org, at: node, what: what})
		}
	}
	info := f.c.info
	names := f.c.names
	headers := func(n ast.Node) {
		for _, w := range keys.Writes(info, n) {
			if w.Const && names.Header(w.Name) {
				at := w.Node
				if _, lit := n.(*ast.CompositeLit); !lit {
					at = n
				}
				add(at, w.Node, w.Value, w.Header, "the "+w.Name+" header")
			}
		}
	}
	ast.Inspect(f.region, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			headers(n)
			f.callSinks(n, add)
			if fn := typeutil.StaticCallee(info, n); fn != nil && f.c.funcs[fn.Origin()] != nil {
				for _, sk := range f.c.mintSinks(fn) {
					out = append(out, sink{origin: n, at: sk.at, what: sk.what, via: fn})
				}
			}
		case *ast.AssignStmt:
			headers(n)
			if len(n.Lhs) == len(n.Rhs) {
				for i, lhs := range n.Lhs {
					sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
					if !ok || !names.Field(sel.Sel.Name) && !keys.RequestIDField(info.TypeOf(sel.X), sel.Sel.Name) {
						continue
					}
					if s, ok := info.Selections[sel]; ok && s.Kind() == types.FieldVal {
						add(n, n, n.Rhs[i], sel, "field "+sel.Sel.Name)
					}
				}
			}
		case *ast.CompositeLit:
			headers(n)
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
					add(kv, kv, kv.Value, nil, "field "+key.Name)
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
func (f *flow) callSinks(call *ast.CallExpr, add func(ast.Node, ast.Node, ast.Expr, ast.Expr, string)) {
	fn := typeutil.StaticCallee(f.c.info, call)
	if fn == nil {
		return
	}
	if keys.KeySetter(fn) && len(call.Args) == 1 {
		var target ast.Expr
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && fn.Signature().Recv() != nil {
			target = sel.X
		}
		add(call, call, call.Args[0], target, names.In(fn, f.c.pass.Pkg))
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
		if keys.Param(p.Name()) || summary[pi] {
			add(call, call, a, nil, "parameter "+p.Name()+" of "+names.In(fn, f.c.pass.Pkg))
		}
	}
}

func (f *flow) ensureParents() {
	if f.parents == nil {
		f.parents = keys.ParentsOf(f.region)
	}
}

// lazy reports whether node only runs under a condition that makes its
// value stable across attempts: a test of the target itself
// (if key == "" { key = ... }), or a first-attempt test (if attempt == 0).
func (f *flow) lazy(node ast.Node, target ast.Expr) bool {
	if node == nil {
		return false
	}
	f.ensureParents()
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

// finerThanMinutes reports whether a (time.Time).Format call's layout, its
// one argument, is a constant that shows seconds or fractions of them.
func finerThanMinutes(args []ssa.Value) bool {
	if len(args) != 1 {
		return false
	}
	c, ok := args[0].(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.String {
		return false
	}
	layout := constant.StringVal(c.Value)
	return strings.Contains(layout, "05") || strings.Contains(layout, ".000") || strings.Contains(layout, ".999") ||
		strings.Contains(layout, ",000") || strings.Contains(layout, ",999")
}
