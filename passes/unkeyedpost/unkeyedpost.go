package unkeyedpost

import (
	"cmp"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"unicode/utf8"

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
const Name = "unkeyedpost"

// Config configures the check.
type Config struct {
	// Scope is the retry model pass to read; nil means retryscope.Analyzer.
	Scope *analysis.Analyzer
	// KeyHeaders are extra request headers that carry an idempotency key,
	// besides Idempotency-Key and X-Idempotency-Key (case-insensitive).
	KeyHeaders []string
}

// Analyzer is the check with the default configuration.
var Analyzer = New(&Config{})

// New returns the check for cfg. The analyzer reads cfg when it runs.
func New(cfg *Config) *analysis.Analyzer {
	a := check.New(check.Spec{Doc: Documentation, Scope: cfg.Scope,
		Run: func(pass *analysis.Pass, res *retryscope.Result) { run(pass, res, cfg) }})
	// the value flow: where a request's parts come from and go to
	a.Requires = append(a.Requires, flow.Analyzer)
	check.KeyFlags(a, &cfg.KeyHeaders, nil)
	return a
}

// retrying marks a send of a retrying client whose API mirrors net/http's
// (retryscope.HTTPMirror): "retrying (*net/http.Client).Do".
const retrying = "retrying "

// checker holds what one run knows about the package.
type checker struct {
	pass  *analysis.Pass
	info  *types.Info
	res   *retryscope.Result
	names *keys.Names
	funcs map[*types.Func]*ast.FuncDecl
	// keyedParams lists, per package function, the parameters on which it
	// sets a key header (or may: it passes them on to unknown code).
	keyedParams map[*types.Func]map[int]bool
	// sendsParams lists, per package function, the request parameters it
	// sends with (*net/http.Client).Do without a key.
	sendsParams map[*types.Func]map[int]bool
	// copies lists, per package function, the header parameters it
	// copies another header parameter into (copies.go).
	copies map[*types.Func]map[int]int
	// inKeySummary is set while keyedParams is computed: a copy of a
	// parameter is then judged at the helper's call sites.
	inKeySummary bool
	// postHelpers maps the package functions that send an unkeyed POST or
	// PATCH they build themselves to its method.
	postHelpers map[*types.Func]string
	// keysAbove counts, per retry scope, the keys the fixes mint above it:
	// each request of a scope gets a key of its own (key, key2, ...), as a
	// server rejects one key sent with two different requests.
	keysAbove map[*retryscope.Scope]int
	parents   keys.ParentIndex
	file      *ast.File
	// viaParams lets resolve follow a request or method parameter to the
	// package's call sites (not while summarising helpers: a helper that
	// sends what its caller gives is no POST helper); depth bounds it.
	viaParams bool
	depth     int
	// bound maps the parameters of the request builders being resolved
	// to the arguments of the call that is.
	bound map[*types.Var]retryscope.Arg
	// engine is the package's SSA form, built when a question of the
	// value flow is first met (values); vf is its value flow.
	engine *flow.Handle
	vf     *value.Flow
	// paramDecl maps the parameters of the package's function
	// declarations to their declaration (argsOf).
	paramDecl map[*types.Var]*ast.FuncDecl
}

func run(pass *analysis.Pass, res *retryscope.Result, cfg *Config) {
	if len(res.Scopes()) == 0 {
		return
	}
	c := &checker{
		pass: pass, info: pass.TypesInfo, res: res,
		names:       keys.NewNames(cfg.KeyHeaders, nil),
		funcs:       make(map[*types.Func]*ast.FuncDecl),
		keyedParams: make(map[*types.Func]map[int]bool),
		sendsParams: make(map[*types.Func]map[int]bool),
		copies:      make(map[*types.Func]map[int]int),
		postHelpers: make(map[*types.Func]string),
		parents:     make(keys.ParentIndex),
		engine:      pass.ResultOf[flow.Analyzer].(*flow.Handle),
	}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := c.info.Defs[fd.Name].(*types.Func); ok {
					c.funcs[fn] = fd
				}
			}
		}
	}
	c.summarise()
	c.viaParams = true
	for _, f := range pass.Files {
		if ast.IsGenerated(f) {
			continue
		}
		c.file = f
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					if s := c.send(fd, call); s != nil {
						c.check(fd, s)
					}
				}
				return true
			})
		}
	}
	c.checkClientFields()
}

// summarise finds the package's helpers that key a request parameter and
// those that send one.
func (c *checker) summarise() {
	c.findCopies()
	c.inKeySummary = true
	for range 3 {
		changed := false
		for fn, fd := range c.funcs {
			for id, i := range astq.Params(c.info, fd) {
				o := c.info.Defs[id]
				if !isRequestish(o.Type()) {
					continue
				}
				if p := c.param(fd, o); !c.keyedParams[fn][i] && p != nil && c.keyed(fd, p) {
					set(c.keyedParams, fn, i)
					changed = true
				}
			}
		}
		if !changed {
			break
		}
	}
	c.inKeySummary = false
	for fn, fd := range c.funcs {
		for id, i := range astq.Params(c.info, fd) {
			o := c.info.Defs[id]
			if !isRequest(o.Type(), "net/http") || c.keyedParams[fn][i] {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) != 1 {
					return true
				}
				if _, _, through := c.transportSend(call); !through && c.calleeName(call) != "(*net/http.Client).Do" {
					return true
				}
				// the request sent is the parameter, or a copy of it
				if p := c.param(fd, o); p != nil && c.base(c.vf.Arg(call, 0)) == ssa.Value(p) {
					set(c.sendsParams, fn, i)
				}
				return true
			})
		}
	}
	// Helpers that build and send an unkeyed POST themselves, and helpers
	// of those.
	for range 2 {
		changed := false
		for fn, fd := range c.funcs {
			if c.postHelpers[fn] != "" {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if _, ok := n.(*ast.FuncLit); ok || c.postHelpers[fn] != "" {
					return false
				}
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if s := c.send(fd, call); s != nil && !c.keyedSend(fd, s) {
					c.postHelpers[fn] = s.method
					changed = true
				}
				return true
			})
		}
		if !changed {
			break
		}
	}
}

// keyedSend reports whether s's request carries (or may carry) a key.
func (c *checker) keyedSend(fd *ast.FuncDecl, s *sendInfo) bool {
	defer c.withVia(s.via)()
	if s.req != nil && c.keyed(fd, c.reqValue(s)) {
		return true
	}
	return s.built != nil && c.builtKeyed(s.built)
}

func set(m map[*types.Func]map[int]bool, fn *types.Func, i int) {
	if m[fn] == nil {
		m[fn] = make(map[int]bool)
	}
	m[fn][i] = true
}

// sendInfo is one send of a non-idempotent request.
type sendInfo struct {
	call   *ast.CallExpr
	entry  string // full name of the sending function
	name   string // its name as messages spell it
	method string
	// req is the request argument; nil for Post and PostForm.
	req ast.Expr
	// built is the request's construction, when found: the NewRequest call
	// or the &http.Request{} literal.
	built ast.Expr
	// client is the retrying client's scope for go-retryablehttp sends.
	client *retryscope.Scope
	// helper is set when a package helper sends the request.
	helper bool
	// from is set when the request or its method is a parameter of the
	// sending function: the package call site that passes a POST or PATCH.
	from *ast.CallExpr
	// via are the package call sites the request or its method was
	// followed through, from ... to from: the headers they pass are
	// judged along them (copies.go).
	via []retryscope.Arg
	// indirect is set when the request is built in another function (a
	// caller, or a request builder of the package): no fix.
	indirect bool
	// anyMethod is set when the request is the caller's (a parameter of
	// an exported function, an exported field of the receiver of an
	// exported method) and nothing in the package fixes or tests its
	// method: the retry re-sends POSTs as well as GETs. origin is that
	// parameter or field.
	anyMethod bool
	origin    ast.Expr
	// fd is the function declaration the request expressions belong to;
	// at, when valid, is where req is read (else at call).
	fd *ast.FuncDecl
	at token.Pos
}

// send classifies call as a send of a POST or PATCH request, or returns nil.
func (c *checker) send(fd *ast.FuncDecl, call *ast.CallExpr) *sendInfo {
	if req, name, ok := c.transportSend(call); ok {
		s := &sendInfo{call: call, entry: name, name: name, req: req}
		if !c.resolve(fd, s) {
			return nil
		}
		return s
	}
	fn := typeutil.StaticCallee(c.info, call)
	if fn == nil {
		return nil
	}
	s := &sendInfo{call: call, entry: fn.FullName(), name: names.In(fn, c.pass.Pkg)}
	recv := func() ast.Expr {
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			return sel.X
		}
		return nil
	}
	if retryscope.PipelineSend(fn) {
		// req.Next(): a pipeline policy sends the request on
		if s.req = recv(); s.req == nil || !c.resolve(fd, s) {
			return nil
		}
		return s
	}
	entry := s.entry
	if m, ok := retryscope.HTTPMirror(entry); ok {
		entry = retrying + m
	}
	switch entry {
	case "net/http.Post", "net/http.PostForm":
		s.method = "POST"
		return s
	case "(*net/http.Client).Post", "(*net/http.Client).PostForm":
		s.method = "POST"
		s.client = c.standardClientScope(c.recvValue(call))
		return s
	case "(*net/http.Client).Do":
		s.client = c.standardClientScope(c.recvValue(call))
		s.req = call.Args[0]
	case retrying + "net/http.Post", retrying + "net/http.PostForm":
		if sc := c.res.Of(call); sc != nil && sc.Kind == retryscope.Client {
			s.method, s.client = "POST", sc
			return s
		}
		return nil
	case retrying + "(*net/http.Client).Post", retrying + "(*net/http.Client).PostForm":
		s.client = c.clientScope(c.recvValue(call))
		if s.client == nil {
			return nil
		}
		s.method = "POST"
		return s
	case retrying + "(*net/http.Client).Do":
		s.client = c.clientScope(c.recvValue(call))
		if s.client == nil {
			return nil
		}
		s.req = call.Args[0]
	default:
		if m := c.postHelpers[fn.Origin()]; m != "" {
			s.method = m
			return s
		}
		for i := range c.sendsParams[fn.Origin()] {
			if i < len(call.Args) {
				s.req, s.helper = call.Args[i], true
			}
		}
		if s.req == nil {
			if c.sentBy(fd, s, fn) {
				return s
			}
			return nil
		}
	}
	if !c.resolve(fd, s) {
		return nil
	}
	return s
}

// recvValue returns the SSA value of call's receiver; nil when the package
// has no SSA form.
func (c *checker) recvValue(call *ast.CallExpr) ssa.Value {
	if c.values() == nil {
		return nil
	}
	return c.vf.Recv(call)
}

// clientScope returns the retrying-client scope the client v comes from
// (flow/value): its construction (retryablehttp.NewClient(),
// &retryablehttp.Client{...}), or a field a constructor of the package
// stored one in.
func (c *checker) clientScope(v ssa.Value) *retryscope.Scope {
	switch x := c.local(v, token.NoPos).(type) {
	case *ssa.Call:
		if st, ok := c.siteOf(x, nil); ok {
			if sc := c.res.Of(st.syn); sc != nil && sc.Kind == retryscope.Client {
				return sc
			}
		}
	case *ssa.Alloc:
		if lit := c.litAt(x); lit != nil {
			if sc := c.res.Of(lit); sc != nil && sc.Kind == retryscope.Client {
				return sc
			}
		}
	case *ssa.UnOp:
		// A client a constructor of the package stored in a field.
		if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL {
			if f := value.FieldVar(fa.X.Type(), fa.Field); f != nil {
				return c.res.FieldClient(f)
			}
		}
	}
	return nil
}

// standardClientScope returns the retrying-client scope behind an
// *http.Client v obtained with (*retryablehttp.Client).StandardClient().
func (c *checker) standardClientScope(v ssa.Value) *retryscope.Scope {
	call, ok := c.local(v, token.NoPos).(*ssa.Call)
	if !ok || call.Call.IsInvoke() || len(call.Call.Args) == 0 || !retryscope.MirrorsHTTP(value.Callee(call), "(*net/http.Client).StandardClient") {
		return nil
	}
	return c.clientScope(call.Call.Args[0])
}

// local returns the value v holds through the cell of a local variable (a
// variable a closure captures, or whose address is taken): the one value
// stored into it (flow/value's CellStores, its closures' included), or,
// when before is valid and it is assigned several times, the last stored
// before that position, as the source reads; v otherwise.
func (c *checker) local(v ssa.Value, before token.Pos) ssa.Value {
	for range 8 {
		ld, ok := v.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL || c.vf == nil {
			return v
		}
		cell := c.vf.Cell(ld.X)
		if _, global := cell.(*ssa.Global); cell == nil || global {
			return v
		}
		var last *ssa.Store
		n := 0
		for _, st := range c.vf.CellStores(cell) {
			if _, elem := st.Addr.(*ssa.IndexAddr); elem {
				continue
			}
			n++
			if p := storePos(st); before.IsValid() && p < before && (last == nil || p > storePos(last)) || !before.IsValid() {
				last = st
			}
		}
		if last == nil || n > 1 && !before.IsValid() {
			return v
		}
		v, before = last.Val, storePos(last)
	}
	return v
}

// storePos returns where a store takes effect as the source reads it: at
// the call whose result it stores (after the call's operands are read),
// else at the store.
func storePos(st *ssa.Store) token.Pos {
	if p := valuePos(st.Val); p.IsValid() {
		return p
	}
	return st.Pos()
}

// litAt returns the composite literal the cell a is built for (&T{...}),
// or nil.
func (c *checker) litAt(a *ssa.Alloc) *ast.CompositeLit {
	fd := c.vf.P.Decl(a.Parent())
	if fd == nil {
		return nil
	}
	var lit *ast.CompositeLit
	astq.Search(fd, func(n ast.Node, found *bool) bool {
		if l, ok := n.(*ast.CompositeLit); ok && l.Lbrace == a.Pos() {
			lit, *found = l, true
		}
		return !*found
	})
	return lit
}

// resolve finds the construction and the method of s's request, walking
// its value (flow/value) back to a request's construction, a request
// builder of the package, a parameter (its callers' arguments) or a field;
// it reports false when the method is not a constant POST or PATCH.
func (c *checker) resolve(fd *ast.FuncDecl, s *sendInfo) bool {
	return c.resolveFrom(fd, s, c.reqValue(s), s.req)
}

// resolveFrom is resolve from the request's value v, read at e when e is
// not nil.
func (c *checker) resolveFrom(fd *ast.FuncDecl, s *sendInfo, v ssa.Value, e ast.Expr) bool {
	// before is where v is read: a variable assigned several times holds
	// its last assignment in the source before it
	before := s.call.Pos()
	if s.at.IsValid() {
		before = s.at
	}
	for range 8 {
		if v == nil {
			return false
		}
		if l := c.local(v, before); l != v {
			v, e = l, nil
		}
		switch x := v.(type) {
		case *ssa.Phi:
			// A request assigned on several paths is read as its last
			// assignment in the source before it is sent.
			var last ssa.Value
			for _, ed := range x.Edges {
				if p := valuePos(ed); p.IsValid() && p < before && (last == nil || p > valuePos(last)) {
					last = ed
				}
			}
			v, e = last, nil
			if last != nil {
				before = valuePos(last)
			}
			continue
		case *ssa.Extract:
			if x.Index != 0 {
				return false
			}
			v, e = x.Tuple, nil
			continue
		case *ssa.Call:
			st, ok := c.siteOf(x, nil)
			if !ok {
				return false
			}
			call := st.syn
			// A call whose arguments are another call's results,
			// http.NewRequestWithContext(args()), has fewer argument
			// expressions than parameters: its method is not known.
			name, _ := retryscope.HTTPMirror(c.calleeName(call)) // go-retryablehttp's are as net/http's
			switch name {
			case "net/http.NewRequest":
				if len(call.Args) == 3 {
					return c.method(fd, s, call, call.Args[0], c.vf.Arg(call, 0))
				}
			case "net/http.NewRequestWithContext":
				if len(call.Args) == 4 {
					return c.method(fd, s, call, call.Args[1], c.vf.Arg(call, 1))
				}
			case "net/http.FromRequest": // go-retryablehttp's wrapper of an *http.Request
				if len(call.Args) == 1 {
					v, e, before = c.vf.Arg(call, 0), call.Args[0], x.Pos()
					continue
				}
			case "(*net/http.Request).WithContext", "(*net/http.Request).Clone":
				if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
					v, e, before = c.vf.Recv(call), sel.X, x.Pos()
					continue
				}
			}
			if retryscope.PipelineCopy(typeutil.StaticCallee(c.info, call)) { // req.Clone(ctx) of a pipeline's request
				if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
					v, e, before = c.vf.Recv(call), sel.X, x.Pos()
					continue
				}
			}
			return c.builtBy(fd, s, call)
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return false
			}
			fa, ok := x.X.(*ssa.FieldAddr)
			if !ok {
				// copy := *req; return &copy: a copy of the request, its
				// method included
				v, e = x.X, nil
				continue
			}
			sel := c.selectorAt(fd, fa.Pos())
			if sel == nil {
				return false
			}
			// req.Request: the *http.Request a *retryablehttp.Request wraps.
			if sel.Sel.Name == "Request" && retryscope.HTTPMirrorType(c.info.TypeOf(sel.X), "Request") {
				v, e = fa.X, sel.X
				continue
			}
			return c.callersRequest(fd, s, sel)
		case *ssa.Parameter:
			p, _ := x.Object().(*types.Var)
			if p == nil {
				return false
			}
			if c.fromCallers(fd, s, p, func(sub *sendInfo) bool {
				return c.resolve(sub.fd, sub) && !c.keyedSend(sub.fd, sub)
			}) {
				return true
			}
			id, ok := ast.Unparen(e).(*ast.Ident)
			if !ok || c.info.Uses[id] != p {
				id = c.lastUse(fd, p, s)
			}
			if id == nil {
				return false
			}
			return c.callersRequest(fd, s, id)
		case *ssa.Alloc:
			if lit := c.litAt(x); lit != nil && isRequest(c.info.TypeOf(lit), "net/http") {
				for _, elt := range lit.Elts {
					if kv, ok := elt.(*ast.KeyValueExpr); ok {
						if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Method" {
							return c.method(fd, s, lit, kv.Value, c.vf.StoredAt(kv.Colon))
						}
					}
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

// valuePos returns where v is made: a call's, or the call whose result v
// is extracted from.
func valuePos(v ssa.Value) token.Pos {
	if x, ok := v.(*ssa.Extract); ok {
		return x.Tuple.Pos()
	}
	return v.Pos()
}

// selectorAt returns the selector expression of fd whose Sel is at pos.
func (c *checker) selectorAt(fd *ast.FuncDecl, pos token.Pos) *ast.SelectorExpr {
	var sel *ast.SelectorExpr
	astq.Search(fd, func(n ast.Node, found *bool) bool {
		if x, ok := n.(*ast.SelectorExpr); ok && x.Sel.Pos() == pos {
			sel, *found = x, true
		}
		return !*found
	})
	return sel
}

// lastUse returns the last read of the parameter p in fd before s's
// request is read: where the request its callers give is taken.
func (c *checker) lastUse(fd *ast.FuncDecl, p *types.Var, s *sendInfo) *ast.Ident {
	before := s.call.Pos()
	if s.at.IsValid() {
		before = s.at
	}
	var last *ast.Ident
	ast.Inspect(fd, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Pos() < before && c.info.Uses[id] == p {
			last = id
		}
		return true
	})
	return last
}

// fromCallers judges the parameter p of fd by the arguments passed for it
// at the package's call sites (only the current one inside a request
// builder being resolved): judge reports whether one, read in its caller,
// is a POST or PATCH. The first that is gives s its method and s.from
// the call site.
func (c *checker) fromCallers(fd *ast.FuncDecl, s *sendInfo, p *types.Var, judge func(*sendInfo) bool) bool {
	if !c.viaParams || c.depth >= 4 {
		return false
	}
	var args []retryscope.Arg
	if a, ok := c.bound[p]; ok {
		args = []retryscope.Arg{a}
	} else {
		args = c.argsOf(p)
	}
	c.depth++
	defer func() { c.depth-- }()
	for _, a := range args {
		sub := &sendInfo{call: a.Call, entry: s.entry, req: a.Expr, fd: a.Func}
		if !judge(sub) {
			continue
		}
		s.method, s.from, s.indirect, s.built = sub.method, a.Call, true, nil
		s.anyMethod, s.origin = sub.anyMethod, sub.origin
		s.via = append(append([]retryscope.Arg(nil), sub.via...), a)
		if sub.from != nil {
			s.from = sub.from
		}
		return true
	}
	return false
}

// argsOf returns the arguments the package's static call sites pass for
// the parameter p of one of its function declarations (flow/value's call
// sites, each read in the declaration that holds it), in source order.
func (c *checker) argsOf(p *types.Var) []retryscope.Arg {
	if c.paramDecl == nil {
		c.paramDecl = make(map[*types.Var]*ast.FuncDecl)
		for _, fd := range c.funcs {
			for id := range astq.Params(c.info, fd) {
				if v, ok := c.info.Defs[id].(*types.Var); ok {
					c.paramDecl[v] = fd
				}
			}
		}
	}
	decl := c.paramDecl[p]
	if decl == nil || c.values() == nil {
		return nil
	}
	fn := c.vf.P.Func(decl)
	if fn == nil {
		return nil
	}
	sig := fn.Signature
	i := -1
	for j := range sig.Params().Len() {
		if sig.Params().At(j) == p {
			i = j
		}
	}
	if i < 0 {
		return nil
	}
	var out []retryscope.Arg
	for _, call := range c.vf.Sites(fn) {
		st, ok := c.siteOf(call, nil)
		if !ok {
			continue
		}
		if sig.Variadic() && i == sig.Params().Len()-1 {
			if st.syn.Ellipsis.IsValid() {
				continue
			}
			for _, a := range st.syn.Args[min(i, len(st.syn.Args)):] {
				out = append(out, retryscope.Arg{Expr: a, Func: st.fd, Call: st.syn})
			}
		} else if i < len(st.syn.Args) {
			out = append(out, retryscope.Arg{Expr: st.syn.Args[i], Func: st.fd, Call: st.syn})
		}
	}
	slices.SortFunc(out, func(a, b retryscope.Arg) int { return cmp.Compare(a.Expr.Pos(), b.Expr.Pos()) })
	return out
}

// builtBy resolves a request returned by a request builder of the package
// (c.NewRequest(method, path, ...)): the request its return statements
// build, its method read at this call when it is the builder's parameter.
// A builder that sets a key header keys every request it builds.
func (c *checker) builtBy(fd *ast.FuncDecl, s *sendInfo, call *ast.CallExpr) bool {
	fn := typeutil.StaticCallee(c.info, call)
	if fn == nil || !c.viaParams || c.depth >= 4 {
		return false
	}
	bd := c.funcs[fn.Origin()]
	if bd == nil || fn.Signature().Results().Len() == 0 || !isRequestish(fn.Signature().Results().At(0).Type()) {
		return false
	}
	defer c.bind(fd, call, fn)()
	found := false
	ast.Inspect(bd.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || found {
			return false
		}
		ret, ok := n.(*ast.ReturnStmt)
		if !ok || len(ret.Results) == 0 {
			return true
		}
		sub := &sendInfo{call: call, entry: s.entry, req: ret.Results[0], fd: bd, at: ret.Pos()}
		if c.resolve(bd, sub) && !c.keyedIn(bd, []ssa.Value{c.reqValue(sub)}, true) && (sub.built == nil || !c.builtKeyed(sub.built)) {
			s.method, s.from, s.indirect, s.built = sub.method, sub.from, true, nil
			s.anyMethod, s.origin, s.via = sub.anyMethod, sub.origin, sub.via
			found = true
		}
		return !found
	})
	return found
}

// bind binds the parameters of fn, a function of the package, to the
// arguments of call (in fd) while a request built or sent in fn is
// resolved; the function it returns undoes that.
func (c *checker) bind(fd *ast.FuncDecl, call *ast.CallExpr, fn *types.Func) func() {
	saved := c.bound
	c.bound = make(map[*types.Var]retryscope.Arg)
	for a, v := range saved {
		c.bound[a] = v
	}
	sig := fn.Origin().Signature()
	for i, a := range call.Args {
		if i < sig.Params().Len() && !(sig.Variadic() && i >= sig.Params().Len()-1) {
			c.bound[sig.Params().At(i)] = retryscope.Arg{Expr: a, Func: fd, Call: call}
		}
	}
	c.depth++
	return func() { c.bound, c.depth = saved, c.depth-1 }
}

// sentBy reports whether call, inside a retry, calls a request-sending
// helper of the package (fn) that builds and sends, without a key, a POST
// or PATCH whose method or request it gets from call's arguments
// (cloudflare-go's api.request(ctx, method, uri, ...)); s then describes
// that send, reported at call.
func (c *checker) sentBy(fd *ast.FuncDecl, s *sendInfo, fn *types.Func) bool {
	hd := c.funcs[fn.Origin()]
	if hd == nil || !c.viaParams || c.depth >= 4 || c.res.Innermost(s.call.Pos()) == nil {
		return false
	}
	defer c.bind(fd, s.call, fn)()
	found := false
	ast.Inspect(hd.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || found {
			return false
		}
		inner, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if sub := c.send(hd, inner); sub != nil && sub.client == nil && sub.from != nil && !c.keyedSend(hd, sub) {
			s.method, s.from, s.indirect, s.helper = sub.method, sub.from, true, true
			s.anyMethod, s.origin, s.via = sub.anyMethod, sub.origin, sub.via
			if sub.from == s.call {
				s.from = nil // the method is this call's own argument
			}
			found = true
		}
		return !found
	})
	return found
}

// method records the request's construction and reports whether its
// method, m (whose value is mv), is a constant POST or PATCH (and is not
// changed afterwards).
func (c *checker) method(fd *ast.FuncDecl, s *sendInfo, built, m ast.Expr, mv ssa.Value) bool {
	s.built = built
	if mv == nil {
		return false
	}
	origins := c.vf.Origins(mv, nil)
	name, ok := constString(origins)
	if !ok {
		if len(origins) == 1 {
			if p, isParam := origins[0].(*ssa.Parameter); isParam {
				// The method is a parameter: a POST passed at a call site.
				v, _ := p.Object().(*types.Var)
				return v != nil && c.fromCallers(fd, s, v, func(sub *sendInfo) bool {
					return c.method(sub.fd, sub, built, sub.req, c.reqValue(sub))
				})
			}
		}
		return false
	}
	if set, ok := c.methodSet(s); !ok {
		return false
	} else if set != "" {
		name = set
	}
	switch strings.ToUpper(name) {
	case "POST", "PATCH":
		s.method = strings.ToUpper(name)
		return true
	}
	return false
}

// methodSet returns the method the request s sends is given after it is
// built (req.Method = "POST"): the last constant stored into the Method
// field of a value holding it (aliases); ok is false when one stored is
// not a constant string.
func (c *checker) methodSet(s *sendInfo) (method string, ok bool) {
	v := c.reqValue(s)
	if v == nil || !isRequestish(v.Type()) {
		return "", true
	}
	var stores []*ssa.Store
	for a := range c.aliases([]ssa.Value{v}) {
		refs := a.Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			fa, isAddr := r.(*ssa.FieldAddr)
			if !isAddr || fa.X != a {
				continue
			}
			if f := value.FieldVar(fa.X.Type(), fa.Field); f == nil || f.Name() != "Method" {
				continue
			}
			if frefs := fa.Referrers(); frefs != nil {
				for _, fr := range *frefs {
					if st, ok := fr.(*ssa.Store); ok && st.Addr == fa {
						stores = append(stores, st)
					}
				}
			}
		}
	}
	slices.SortFunc(stores, func(a, b *ssa.Store) int { return cmp.Compare(a.Pos(), b.Pos()) })
	for _, st := range stores {
		name, ok := constString(c.vf.Origins(st.Val, nil))
		if !ok {
			return "", false
		}
		method = name
	}
	return method, true
}

// constString returns the method origins name when every one of them is
// a constant string: the one they all are, or, when they differ (a
// method chosen on two paths), POST or else PATCH when one of them is,
// since that path is sent too.
func constString(origins []ssa.Value) (string, bool) {
	var names []string
	for _, o := range origins {
		k, ok := o.(*ssa.Const)
		if !ok || k.Value == nil || k.Value.Kind() != constant.String {
			return "", false
		}
		names = append(names, constant.StringVal(k.Value))
	}
	distinct := slices.Compact(slices.Sorted(slices.Values(names)))
	if len(distinct) == 0 {
		return "", false
	}
	if len(distinct) > 1 {
		for _, m := range []string{"POST", "PATCH"} {
			for _, n := range distinct {
				if strings.EqualFold(n, m) {
					return n, true
				}
			}
		}
	}
	return distinct[0], true
}

func (c *checker) calleeName(call *ast.CallExpr) string {
	if fn := typeutil.StaticCallee(c.info, call); fn != nil {
		return fn.FullName()
	}
	return ""
}

// check reports s when it is retried and its request carries no key.
func (c *checker) check(fd *ast.FuncDecl, s *sendInfo) {
	var scope *retryscope.Scope
	where, fix := "", "mint one above the retry with idempotency.NewKey()"
	if s.client != nil {
		if !c.resendsEveryMethod(s.client) {
			return
		}
		scope = s.client
		where, fix = " through a retryablehttp client", "set one from idempotency.NewKey()"
	} else {
		scope = c.res.Innermost(s.call.Pos())
		// An unkeyed POST in a job handler is jobretry's finding, which
		// names the framework and the job's stable id.
		if scope == nil || scope.Kind == retryscope.JobHandler || !c.retriedAfter(scope, s.call) {
			return
		}
		where = " in a retry"
		if scope.Kind == retryscope.LibraryCall {
			where = " in " + scope.Name
		}
	}
	if c.keyedSend(fd, s) {
		return
	}
	pos, end := s.call.Pos(), s.call.End()
	what := s.method + " " + s.name
	if s.anyMethod {
		d := analysis.Diagnostic{
			Pos: pos, End: end, Message: anyMethodMessage(s.name),
			Related: []analysis.RelatedInformation{
				{Pos: scope.Pos, Message: "the retry that sends it again"},
				{Pos: s.origin.Pos(), Message: "the request its callers give, of any method"},
			},
		}
		suppress.Report(c.pass, Name, d)
		return
	}
	if s.helper && s.built != nil && scope.Contains(s.built.Pos()) {
		pos, end = s.built.Pos(), s.built.End()
		what = s.method + " built here, sent by " + s.name
	}
	d := analysis.Diagnostic{
		Pos:     pos,
		End:     end,
		Message: postMessage(what, where, fix),
		Related: []analysis.RelatedInformation{{Pos: scope.Pos, Message: "the retry that sends it again"}},
	}
	if s.client != nil {
		d.Related[0].Message = "the client that sends it again"
	}
	if s.from != nil {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: s.from.Pos(), Message: "where the method " + s.method + " comes from"})
	}
	if fix, ok := c.fix(fd, scope, s); ok && !s.indirect {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	}
	suppress.Report(c.pass, Name, d)
}

// postMessage is the finding's message; where is left out when the
// message would be longer than 120 characters (the related information
// points at the retry).
func postMessage(what, where, fix string) string {
	if utf8.RuneCountInString(what+where+" has no idempotency key; "+fix) > 120 {
		where = ""
	}
	return what + where + " has no idempotency key; " + fix
}

// builtKeyed reports whether a request literal sets a key header.
func (c *checker) builtKeyed(built ast.Expr) bool {
	lit, ok := built.(*ast.CompositeLit)
	if !ok {
		return false
	}
	keyed := false
	ast.Inspect(lit, func(n ast.Node) bool {
		for _, w := range keys.Writes(c.info, n) {
			if !w.Const || c.names.Header(w.Name) {
				keyed = true
			}
		}
		return !keyed
	})
	return keyed
}

// isRequest reports whether t is *path.Request (or path.Request).
func isRequest(t types.Type, path string) bool { return astq.IsNamed(t, path, "Request") }

// isRequestish reports whether a value of type t can carry a request's
// headers: an *http.Request, a *retryablehttp.Request, a pipeline's
// request (azcore's *policy.Request), an http.Header.
func isRequestish(t types.Type) bool {
	return isRequest(t, "net/http") || retryscope.HTTPMirrorType(t, "Request") || retryscope.PipelineRequest(t) || keys.IsHeader(t)
}
