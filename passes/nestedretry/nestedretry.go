package nestedretry

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/internal/suppress"
	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/check"
	"github.com/idemlint/idemlint/passes/internal/names"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// Name is the check's name.
const Name = "nestedretry"

// Config configures the check: the retry model to read.
type Config = check.Config

// Analyzer is the check with the default configuration; New returns the
// check for a Config.
var Analyzer, New = check.Define(Documentation, run, factTypes()...)

// factTypes are the check's facts.
func factTypes() []analysis.Fact { return []analysis.Fact{new(retriesFact), new(transportFact)} }

func run(pass *analysis.Pass, res *retryscope.Result) {
	if !skipStd || !isStd(pass) {
		newChecker(pass, res).run()
	}
}

// A layer is one retry layer of the package: a retry loop, a retry
// library call, or a call to a client that retries by itself.
type layer struct {
	node      ast.Node
	pos, end  token.Pos
	body      *ast.BlockStmt       // the repeated code, when it is in this package
	op        *types.Func          // the repeated operation, when it is a named function
	opExpr    ast.Expr             // the expression naming op
	self      *types.Func          // for a retry by recursion, the function that calls itself
	desc      string               // "retry loop", the library entry point, or the client method
	lib       string               // the library's import path; "" for a loop
	entry     string               // the library entry point's full name
	client    bool                 // a client that retries by itself
	attempts  int                  // > 0 known, 0 unknown, -1 none
	outerOnly bool                 // a loop that never waits, or a job handler: not an inner layer
	restarts  bool                 // a retry by recursion or rescheduling: its node is the call that starts its next pass, met in its own body
	job       retryscope.Framework // set for a job handler
	// allowNested is set on a runtime/retry.Do whose Policy sets
	// AllowNested: it retries even inside another Do.
	allowNested bool
	// offBy, for a client over a retrying transport, is the package whose
	// function of the request's context the transport asks before it
	// retries (retryingTransport).
	offBy string
}

// A hit is a place in a function that reaches a retry layer: the layer
// itself, or a call of a function that retries.
type hit struct {
	pos, end token.Pos
	direct   *layer
	callee   string       // the called function, for calls
	fn       *types.Func  // the called function, when known
	reach    *retriesFact // the layer reached
}

func newChecker(pass *analysis.Pass, res *retryscope.Result) *checker {
	c := &checker{
		pass:       pass,
		res:        res,
		x:          buildIndex(pass.Pkg, pass.TypesInfo, pass.Files),
		layers:     make(map[ast.Node]*layer),
		bodies:     make(map[*ast.BlockStmt]bool),
		memo:       make(map[ast.Node]*retriesFact),
		factorMemo: make(map[*layer][]int),
		busy:       make(map[ast.Node]bool),
	}
	c.clients = c.clientEnv()
	return c
}

type checker struct {
	pass   *analysis.Pass
	res    *retryscope.Result
	x      *index
	layers map[ast.Node]*layer
	order  []*layer
	bodies map[*ast.BlockStmt]bool // layer bodies: walks do not enter them
	memo   map[ast.Node]*retriesFact
	busy   map[ast.Node]bool
	// factorMemo holds each layer's factors (see factors).
	factorMemo map[*layer][]int
	clients    *retryscope.ClientEnv
	reported   map[token.Pos]bool
	// impls caches soleImpl's implementing type per interface (nil: none,
	// or more than one).
	impls  map[implKey]types.Type
	ifaces map[*types.Named]*implCandidates
}

func (c *checker) run() {
	c.findLayers()
	// Export a fact on every function that retries when called.
	for _, f := range c.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			// Only exported names can be called from other packages.
			if !fn.Exported() || modelled(c.pass.Pkg.Path()) {
				continue
			}
			if r := c.summary(fd); r != nil {
				c.pass.ExportObjectFact(fn, r)
			}
			if t := c.retryingTransport(fd, fn); t != nil {
				c.pass.ExportObjectFact(fn, t)
			}
		}
	}
	c.reported = make(map[token.Pos]bool)
	for _, outer := range c.order {
		if outer.client && outer.body == nil {
			continue
		}
		if outer.body != nil {
			c.walk(outer.body, func(h hit) {
				// a retry by recursion calls itself again, directly or
				// through a closure of its own (sarama's retry := func(err
				// error) error {...}): that call is its own next attempt,
				// not an inner layer
				if outer.self == nil || h.fn != outer.self && h.reach.In != names.Of(outer.self) {
					c.report(outer, h)
				}
			})
		} else if outer.op != nil {
			if r := c.importFact(outer.op); r != nil {
				c.report(outer, hit{pos: outer.opExpr.Pos(), end: outer.opExpr.End(), callee: names.Of(outer.op), reach: r})
			}
		}
	}
}

// findLayers collects the retry model's loops and library calls, and the
// calls of clients that retry by themselves.
func (c *checker) findLayers() {
	for _, s := range c.res.Scopes() {
		if s.Kind == retryscope.Client {
			continue // constructions; their sends are found below
		}
		if s.Helper != nil {
			c.helperCall(s)
			continue
		}
		l := &layer{node: s.Node, pos: s.Pos, body: s.Body, op: s.Op, lib: s.Library, entry: s.Entry, attempts: capAttempts(s.Cap)}
		if retryscope.SingleLayer(s.Library) {
			l.allowNested = c.clients.AllowsNested(s)
		}
		if fd, ok := s.Func.(*ast.FuncDecl); ok && s.NotFor {
			l.self, _ = c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
		}
		switch n := s.Node.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			l.desc, l.end, l.outerOnly = "retry loop", s.Pos+3, !waits(s)
		case *ast.LabeledStmt:
			// a goto back to the label
			l.desc, l.end, l.outerOnly = "retry loop", n.Label.End(), !waits(s)
		case *ast.CallExpr:
			if s.Kind == retryscope.Loop {
				// a recursion or a rescheduling: the call starts the next pass
				l.desc, l.end, l.outerOnly, l.restarts = "retry loop", n.Fun.End(), !waits(s), true
				break
			}
			l.desc, l.end = s.Name, n.Fun.End()
			if s.Body == nil && s.Op != nil {
				l.opExpr = c.opRef(n, s.Op)
				if l.opExpr == nil {
					l.op = nil
				}
			}
		case *ast.FuncDecl, *ast.FuncLit:
			if s.Kind != retryscope.JobHandler || s.Job.Framework.Consumer() {
				continue // a consumer's broker redelivers on a crash, not on each error
			}
			// A job handler is the outer layer its framework retries; it
			// is never an inner one.
			l.desc, l.end, l.outerOnly, l.job = s.Name+" "+s.Job.Name, s.Pos+4, true, s.Job.Framework
			if fd, ok := n.(*ast.FuncDecl); ok {
				l.end = fd.Name.End()
			}
		}
		c.add(l)
	}
	for _, s := range c.res.WrapperCalls() {
		c.helperCall(s)
	}
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && c.layers[call] == nil {
				if l := c.clientLayer(call); l != nil {
					c.add(l)
				}
			}
			return true
		})
	}
	sort.SliceStable(c.order, func(i, j int) bool { return c.order[i].pos < c.order[j].pos })
}

// helperCall takes the call of a retry helper (s.Helper set) with a closure
// for its operation as an outer layer: the closure is its repeated code
// (gcrane's backoffErrors(GCRBackoff(), func() error {...})). As an inner
// layer the call is reached through the helper's retriesFact, or its body
// in this package, so it is not among c.layers; a named operation is
// reached where the helper's loop calls its parameter.
func (c *checker) helperCall(s *retryscope.Scope) {
	call, ok := s.Node.(*ast.CallExpr)
	if !ok || s.Body == nil || s.Op != nil {
		return
	}
	l := &layer{node: s.Node, pos: s.Pos, end: call.Fun.End(), body: s.Body, desc: s.Name, lib: s.Library, entry: s.Entry, attempts: capAttempts(s.Cap)}
	c.order = append(c.order, l)
	c.bodies[l.body] = true
}

func (c *checker) add(l *layer) {
	c.layers[l.node] = l
	c.order = append(c.order, l)
	if l.body != nil && !l.outerOnly {
		c.bodies[l.body] = true
	}
}

// waits reports whether a loop waits between attempts. A loop that never
// waits is more often a read or scan loop the model mistook for a retry
// than a hot retry loop: it is an outer layer, never an inner one, so that
// such mistakes do not spread through calls and facts.
func waits(s *retryscope.Scope) bool {
	for _, w := range s.Waits {
		if w.Kind != retryscope.WaitNone {
			return true
		}
	}
	return false
}

// opRef finds the argument of call that names op.
func (c *checker) opRef(call *ast.CallExpr, op *types.Func) ast.Expr {
	for _, a := range call.Args {
		if id := astq.NameIdent(a); id != nil && c.pass.TypesInfo.Uses[id] == op {
			return a
		}
	}
	return nil
}

// opOf returns the operation passed to a library: a closure's body, or a
// named function (with its body when declared in this package).
func (c *checker) opOf(e ast.Expr) (*ast.BlockStmt, *types.Func, ast.Expr) {
	switch v := ast.Unparen(e).(type) {
	case *ast.FuncLit:
		return v.Body, nil, nil
	case *ast.Ident:
		if lit := c.x.litOf[c.pass.TypesInfo.Uses[v]]; lit != nil {
			return lit.Body, nil, nil
		}
	}
	var id *ast.Ident
	switch v := ast.Unparen(e).(type) {
	case *ast.Ident:
		id = v
	case *ast.SelectorExpr:
		id = v.Sel
	}
	if id == nil {
		return nil, nil, nil
	}
	fn, ok := c.pass.TypesInfo.Uses[id].(*types.Func)
	if !ok {
		return nil, nil, nil
	}
	fn = fn.Origin()
	if d := c.x.funcs[fn]; d != nil {
		return d.Body, fn, e
	}
	return nil, fn, e
}

// walk visits the hits in root: the retry layers it holds and the calls of
// functions that retry. It does not enter the repeated code of the layers
// it meets (their own nested layers are theirs to report), closures that
// are stored rather than run (they count where they are called), or
// declarations of other functions.
func (c *checker) walk(root ast.Node, visit func(hit)) {
	ast.Inspect(root, func(n ast.Node) bool {
		if n == root {
			return true
		}
		switch n := n.(type) {
		case *ast.BlockStmt:
			if c.bodies[n] {
				return false
			}
		case *ast.FuncLit:
			if c.x.skip[n] {
				return false
			}
		case *ast.GoStmt:
			// Work started on another goroutine is not part of the attempt:
			// the retry does not wait for it, so it is no inner layer.
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			if l := c.layers[n]; l != nil && !l.outerOnly {
				visit(c.direct(l))
			}
		case *ast.CallExpr:
			if l := c.layers[n]; l != nil && !l.restarts {
				visit(c.direct(l))
			} else if h, ok := c.callHit(n); ok {
				visit(h)
			}
		}
		return true
	})
}

func (c *checker) direct(l *layer) hit {
	return hit{pos: l.pos, end: l.end, direct: l, reach: &retriesFact{Layer: l.desc, Lib: l.lib, Client: l.client, Attempts: l.attempts, AllowNested: l.allowNested, Factors: c.factors(l), OffBy: l.offBy}}
}

// factors returns the attempt caps of l and of the layers nested in its
// repeated code, on the path that makes the most calls (see
// retriesFact.Factors).
func (c *checker) factors(l *layer) []int {
	if l.attempts <= 0 {
		return nil
	}
	if f, ok := c.factorMemo[l]; ok {
		return f
	}
	c.factorMemo[l] = []int{l.attempts} // a layer reached again through itself counts once
	var inner []int
	if l.body != nil {
		c.walk(l.body, func(h hit) {
			f := h.reach.Factors
			if len(f) == 0 && h.reach.Attempts > 0 {
				f = []int{h.reach.Attempts}
			}
			if product(f) > product(inner) {
				inner = f
			}
		})
	}
	out := append([]int{l.attempts}, inner...)
	c.factorMemo[l] = out
	return out
}

func product(f []int) int {
	if len(f) == 0 {
		return 0
	}
	p := 1
	for _, n := range f {
		p *= n
	}
	return p
}

// callHit reports whether call runs a function that retries.
func (c *checker) callHit(call *ast.CallExpr) (hit, bool) {
	h := hit{pos: callPos(call), end: call.Fun.End()}
	if fn := typeutil.StaticCallee(c.pass.TypesInfo, call); fn != nil {
		return c.funcHit(call, fn)
	}
	// a method of an interface of this package that one type of it
	// implements (sarama's Client, implemented by *client)
	if fn := c.soleImpl(call); fn != nil {
		if d := c.x.funcs[fn]; d != nil {
			h.callee, h.fn = names.Of(fn), fn
			h.reach = c.summary(d)
			return h, h.reach != nil
		}
	}
	// a closure held in a local variable
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if lit := c.x.litOf[c.pass.TypesInfo.Uses[id]]; lit != nil {
			h.callee = "the closure " + id.Name
			h.reach = c.summary(lit)
			return h, h.reach != nil
		}
		// a func parameter: the functions its callers pass (vault's
		// renew, passed RenewTokenAsSelf or Sys().Renew)
		// a func variable: the functions assigned to it (renew :=
		// c.Sys().Renew) or, for a parameter, the functions its callers
		// pass (vault's renew, passed RenewTokenAsSelf or Sys().Renew)
		if v, ok := c.pass.TypesInfo.Uses[id].(*types.Var); ok {
			var values []ast.Expr
			if retryscope.IsParam(v) {
				values, _ = c.res.ArgsOf(v)
			} else if c.x.local(v) {
				values = c.x.defs[v]
			}
			for _, a := range values {
				if fn := c.funcValue(a); fn != nil {
					if g, ok := c.funcHit(call, fn); ok {
						return g, true
					}
				}
			}
		}
	}
	return h, false
}

// funcValue returns the function a func-valued expression denotes
// statically: a function, or a method value of a concrete type.
func (c *checker) funcValue(e ast.Expr) *types.Func {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		fn, _ := c.pass.TypesInfo.Uses[e].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		if s, ok := c.pass.TypesInfo.Selections[e]; ok {
			if s.Kind() != types.MethodVal || types.IsInterface(s.Recv()) {
				return nil
			}
		}
		fn, _ := c.pass.TypesInfo.Uses[e.Sel].(*types.Func)
		return fn
	}
	return nil
}

// funcHit is callHit for a call that runs fn.
func (c *checker) funcHit(call *ast.CallExpr, fn *types.Func) (hit, bool) {
	h := hit{pos: callPos(call), end: call.Fun.End()}
	fn = fn.Origin()
	h.callee, h.fn = names.Of(fn), fn
	if fn.Pkg() == c.pass.Pkg {
		if d := c.x.funcs[fn]; d != nil {
			h.reach = c.summary(d)
		}
	} else {
		h.reach = c.importFact(fn)
	}
	return h, h.reach != nil
}

// soleImpl returns the method that a call through an interface declared
// in this package runs when exactly one type of the package implements the
// interface and no type of the packages it imports does, or nil. Packages
// that import it may implement it too (a test double); the package's own
// type is what its code is built to call.
func (c *checker) soleImpl(call *ast.CallExpr) *types.Func {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	s, ok := c.pass.TypesInfo.Selections[sel]
	if !ok || s.Kind() != types.MethodVal {
		return nil
	}
	named, ok := types.Unalias(s.Recv()).(*types.Named)
	if !ok || named.Obj().Pkg() != c.pass.Pkg {
		return nil
	}
	iface, ok := named.Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	if c.impls == nil {
		c.impls = make(map[implKey]types.Type)
	}
	key := implKey{named, sel.Sel.Name}
	impl, ok := c.impls[key]
	if !ok {
		cands := c.candidates(named, iface)
		var own []types.Type
		for _, t := range cands.own {
			// a wrapper that embeds the interface (sarama's
			// nopCloserClient{Client}) hands the call to the value it
			// wraps: no implementation of its own; and a test double of a
			// _test.go file is not what the package's code is built to
			// call (the package and its test variant, what go vet
			// analyses, get the same answer)
			if !delegates(t, c.pass.Pkg, sel.Sel.Name) && !c.inTestFile(t) {
				own = append(own, t)
			}
		}
		if len(own) == 1 && !cands.outside() {
			impl = own[0] // not two (the call may run either), nor *http.Client's Do
		}
		c.impls[key] = impl
	}
	if impl == nil {
		return nil
	}
	obj, _, _ := types.LookupFieldOrMethod(impl, true, c.pass.Pkg, sel.Sel.Name)
	fn, _ := obj.(*types.Func)
	return fn
}

// inTestFile reports whether the named type t (or *t) is declared in a
// _test.go file.
func (c *checker) inTestFile(t types.Type) bool {
	tn := astq.NamedOf(t)
	if tn == nil {
		return false
	}
	return astq.InTestFile(c.pass.Fset, tn.Pos())
}

// implCandidates are the types that may implement an interface of the
// package: up to 8 of its own, and whether a type of an import does. They
// do not depend on the method called, so they are found once for each
// interface (a generated gRPC client interface has a hundred methods, and
// the package's scope a thousand types to test against each).
type implCandidates struct {
	own     []types.Type
	outside func() bool
}

func (c *checker) candidates(named *types.Named, iface *types.Interface) *implCandidates {
	if r, ok := c.ifaces[named]; ok {
		return r
	}
	if c.ifaces == nil {
		c.ifaces = make(map[*types.Named]*implCandidates)
	}
	pkg := c.pass.Pkg
	r := &implCandidates{own: implementers(pkg.Scope(), iface, false, 8),
		outside: sync.OnceValue(func() bool { return implementedOutside(pkg, iface) })}
	c.ifaces[named] = r
	return r
}

// implKey is an interface of the package and a method called through it.
type implKey struct {
	iface  *types.Named
	method string
}

// delegates reports whether t's method name is promoted from an embedded
// interface field: calling it calls the wrapped value's.
func delegates(t types.Type, pkg *types.Package, name string) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, pkg, name)
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	recv := fn.Signature().Recv()
	return recv != nil && types.IsInterface(recv.Type())
}

// implementedOutside reports whether a type of a package that pkg imports
// implements iface: then a value of iface may be that type (slack's
// retryClient wraps an httpClient that is an *http.Client), and the
// package's own implementation is not the only one its code calls.
func implementedOutside(pkg *types.Package, iface *types.Interface) bool {
	for _, imp := range pkg.Imports() {
		if len(implementers(imp.Scope(), iface, true, 1)) > 0 {
			return true
		}
	}
	return false
}

// implementers returns up to limit types of scope that implement iface,
// T or *T, skipping interfaces and generic types: of another package
// (outside) its exported types, aliases included; of the package itself
// every type but aliases.
func implementers(scope *types.Scope, iface *types.Interface, outside bool, limit int) []types.Type {
	var out []types.Type
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || types.IsInterface(tn.Type()) || (outside && !tn.Exported()) || (!outside && tn.IsAlias()) {
			continue
		}
		if n, ok := tn.Type().(*types.Named); ok && n.TypeParams().Len() > 0 {
			continue
		}
		switch {
		case types.Implements(tn.Type(), iface):
			out = append(out, tn.Type())
		case types.Implements(types.NewPointer(tn.Type()), iface):
			out = append(out, types.NewPointer(tn.Type()))
		default:
			continue
		}
		if len(out) == limit {
			break
		}
	}
	return out
}

// turnsOff reports whether the function holding outer calls a function of
// the package path with a context: the opt-out of a retrying transport
// that asks that package of each request's context (ggcr's retry.Never).
func (c *checker) turnsOff(outer *layer, path string) bool {
	decl := c.res.DeclAt(outer.pos)
	if decl == nil {
		return false
	}
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != path {
			return true
		}
		for _, a := range call.Args {
			if t := c.pass.TypesInfo.TypeOf(a); t != nil && astq.IsNamed(t, "context", "Context") {
				found = true
			}
		}
		return !found
	})
	return found
}

func (c *checker) importFact(fn *types.Func) *retriesFact {
	if fn.Pkg() == nil || modelled(fn.Pkg().Path()) {
		return nil
	}
	var f retriesFact
	if !c.pass.ImportObjectFact(fn, &f) {
		return nil
	}
	return &f
}

// summary returns the worst retry layer that running unit (a *ast.FuncDecl
// or *ast.FuncLit) reaches outside any of its own layers' repeated code,
// or nil.
func (c *checker) summary(unit ast.Node) *retriesFact {
	if r, ok := c.memo[unit]; ok {
		return r
	}
	if c.busy[unit] {
		return nil // recursion: the other path decides
	}
	c.busy[unit] = true
	var body *ast.BlockStmt
	var in string
	switch u := unit.(type) {
	case *ast.FuncDecl:
		body = u.Body
		if fn, ok := c.pass.TypesInfo.Defs[u.Name].(*types.Func); ok {
			in = names.Of(fn)
		}
	case *ast.FuncLit:
		body = u.Body
		if d := c.x.encl[u]; d != nil {
			if fn, ok := c.pass.TypesInfo.Defs[d.Name].(*types.Func); ok {
				in = names.Of(fn)
			}
		}
	}
	var best *retriesFact
	if body != nil {
		visit := func(h hit) {
			r := h.reach
			if h.direct != nil {
				cp := *r
				cp.In = in
				r = &cp
			}
			// a layer an outer retry may turn off (a retrying transport's)
			// gives way to any other
			switch {
			case best == nil,
				best.OffBy != "" && r.OffBy == "",
				(best.OffBy == "") == (r.OffBy == "") && rank(r.Attempts) > rank(best.Attempts):
				best = r
			}
		}
		c.walk(body, visit)
		// a retry by recursion or rescheduling is the function's own: its
		// call is met in its body, where walk takes it for the next pass
		for _, l := range c.order {
			if l.restarts && l.body == body {
				visit(c.direct(l))
			}
		}
	}
	delete(c.busy, unit)
	c.memo[unit] = best
	return best
}

// rank orders attempt caps from best to worst: known caps by size, then
// unknown, then none.
func rank(n int) int {
	switch {
	case n < 0:
		return 1 << 30
	case n == 0:
		return 1<<30 - 1
	}
	return n
}

// report reports h, a hit in the repeated code of outer.
func (c *checker) report(outer *layer, h hit) {
	if c.reported[h.pos] {
		return
	}
	// client-go's REST client does not retry conflicts: RetryOnConflict
	// around it is one layer for 409s.
	if retryscope.Disjoint(outer.entry, h.reach.Lib) {
		return
	}
	// runtime/retry.Do inside another Do's operation makes a single
	// attempt (the one-layer rule) unless its Policy sets AllowNested.
	if retryscope.SingleLayer(outer.lib) && h.reach.Lib == outer.lib && !h.reach.AllowNested {
		return
	}
	// Inside a job handler, only the retries written in the code count:
	// a client's own default retries (stripe-go, the AWS SDK...) are
	// everywhere, and the framework's retries are the ones to keep.
	if outer.job != 0 && h.reach.Client {
		return
	}
	// ggcr's uploadOne runs each attempt under retry.Never(ctx), which its
	// retrying transport asks (retry.Ever(in.Context())): one layer.
	if h.reach.OffBy != "" && c.turnsOff(outer, h.reach.OffBy) {
		return
	}
	c.reported[h.pos] = true
	r := h.reach
	worst := ""
	inner := r.Factors
	if len(inner) == 0 && r.Attempts > 0 {
		inner = []int{r.Attempts}
	}
	if outer.attempts > 0 && len(inner) > 0 {
		all := append([]int{outer.attempts}, inner...)
		parts := make([]string, len(all))
		for i, n := range all {
			parts[i] = strconv.Itoa(n)
		}
		worst = fmt.Sprintf(", up to %s = %d calls", strings.Join(parts, "×"), product(all))
	}
	where := "a retry loop"
	if outer.lib != "" {
		where = outer.desc
	}
	where += paren(outer.attempts)
	suppress.Report(c.pass, Name, analysis.Diagnostic{
		Pos:     h.pos,
		End:     h.end,
		Message: message(h, outer, where, worst),
		Related: []analysis.RelatedInformation{{Pos: outer.pos, End: outer.end, Message: "the outer layer: " + where}},
	})
}

// maxMessage is the length a message is kept to: message leaves out what
// the related information or the numbers already say until it fits.
const maxMessage = 120

// message is "<inner layer> inside <outer layer>, up to N×M = P calls;
// <fix>". When that is longer than maxMessage it leaves out, in turn, the
// function the inner layer is in, the outer layer's name (the related
// information points at it), its attempts (the product has them),
// "retries by itself", the inner layer's name when a call reaches it, and
// the product of the attempts (the two caps stay).
func message(h hit, outer *layer, where, worst string) string {
	r := h.reach
	fix := outer.fix(r)
	itself, in := "", ""
	var what string
	switch {
	case h.direct != nil:
		what = r.Layer
		if r.Client {
			itself = " retries by itself"
		}
	default:
		what = h.callee + " reaches " + r.Layer
		if r.Client {
			itself = ", which retries by itself"
		}
		if r.In != "" && r.In != h.callee {
			in = " in " + r.In
		}
	}
	attempts := paren(r.Attempts)
	build := func() string {
		return what + itself + attempts + in + " inside " + where + worst + "; " + fix
	}
	for step := 0; utf8.RuneCountInString(build()) > maxMessage && step < 6; step++ {
		switch step {
		case 0:
			in = ""
		case 1:
			if outer.lib != "" {
				where = "a retry" + paren(outer.attempts)
			}
		case 2:
			if worst != "" && outer.attempts > 0 {
				where = "a retry"
			}
		case 3:
			itself = ""
		case 4:
			if h.direct == nil {
				what = h.callee + " reaches a retry"
			}
		case 5:
			worst = ""
			where = "a retry" + paren(outer.attempts)
		}
	}
	return build()
}

func paren(n int) string {
	if t := capText(n); t != "" {
		return " (" + t + ")"
	}
	return ""
}

// fix names the way to keep one retry layer, for the inner layer's kind.
// fix says how to keep one layer of outer and r.
func (outer *layer) fix(r *retriesFact) string {
	if outer.job == 0 {
		return fix(r)
	}
	switch outer.job {
	case retryscope.Asynq:
		return "drop one layer (asynq.MaxRetry(0))"
	case retryscope.River:
		return "drop one layer (InsertOpts{MaxAttempts: 1})"
	}
	return "drop one layer (RetryPolicy MaximumAttempts: 1)"
}

func fix(r *retriesFact) string {
	if f := retryscope.ClientFix(r.Lib); f != "" {
		return f
	}
	return "retry in one layer only"
}

// modelled reports whether path is a retry library or a self-retrying
// client the check models directly: its own functions carry no facts (the
// model knows their configuration; a fact from their internals would not).
func modelled(path string) bool { return retryscope.Modelled(path) }

// skipStd is cleared by the benchmark that measures the check's own work
// over the standard library.
var skipStd = true

// isStd reports whether the package is in the standard library, whose
// transparent connection-level retries (net/http, database/sql) are not
// retry layers in the sense of this check.
func isStd(pass *analysis.Pass) bool {
	return len(pass.Files) > 0 && retryscope.IsStd(pass.Pkg.Path(), pass.Fset.File(pass.Files[0].Pos()).Name())
}
