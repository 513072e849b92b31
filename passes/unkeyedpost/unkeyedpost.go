package unkeyedpost

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/internal/suppress"
	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/check"
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
				if !c.keyedParams[fn][i] && c.keyed(fd, []types.Object{o}) {
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
				if !ok || len(call.Args) != 1 || c.aliasRoot(call.Args[0]) != o {
					return true
				}
				if _, _, through := c.transportSend(call); through || c.calleeName(call) == "(*net/http.Client).Do" {
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
	if s.req != nil && c.keyed(fd, s.reqObjs) {
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
	// reqObjs are the variables the request passes through.
	reqObjs []types.Object
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
		s.client = c.standardClientScope(fd, recv())
		return s
	case "(*net/http.Client).Do":
		s.client = c.standardClientScope(fd, recv())
		s.req = call.Args[0]
	case retrying + "net/http.Post", retrying + "net/http.PostForm":
		if sc := c.res.Of(call); sc != nil && sc.Kind == retryscope.Client {
			s.method, s.client = "POST", sc
			return s
		}
		return nil
	case retrying + "(*net/http.Client).Post", retrying + "(*net/http.Client).PostForm":
		s.client = c.clientScope(fd, recv(), call.Pos())
		if s.client == nil {
			return nil
		}
		s.method = "POST"
		return s
	case retrying + "(*net/http.Client).Do":
		s.client = c.clientScope(fd, recv(), call.Pos())
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

// clientScope returns the retrying-client scope whose construction in fd
// the client expression x comes from.
func (c *checker) clientScope(fd *ast.FuncDecl, x ast.Expr, before token.Pos) *retryscope.Scope {
	if x == nil {
		return nil
	}
	v := c.origin(fd, x, before)
	if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.AND {
		v = ast.Unparen(u.X)
	}
	if sc := c.res.Of(v); sc != nil && sc.Kind == retryscope.Client {
		return sc
	}
	// A client a constructor of the package stored in a field.
	if sel, ok := v.(*ast.SelectorExpr); ok {
		if f, ok := c.info.Uses[sel.Sel].(*types.Var); ok && f.IsField() {
			return c.res.FieldClient(f)
		}
	}
	return nil
}

// standardClientScope returns the retrying-client scope behind an
// *http.Client obtained with (*retryablehttp.Client).StandardClient().
func (c *checker) standardClientScope(fd *ast.FuncDecl, x ast.Expr) *retryscope.Scope {
	if x == nil {
		return nil
	}
	v, ok := c.origin(fd, x, x.Pos()).(*ast.CallExpr)
	if !ok || !retryscope.MirrorsHTTP(typeutil.StaticCallee(c.info, v), "(*net/http.Client).StandardClient") {
		return nil
	}
	sel, ok := ast.Unparen(v.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	return c.clientScope(fd, sel.X, v.Pos())
}

// resolve finds the construction and the method of s's request; it
// reports false when the method is not a constant POST or PATCH.
func (c *checker) resolve(fd *ast.FuncDecl, s *sendInfo) bool {
	e := s.req
	before := s.call.Pos()
	if s.at.IsValid() {
		before = s.at
	}
	for range 8 {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if o := c.info.Uses[id]; o != nil {
				s.reqObjs = append(s.reqObjs, o)
			}
		}
		v := c.origin(fd, e, before)
		switch v := v.(type) {
		case *ast.CallExpr:
			// A call whose arguments are another call's results,
			// http.NewRequestWithContext(args()), has fewer argument
			// expressions than parameters: its method is not known.
			name, _ := retryscope.HTTPMirror(c.calleeName(v)) // go-retryablehttp's are as net/http's
			switch name {
			case "net/http.NewRequest":
				if len(v.Args) == 3 {
					return c.method(fd, s, v, v.Args[0])
				}
			case "net/http.NewRequestWithContext":
				if len(v.Args) == 4 {
					return c.method(fd, s, v, v.Args[1])
				}
			case "net/http.FromRequest": // go-retryablehttp's wrapper of an *http.Request
				e, before = v.Args[0], v.Pos()
				continue
			case "(*net/http.Request).WithContext", "(*net/http.Request).Clone":
				if sel, ok := ast.Unparen(v.Fun).(*ast.SelectorExpr); ok {
					e, before = sel.X, v.Pos()
					continue
				}
			}
			if retryscope.PipelineCopy(typeutil.StaticCallee(c.info, v)) { // req.Clone(ctx) of a pipeline's request
				if sel, ok := ast.Unparen(v.Fun).(*ast.SelectorExpr); ok {
					e, before = sel.X, v.Pos()
					continue
				}
			}
			return c.builtBy(fd, s, v)
		case *ast.SelectorExpr:
			// req.Request: the *http.Request a *retryablehttp.Request wraps.
			if v.Sel.Name == "Request" && retryscope.HTTPMirrorType(c.info.TypeOf(v.X), "Request") {
				e, before = v.X, v.Pos()
				continue
			}
			return c.callersRequest(fd, s, v)
		case *ast.Ident:
			if c.fromCallers(fd, s, v, func(sub *sendInfo) bool {
				return c.resolve(sub.fd, sub) && !c.keyedSend(sub.fd, sub)
			}) {
				return true
			}
			return c.callersRequest(fd, s, v)
		case *ast.StarExpr:
			// copy := *req; return &copy: a copy of the request, its method
			// included
			e, before = v.X, v.Pos()
			continue
		case *ast.UnaryExpr:
			if id, ok := ast.Unparen(v.X).(*ast.Ident); ok && v.Op == token.AND && isRequest(c.info.TypeOf(v), "net/http") {
				e, before = id, v.Pos()
				continue
			}
			if lit, ok := ast.Unparen(v.X).(*ast.CompositeLit); ok && v.Op == token.AND && isRequest(c.info.TypeOf(lit), "net/http") {
				for _, elt := range lit.Elts {
					if kv, ok := elt.(*ast.KeyValueExpr); ok {
						if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Method" {
							return c.method(fd, s, lit, kv.Value)
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

// fromCallers judges the parameter id of fd by the arguments passed for it
// at the package's call sites (only the current one inside a request
// builder being resolved): judge reports whether one, read in its caller,
// is a POST or PATCH. The first that is gives s its method and s.from
// the call site.
func (c *checker) fromCallers(fd *ast.FuncDecl, s *sendInfo, id *ast.Ident, judge func(*sendInfo) bool) bool {
	p, ok := c.info.Uses[id].(*types.Var)
	if !ok || !c.viaParams || c.depth >= 4 {
		return false
	}
	args := c.res.Args(p)
	if a, ok := c.bound[p]; ok {
		args = []retryscope.Arg{a}
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
		if c.resolve(bd, sub) && !c.keyedIn(bd, sub.reqObjs, true) && (sub.built == nil || !c.builtKeyed(sub.built)) {
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
// method is a constant POST or PATCH (and is not changed afterwards).
func (c *checker) method(fd *ast.FuncDecl, s *sendInfo, built, m ast.Expr) bool {
	s.built = built
	name, ok := c.stringValue(fd, m)
	if !ok {
		if id, isID := c.origin(fd, m, m.Pos()).(*ast.Ident); isID {
			// The method is a parameter: a POST passed at a call site.
			return c.fromCallers(fd, s, id, func(sub *sendInfo) bool {
				return c.method(sub.fd, sub, built, sub.req)
			})
		}
		return false
	}
	for _, o := range s.reqObjs {
		for _, fs := range c.defIndex(fd).FieldSets(o) {
			if fs.Field() == "Method" {
				if name, ok = c.stringValue(fd, fs.RHS()); !ok {
					return false
				}
			}
		}
	}
	switch strings.ToUpper(name) {
	case "POST", "PATCH":
		s.method = strings.ToUpper(name)
		return true
	}
	return false
}

// stringValue returns the constant string e evaluates to, looking through
// a local variable assigned once.
func (c *checker) stringValue(fd *ast.FuncDecl, e ast.Expr) (string, bool) {
	return astq.StringConst(c.info, c.origin(fd, e, e.Pos()))
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
