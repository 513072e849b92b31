package keyprop

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/internal/suppress"
	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/check"
	"github.com/idemlint/idemlint/passes/internal/flow"
	"github.com/idemlint/idemlint/passes/internal/flow/value"
	"github.com/idemlint/idemlint/passes/internal/keys"
	"github.com/idemlint/idemlint/passes/internal/names"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// Name is the check's name.
const Name = "keyprop"

// Config configures the check.
type Config struct {
	// Scope is the retry model pass to read; nil means retryscope.Analyzer.
	Scope *analysis.Analyzer
	// KeyHeaders are extra request headers that carry an idempotency key.
	KeyHeaders []string
	// KeyFields are extra struct fields that carry an idempotency key.
	KeyFields []string
}

// Analyzer is the check with the default configuration.
var Analyzer = New(&Config{})

// New returns the check for cfg.
func New(cfg *Config) *analysis.Analyzer {
	a := check.New(check.Spec{Doc: Documentation, Scope: cfg.Scope, FactTypes: []analysis.Fact{new(publishFact), new(publishersFact)},
		Run: func(pass *analysis.Pass, res *retryscope.Result) {
			run(pass, res, keys.NewNames(cfg.KeyHeaders, cfg.KeyFields))
		}})
	// the value flow: whether a downstream key is fresh or constant
	a.Requires = append(a.Requires, flow.Analyzer)
	check.KeyFlags(a, &cfg.KeyHeaders, &cfg.KeyFields)
	return a
}

// handler is one function that has an incoming idempotency key.
type handler struct {
	c    *checker
	body *ast.BlockStmt
	// keyVars are the variables of body that hold the incoming key or a
	// value computed from it.
	keyVars map[*types.Var]bool
	// keyStructs are the variables decoded from a protocol's message, each
	// with the field its protocol defines as the key (keys.ProtocolKeyOf).
	keyStructs map[*types.Var]*types.Var
	// pathMaps are the variables that hold the request's route variables.
	pathMaps map[*types.Var]bool
	// name is how the message names the incoming key: the variable it is
	// read into, or the expression that reads it.
	name string
	// regions are the spans of code downstream of the key: the function
	// (the declaration, or a function literal in it) that reads it, or the
	// statements after a decode, to the end of their block. Only their
	// calls, and those of the literals in them, are downstream calls of
	// the key (a test server's handler that reads the header does not key
	// its test's requests).
	regions []span
	// depth is how many calls the key was followed through to body.
	depth int
	// parents are body's nodes' parents, built when a verdict needs a
	// value's SSA form.
	parents keys.Parents
}

// span is a range of source positions; name, when set, names the key that
// is downstream in it (a decoded message's key field).
type span struct {
	from, to token.Pos
	name     string
}

type checker struct {
	pass  *analysis.Pass
	info  *types.Info
	res   *retryscope.Result
	names *keys.Names
	// built are the variables the package assigns a value to: a request
	// among them is made here, an outgoing one.
	built map[*types.Var]bool
	// decls are the package's function declarations.
	decls map[*types.Func]*ast.FuncDecl
	// publishes are the package's functions that publish to JetStream with
	// no message id (publishFact), each with the call that does.
	publishes map[*types.Func]string
	// followed are the calls a key was followed into: a declaration and
	// the parameters that hold it.
	followed map[follow]bool
	// reported are the positions reported, once each.
	reported map[token.Pos]bool
	// engine is the package's SSA form, built when a verdict first needs
	// the value flow (most packages have no handler that sends).
	engine *flow.Handle
	vf     *value.Flow
}

type follow struct {
	decl   *ast.FuncDecl
	params string
}

// maxDepth is how many calls of the package's own functions a key is
// followed through.
const maxDepth = 3

func run(pass *analysis.Pass, res *retryscope.Result, names *keys.Names) {
	c := &checker{pass: pass, info: pass.TypesInfo, res: res, names: names, built: make(map[*types.Var]bool),
		decls: make(map[*types.Func]*ast.FuncDecl), followed: make(map[follow]bool), reported: make(map[token.Pos]bool),
		engine: pass.ResultOf[flow.Analyzer].(*flow.Handle)}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok {
				for _, l := range as.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						if v, ok := c.info.ObjectOf(id).(*types.Var); ok {
							c.built[v] = true
						}
					}
				}
			}
			if vs, ok := n.(*ast.ValueSpec); ok && len(vs.Values) > 0 {
				for _, id := range vs.Names {
					if v, ok := c.info.Defs[id].(*types.Var); ok {
						c.built[v] = true
					}
				}
			}
			return true
		})
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := c.info.Defs[fd.Name].(*types.Func); ok {
					c.decls[fn] = fd
				}
			}
		}
	}
	c.publishes = publishers(pass, c.decls)
	for _, f := range pass.Files {
		if ast.IsGenerated(f) {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if h := c.handler(fd.Body); h != nil {
					h.check()
				}
			}
		}
	}
}

func (c *checker) callee(call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(c.info, call).(*types.Func)
	return fn
}

// source reports whether call reads the incoming key: the Idempotency-Key
// header of a request (Header.Get), the runtime Middleware's lease
// (idempotency.LeaseOf), a step's key (idempotency.StepKey), or a key route
// variable of the request (r.PathValue("txnId")).
func (c *checker) source(call *ast.CallExpr) bool {
	fn := c.callee(call)
	return fn != nil && c.sourceCall(call, fn)
}

// sourceCall is source for a call of fn.
func (c *checker) sourceCall(call *ast.CallExpr, fn *types.Func) bool {
	if keys.Incoming(fn) {
		return true
	}
	if keys.PathValue(fn) && len(call.Args) == 1 {
		name, ok := astq.StringConst(c.info, call.Args[0])
		return ok && keys.PathVar(name)
	}
	if names.IsFull(fn, "(net/http.Header).Get", "(net/http.Header).Values") {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || len(call.Args) != 1 {
			return false
		}
		name, ok := astq.StringConst(c.info, call.Args[0])
		if !ok || !c.names.Header(name) {
			return false
		}
		// the incoming request's header: a request the function receives,
		// not one it builds (nor a response)
		r := keys.RequestOf(c.info, sel.X)
		return r != nil && astq.IsNamed(r.Type(), "net/http", "Request") && !c.built[r]
	}
	return false
}

// source reports whether e reads the incoming key: a source call, or the
// key variable of a map of route variables (vars["txnId"]).
func (h *handler) source(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		return h.c.source(e)
	case *ast.IndexExpr:
		name, ok := astq.StringConst(h.c.info, e.Index)
		return ok && keys.PathVar(name) && h.pathMap(e.X)
	}
	return false
}

// pathMap reports whether e holds the request's route variables: a call of
// mux.Vars, a variable assigned one, or a map of strings that a call
// computes from one (dendrite's URLDecodeMapValues(mux.Vars(req))).
func (h *handler) pathMap(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := h.c.info.Uses[e].(*types.Var)
		return ok && h.pathMaps[v]
	case *ast.CallExpr:
		fn := h.c.callee(e)
		if fn == nil {
			return false
		}
		if keys.PathMap(fn) {
			return true
		}
		res := fn.Signature().Results()
		if res.Len() == 0 || !stringMap(res.At(0).Type()) {
			return false
		}
		for _, a := range e.Args {
			if h.pathMap(a) {
				return true
			}
		}
	}
	return false
}

// stringMap reports whether t is a map of strings to strings.
func stringMap(t types.Type) bool {
	m, ok := t.Underlying().(*types.Map)
	if !ok {
		return false
	}
	k, ok1 := m.Key().Underlying().(*types.Basic)
	v, ok2 := m.Elem().Underlying().(*types.Basic)
	return ok1 && ok2 && k.Kind() == types.String && v.Kind() == types.String
}

// handler returns the handler of body when body reads an incoming key.
func (c *checker) handler(body *ast.BlockStmt) *handler {
	h := c.newHandler(body)
	// The route variables are followed only in a function that reads them:
	// most read none, and the first scan tells.
	if routes := h.scan(); routes {
		h.pathMaps = make(map[*types.Var]bool)
		h.assigned(h.pathMaps, h.pathMap, nil)
		h.regions, h.name, h.keyStructs = nil, "", make(map[*types.Var]*types.Var)
		h.scan()
	}
	if len(h.regions) == 0 {
		return nil
	}
	h.propagate(false)
	return h
}

// scan records the regions downstream of each source of the key in the
// body and of each decode of a protocol's message; it reports whether the
// body reads the request's route variables (mux.Vars).
func (h *handler) scan() (routes bool) {
	stack := []ast.Node{h.body}
	ast.Inspect(h.body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		var fn *types.Func
		switch n := n.(type) {
		case *ast.CallExpr:
			if fn = h.c.callee(n); fn == nil {
				return true
			}
			routes = routes || keys.PathMap(fn)
			h.decode(n, fn, stack)
			if !h.c.sourceCall(n, fn) {
				return true
			}
		case *ast.IndexExpr:
			if h.pathMaps == nil || !h.source(n) {
				return true
			}
		default:
			return true
		}
		region := ast.Node(h.body)
		for i := len(stack) - 1; i >= 0; i-- {
			if lit, ok := stack[i].(*ast.FuncLit); ok {
				region = lit
				break
			}
		}
		h.regions = append(h.regions, span{from: region.Pos(), to: region.End()})
		if h.name == "" {
			h.name = types.ExprString(n.(ast.Expr))
		}
		return true
	})
	return routes
}

func (c *checker) newHandler(body *ast.BlockStmt) *handler {
	return &handler{c: c, body: body, keyVars: make(map[*types.Var]bool), keyStructs: make(map[*types.Var]*types.Var)}
}

// decode records a decode of a protocol's message whose type has a key
// field (json.Unmarshal(data, &payload) of a Matrix ToDeviceMessage): the
// statements after it in its block are downstream of that key.
func (h *handler) decode(call *ast.CallExpr, fn *types.Func, stack []ast.Node) {
	i := keys.Decoded(fn)
	if i < 0 || i >= len(call.Args) {
		return
	}
	u, ok := ast.Unparen(call.Args[i]).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return
	}
	id, ok := ast.Unparen(u.X).(*ast.Ident)
	if !ok {
		return
	}
	v, ok := h.c.info.Uses[id].(*types.Var)
	if !ok {
		return
	}
	field := keys.ProtocolKeyOf(v.Type())
	if field == nil {
		return
	}
	for j := len(stack) - 1; j >= 0; j-- {
		switch b := stack[j].(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			h.keyStructs[v] = field
			name := v.Name() + "." + field.Name()
			h.regions = append(h.regions, span{from: call.Pos(), to: b.End(), name: name})
			if h.name == "" {
				h.name = name
			}
			return
		}
	}
}

// assigned adds to set, to a fixed point, the variables of the body
// assigned a value that is reports true for.
func (h *handler) assigned(set map[*types.Var]bool, is func(ast.Expr) bool, added func(v *types.Var, rhs ast.Expr)) {
	for changed := true; changed; {
		changed = false
		ast.Inspect(h.body, func(n ast.Node) bool {
			var lhs []ast.Expr
			var rhs []ast.Expr
			switch n := n.(type) {
			case *ast.AssignStmt:
				lhs, rhs = n.Lhs, n.Rhs
			case *ast.ValueSpec:
				for _, id := range n.Names {
					lhs = append(lhs, id)
				}
				rhs = n.Values
			default:
				return true
			}
			for i, l := range lhs {
				id, ok := l.(*ast.Ident)
				if !ok {
					continue
				}
				v, _ := h.c.info.ObjectOf(id).(*types.Var)
				if v == nil || set[v] {
					continue
				}
				var r ast.Expr
				if len(lhs) == len(rhs) {
					r = rhs[i]
				} else if len(rhs) == 1 && i == 0 {
					r = rhs[0] // key, err := ParseKey(...); lease, ok := LeaseOf(ctx)
				}
				if r != nil && is(r) {
					set[v] = true
					changed = true
					if added != nil {
						added(v, r)
					}
				}
			}
			return true
		})
	}
}

// propagate adds the variables assigned from the key, to a fixed point;
// unless named, the first one read straight from a source names the key.
func (h *handler) propagate(named bool) {
	h.assigned(h.keyVars, h.fromKey, func(v *types.Var, r ast.Expr) {
		if named || !h.source(r) {
			return
		}
		h.name, named = v.Name(), true
		if call, ok := ast.Unparen(r).(*ast.CallExpr); ok {
			if fn := h.c.callee(call); fn != nil && fn.Name() == "LeaseOf" {
				h.name = v.Name() + ".Key"
			}
		}
	})
}

// fromKey reports whether e is computed from the incoming key: it reads
// it, or uses a variable that holds it, or the key field of a decoded
// message (a whole decoded message counts: it carries the key).
func (h *handler) fromKey(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr, *ast.IndexExpr:
			if h.source(n.(ast.Expr)) {
				found = true
			}
		case *ast.SelectorExpr:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
				if v, ok := h.c.info.Uses[id].(*types.Var); ok {
					if field, ok := h.keyStructs[v]; ok {
						if h.c.info.Uses[n.Sel] == field {
							found = true
						}
						return false // another field of it is no key
					}
				}
			}
		case *ast.Ident:
			if v, ok := h.c.info.Uses[n].(*types.Var); ok && (h.keyVars[v] || h.keyStructs[v] != nil) {
				found = true
			}
		}
		return !found
	})
	return found
}

// value returns the SSA value of e, an expression of the handler's body;
// nil when the package has no SSA form or e has none.
func (h *handler) value(e ast.Expr) ssa.Value {
	c := h.c
	if c.vf == nil {
		p := c.engine.Get()
		if p == nil {
			return nil
		}
		c.vf = value.Of(p)
	}
	if h.parents == nil {
		h.parents = keys.ParentsOf(h.body)
	}
	return c.vf.Expr(c.info, h.parents[e], e)
}

// fresh reports whether v is a new value on every call: a key generator's
// result is among its origins, through every call's arguments and
// receiver (a fresh part makes the whole new, derived or not).
func (h *handler) fresh(v ssa.Value) bool {
	q := &value.Query{Through: func(call *ssa.Call) []ssa.Value { return call.Call.Args }}
	for _, o := range h.c.vf.Origins(v, q) {
		if call, ok := o.(*ssa.Call); ok && !call.Call.IsInvoke() {
			if fn := value.Callee(call); fn != nil && keys.Fresh(fn) {
				return true
			}
		}
	}
	return false
}

// check reports the handler's downstream calls that carry no key or a
// fresh one, and follows the key into the package's own functions it is
// passed to.
func (h *handler) check() {
	ast.Inspect(h.body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if !h.reads(call.Pos()) {
			return true
		}
		if s := h.c.res.Innermost(call.Pos()); s != nil {
			// Inside a retry, a job handler or a consumer: unkeyedpost,
			// keyinloop and jobretry report its unkeyed and fresh keys.
			return true
		}
		if send := retryscope.NonIdempotentSend(h.c.info, h.body, call); send != nil {
			var vals []ast.Expr
			named := true
			if send.Req != nil {
				vals, named = h.headerKeys(send.Req)
			}
			what := send.Method
			if fn := h.c.callee(call); fn != nil {
				what += " through " + names.Of(fn)
			}
			h.verdict(call, what+" sends", "idempotency key", "send idempotency.Derive("+h.keyAt(call.Pos())+", step)", vals, named)
			return true
		}
		if pub := keys.JetStreamPublish(h.c.info, h.body, call); pub != nil {
			if !pub.Opaque {
				h.verdict(call, "`"+types.ExprString(call.Fun)+"` publishes with", "Nats-Msg-Id", "set nats.MsgId(idempotency.Derive("+h.keyAt(call.Pos())+", step))", pub.IDs, true)
			}
			return true
		}
		fn := h.c.callee(call)
		if fn == nil {
			return true
		}
		if stripeCreate(fn) && len(call.Args) > 0 {
			if vals, ok := h.stripeKeys(call.Args[len(call.Args)-1]); ok {
				h.verdict(call, names.Of(fn)+" sends", "idempotency key", "send idempotency.Derive("+h.keyAt(call.Pos())+", step)", vals, true)
			}
			return true
		}
		var passed []int
		for i, a := range call.Args {
			if h.fromKey(a) {
				passed = append(passed, i)
			}
		}
		if len(passed) > 0 {
			h.follow(fn, passed)
			return true
		}
		if h.c.publishesWithoutID(fn) {
			h.report(call, fmt.Sprintf("`%s` publishes with no Nats-Msg-Id; derive its nats.MsgId from %s",
				types.ExprString(call.Fun), h.keyAt(call.Pos())))
		}
		return true
	})
}

// follow checks the package's own function fn, called with the key in the
// parameters passed, as a handler whose key those parameters hold.
func (h *handler) follow(fn *types.Func, passed []int) {
	decl := h.c.decls[fn]
	if decl == nil || h.depth >= maxDepth {
		return
	}
	params := fn.Signature().Params()
	key := follow{decl: decl, params: fmt.Sprint(passed)}
	if h.c.followed[key] {
		return
	}
	h.c.followed[key] = true
	g := h.c.newHandler(decl.Body)
	g.depth = h.depth + 1
	g.regions = []span{{from: decl.Body.Pos(), to: decl.Body.End()}}
	for _, i := range passed {
		if i >= params.Len() || fn.Signature().Variadic() && i >= params.Len()-1 {
			continue
		}
		p := params.At(i)
		if p.Name() == "" || p.Name() == "_" {
			continue
		}
		g.keyVars[p] = true
		if g.name == "" {
			g.name = p.Name()
			if _, ok := p.Type().(*types.Pointer); ok {
				g.name = "*" + p.Name()
			}
		}
	}
	if len(g.keyVars) == 0 {
		return
	}
	g.propagate(true)
	g.check()
}

// keyAt returns how the message names the key downstream at pos: the key
// field of the innermost decode whose statements hold pos, or the
// handler's key.
func (h *handler) keyAt(pos token.Pos) string {
	name, size := h.name, token.Pos(-1)
	for _, r := range h.regions {
		if r.name != "" && r.from <= pos && pos < r.to && (size < 0 || r.to-r.from < size) {
			name, size = r.name, r.to-r.from
		}
	}
	return name
}

// reads reports whether pos is downstream of the key.
func (h *handler) reads(pos token.Pos) bool {
	for _, r := range h.regions {
		if r.from <= pos && pos < r.to {
			return true
		}
	}
	return false
}

// verdict reports the call, which what names ("POST through http.Post
// sends"), when its key values vals (of the kind key) are none, or all
// fresh (a fresh part makes the whole new on every run, derived or not)
// or constant (named: each is known to be a key, not the value of a header
// whose name the check cannot read), with the fix. A value derived from
// the incoming key (derivedKey), or one the check cannot see into, is
// fine.
func (h *handler) verdict(call *ast.CallExpr, what, key, fix string, vals []ast.Expr, named bool) {
	kind := "no"
	if len(vals) > 0 {
		kind = "a constant"
	}
	for _, e := range vals {
		v := h.value(e)
		switch {
		case v != nil && h.fresh(v): // a new key on every run, derived or not
			kind = "a fresh"
		case h.derivedKey(e):
			return
		case !named || v == nil || !h.constant(v):
			return // a value the check cannot see into
		}
	}
	h.report(call, fmt.Sprintf("%s %s %s; %s", what, kind, key, fix))
}

// derivedKey reports whether e, a downstream key, is derived from the
// incoming key: computed from it in any way (concatenated with a step,
// formatted, joined, hashed, idempotency.Derive, through a closure or a
// method of the key, a struct holding it); see fromKey.
func (h *handler) derivedKey(e ast.Expr) bool { return h.fromKey(e) }

// constant reports whether v is the same value on every call whatever the
// incoming key: every origin is a constant string, stripe.String of one
// passed through. Sent downstream, it is one key for every operation: the
// provider answers them all with the first one's result.
func (h *handler) constant(v ssa.Value) bool {
	q := &value.Query{Through: func(call *ssa.Call) []ssa.Value {
		if fn := value.Callee(call); fn != nil && !call.Call.IsInvoke() && keys.KeyedAPI(fn) && fn.Name() == "String" && len(call.Call.Args) == 1 {
			return call.Call.Args
		}
		return nil
	}}
	origins := h.c.vf.Origins(v, q)
	for _, o := range origins {
		switch o := o.(type) {
		case *ssa.Const:
			if o.Value == nil || o.Value.Kind() != constant.String {
				return false
			}
		case *ssa.Call:
			if len(q.Through(o)) == 0 {
				return false
			}
		default:
			return false
		}
	}
	return len(origins) > 0 && !q.Exhausted
}

// report reports the call once.
func (h *handler) report(call *ast.CallExpr, msg string) {
	if h.c.reported[call.Pos()] {
		return
	}
	h.c.reported[call.Pos()] = true
	suppress.Report(h.c.pass, Name, analysis.Diagnostic{Pos: call.Pos(), End: call.End(), Message: msg})
}

// headerKeys returns the values the handler writes into req's key headers
// (a write of a header whose name is not constant counts as a key the
// check cannot see into), and whether every such write names its header.
func (h *handler) headerKeys(req *types.Var) (out []ast.Expr, named bool) {
	named = true
	ast.Inspect(h.body, func(n ast.Node) bool {
		for _, w := range keys.Writes(h.c.info, n) {
			if r := keys.RequestOf(h.c.info, w.Header); r != nil && r != req {
				continue
			}
			if !w.Const || h.c.names.Header(w.Name) {
				out = append(out, w.Value)
				named = named && w.Const
			}
		}
		return true
	})
	return out, named
}

// stripeCreate reports whether fn is a stripe-go call that creates or
// moves money: New, Capture or Confirm of a resource package.
func stripeCreate(fn *types.Func) bool {
	if !keys.KeyedAPI(fn) {
		return false
	}
	switch fn.Name() {
	case "New", "Capture", "Confirm":
		return true
	}
	return false
}

// stripeKeys returns the idempotency keys set on the params e, a variable
// the handler assigns once from a literal: key fields of the literal (and
// of its embedded Params), SetIdempotencyKey calls and key field
// assignments. It reports false when the params cannot be followed.
func (h *handler) stripeKeys(e ast.Expr) ([]ast.Expr, bool) {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil, false
	}
	v, ok := h.c.info.Uses[id].(*types.Var)
	if !ok {
		return nil, false
	}
	rhs := astq.Assignments(h.c.info, h.body, v)
	if len(rhs) != 1 {
		return nil, false
	}
	u, ok := ast.Unparen(rhs[0]).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return nil, false
	}
	lit, ok := ast.Unparen(u.X).(*ast.CompositeLit)
	if !ok {
		return nil, false
	}
	var out []ast.Expr
	ast.Inspect(lit, func(n ast.Node) bool {
		if kv, ok := n.(*ast.KeyValueExpr); ok {
			if k, ok := kv.Key.(*ast.Ident); ok && h.c.names.Field(k.Name) {
				out = append(out, kv.Value)
			}
		}
		return true
	})
	ast.Inspect(h.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
			if ok && sel.Sel.Name == "SetIdempotencyKey" && len(n.Args) == 1 && keys.RootedAt(h.c.info, sel.X, v) {
				out = append(out, n.Args[0])
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
				if ok && h.c.names.Field(sel.Sel.Name) && keys.RootedAt(h.c.info, sel.X, v) && len(n.Lhs) == len(n.Rhs) {
					out = append(out, n.Rhs[i])
				}
			}
		}
		return true
	})
	return out, true
}
