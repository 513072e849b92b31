package retrytimeout

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/internal/suppress"
	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/check"
	"github.com/idemlint/idemlint/passes/internal/names"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// Name is the check's name.
const Name = "retrytimeout"

// Config configures the check: the retry model to read.
type Config = check.Config

// Analyzer is the check with the default configuration; New returns the
// check for a Config.
var Analyzer, New = check.Define(Documentation, run)

// The messages' fixes; the docs give the longer why and the runtime's
// Policy.AttemptTimeout.
const (
	fixText      = "set either, or use retry.NewTransport"
	retryableFix = "set either"
)

// A finding is a message and the related location of the client that
// lacks the timeout, if the analysed code makes it.
type finding struct {
	msg     string
	related []analysis.RelatedInformation
}

func (f finding) report(pass *analysis.Pass, call *ast.CallExpr) {
	suppress.Report(pass, Name, analysis.Diagnostic{Pos: call.Pos(), End: call.Fun.End(), Message: f.msg, Related: f.related})
}

// clientRelated points at where the client without a timeout is made.
func clientRelated(pos, end token.Pos, what string) []analysis.RelatedInformation {
	if !pos.IsValid() {
		return nil
	}
	return []analysis.RelatedInformation{{Pos: pos, End: end, Message: "the client without a Timeout: " + what}}
}

func run(pass *analysis.Pass, res *retryscope.Result) {
	grpc := usesGRPC(pass.Pkg)
	if !imports(pass.Pkg, "net/http") && !importsMirror(pass.Pkg) && !grpc {
		return
	}
	c := &checker{pass: pass, info: pass.TypesInfo, res: res, flows: make(map[*ast.FuncDecl]*flow)}
	c.grpcTimeout = grpc && grpcTimeoutSomewhere(res)
	c.defaultSet = c.setsDefaultClient()
	seen := make(map[*ast.CallExpr]bool)
	if importsMirror(pass.Pkg) || retryscope.HTTPMirrorPath(pass.Pkg.Path()) {
		// A go-retryablehttp client is a retry of its own: its sends are
		// the attempts.
		for _, f := range pass.Files {
			if ast.IsGenerated(f) {
				continue
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					if f, ok := c.checkRetryable(call); ok {
						seen[call] = true
						f.report(pass, call)
					}
				}
				return true
			})
		}
		for _, s := range res.Scopes() {
			if lit, ok := s.Node.(*ast.CompositeLit); ok && s.Kind == retryscope.Client && !suppress.GeneratedAt(pass, lit.Pos()) {
				if at, msg, cl := c.checkStored(res, s, lit); msg != "" {
					suppress.Report(pass, Name, analysis.Diagnostic{Pos: at.Pos(), End: at.End(), Message: msg, Related: clientRelated(cl.pos, cl.end, cl.desc)})
				}
			}
			if call, ok := s.Node.(*ast.CallExpr); ok && s.Kind == retryscope.Client && !suppress.GeneratedAt(pass, call.Pos()) {
				c.checkCopied(s, call)
			}
		}
	}
	for _, s := range res.Scopes() {
		if s.Body == nil || suppress.GeneratedAt(pass, s.Body.Pos()) {
			continue
		}
		ast.Inspect(s.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || seen[call] {
				return true
			}
			seen[call] = true
			if f, ok := c.check(call); ok {
				f.report(pass, call)
			} else if fd := c.declAt(call.Pos()); fd != nil {
				if f, ok := c.checkField(fd, call); ok {
					f.report(pass, call)
				}
			}
			return true
		})
	}
}

func imports(pkg *types.Package, path string) bool {
	for _, p := range pkg.Imports() {
		if p.Path() == path {
			return true
		}
	}
	return false
}

// httpName returns fn's full name, spelt as net/http's when fn is of a
// retrying client whose API mirrors net/http's (retryscope.HTTPMirror).
func httpName(fn *types.Func) string {
	name, _ := retryscope.HTTPMirror(fn.FullName())
	return name
}

// importsMirror reports whether pkg imports a retrying client whose API
// mirrors net/http's (go-retryablehttp: retryscope.HTTPMirror).
func importsMirror(pkg *types.Package) bool {
	for _, p := range pkg.Imports() {
		if retryscope.HTTPMirrorPath(p.Path()) {
			return true
		}
	}
	return false
}

// checkRetryable returns the finding for a go-retryablehttp send with no
// timeout.
func (c *checker) checkRetryable(call *ast.CallExpr) (finding, bool) {
	fn := astq.Callee(c.info, call)
	if fn == nil || fn.Pkg() == nil || !retryscope.HTTPMirrorPath(fn.Pkg().Path()) || fn.Pkg() == c.pass.Pkg {
		return finding{}, false // the library's own code is not its users'
	}
	switch fn.Name() {
	case "Get", "Head", "Post", "PostForm":
	case "Do":
		if fn.Signature().Recv() == nil {
			return finding{}, false
		}
	default:
		return finding{}, false
	}
	const what = " can hang on every retry: no HTTPClient.Timeout, no context deadline; " + retryableFix
	name := names.Of(fn)
	if fn.Signature().Recv() == nil {
		return finding{msg: name + what}, true
	}
	x, f, ok := c.methodFlow(call)
	if !ok {
		return finding{}, false
	}
	made, ok := f.retryableWithoutTimeout(x)
	if !ok || !f.sendsWithoutDeadline(fn, call) {
		return finding{}, false
	}
	out := finding{msg: name + what}
	if made != nil {
		out.related = clientRelated(made.Pos(), made.End(), "retryablehttp.NewClient(), whose HTTPClient has none")
	}
	return out, true
}

// checkStored returns the message for a go-retryablehttp client literal
// that a constructor stores in a struct field (retryscope's FieldClient)
// with an HTTPClient proven to have no Timeout, and where to report it; ""
// when the package gives that HTTPClient a timeout or a transport
// elsewhere. Every request of the package's type goes through the field,
// each on its caller's context, whose deadline, if any, spans all the
// attempts: no attempt has a bound of its own.
func (c *checker) checkStored(res *retryscope.Result, s *retryscope.Scope, lit *ast.CompositeLit) (ast.Node, string, client) {
	fields := res.ClientFields(s)
	if len(fields) == 0 {
		return nil, "", client{}
	}
	var at ast.Node = lit
	cl := client{desc: "HTTPClient unset: cleanhttp.DefaultPooledClient()", pos: lit.Pos(), end: lit.End()}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return nil, "", client{}
		}
		if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "HTTPClient" {
			f := c.flowAt(kv.Pos())
			if f == nil {
				return nil, "", client{}
			}
			if cl, ok = f.clientWithoutTimeout(kv.Value, 0); !ok {
				return nil, "", client{}
			}
			at = kv.Value
		}
	}
	if c.bounded(fields) {
		return nil, "", client{}
	}
	return at, fmt.Sprintf("go-retryablehttp client in field %s has no timeout; set its HTTPClient.Timeout", fields[0].Name()), cl
}

// bounded reports whether the package assigns the Timeout or Transport of
// the HTTPClient of a client held in one of fields, or replaces that
// HTTPClient with anything but a parameter (a client option passing the
// caller's client on is the caller's choice).
func (c *checker) bounded(fields []*types.Var) bool {
	held := func(e ast.Expr) bool {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		v, _ := c.info.Uses[sel.Sel].(*types.Var)
		return v != nil && slices.Contains(fields, v)
	}
	httpClientOf := func(e ast.Expr) bool {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		return ok && sel.Sel.Name == "HTTPClient" && held(sel.X)
	}
	return c.assigns(func(as *ast.AssignStmt, i int) bool {
		lhs := as.Lhs[i]
		if x, ok := timeoutOrTransport(lhs); ok && httpClientOf(x) {
			return true
		}
		return httpClientOf(lhs) && (len(as.Rhs) != len(as.Lhs) || !c.isParam(as.Rhs[i]))
	})
}

// assigns reports whether an assignment of the package has an i'th
// left-hand side for which f is true.
func (c *checker) assigns(f func(as *ast.AssignStmt, i int) bool) bool {
	found := false
	for _, file := range c.pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok && !found {
				for i := range as.Lhs {
					found = found || f(as, i)
				}
			}
			return !found
		})
	}
	return found
}

// timeoutOrTransport returns x when e is x.Timeout or x.Transport.
func timeoutOrTransport(e ast.Expr) (ast.Expr, bool) {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if ok && (sel.Sel.Name == "Timeout" || sel.Sel.Name == "Transport") {
		return sel.X, true
	}
	return nil, false
}

// isParam reports whether e names a parameter of the function it is in.
func (c *checker) isParam(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	f := c.flowAt(id.Pos())
	o := c.info.Uses[id]
	return f != nil && o != nil && retryscope.IsParam(o)
}

type checker struct {
	pass *analysis.Pass
	info *types.Info
	res  *retryscope.Result
	// grpcTimeout: a dial of the package may time its calls out
	grpcTimeout bool
	flows       map[*ast.FuncDecl]*flow
	decls       map[*types.Func]*ast.FuncDecl // the package's functions, for decl
	assumed     map[types.Object]bool         // fromCaller's requests whose field it reads
	defaultSet  bool                          // the package sets http.DefaultClient, its Timeout or its Transport
	zeroSteps   int                           // the values zeroTimeout read for the copy at hand
}

// check returns the finding for call, when call is an HTTP call proven to
// have no timeout.
func (c *checker) check(call *ast.CallExpr) (finding, bool) {
	fn := astq.Callee(c.info, call)
	if fn == nil {
		return finding{}, false
	}
	if ctx, _, ok := retryscope.GRPCCall(c.info, call); ok {
		return c.checkGRPC(call, ctx)
	}
	const what = " in a retry can hang: no client Timeout, no context deadline; " + fixText
	switch fn.FullName() {
	case "net/http.Get", "net/http.Head", "net/http.Post", "net/http.PostForm":
		if c.defaultSet {
			return finding{}, false
		}
		return finding{msg: names.Of(fn) + what}, true
	default:
		if !clientSends[fn.FullName()] {
			return finding{}, false
		}
	}
	x, f, ok := c.methodFlow(call)
	if !ok {
		return finding{}, false
	}
	cl, ok := f.clientWithoutTimeout(x, 0)
	if !ok || !f.sendsWithoutDeadline(fn, call) {
		return finding{}, false
	}
	return finding{msg: names.Of(fn) + what, related: clientRelated(cl.pos, cl.end, cl.desc)}, true
}

// setsDefaultClient reports whether the package assigns http.DefaultClient
// or one of its Timeout and Transport fields.
func (c *checker) setsDefaultClient() bool {
	return c.assigns(func(as *ast.AssignStmt, i int) bool {
		e := as.Lhs[i]
		if x, ok := timeoutOrTransport(e); ok {
			e = x
		}
		return c.isDefaultClient(e)
	})
}

func (c *checker) isDefaultClient(e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	v, ok := c.info.Uses[sel.Sel].(*types.Var)
	return ok && v.Pkg() != nil && v.Pkg().Path() == "net/http" && v.Name() == "DefaultClient"
}

// methodFlow returns the receiver of call, a method call, and the flow of
// the function declaration holding call.
func (c *checker) methodFlow(call *ast.CallExpr) (ast.Expr, *flow, bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, nil, false
	}
	f := c.flowAt(call.Pos())
	return sel.X, f, f != nil
}

// sendsWithoutDeadline reports whether call, a send by client method fn,
// sends a request without a deadline: a Do's one request argument must have
// none; the other methods make their request themselves.
func (f *flow) sendsWithoutDeadline(fn *types.Func, call *ast.CallExpr) bool {
	if fn.Name() != "Do" {
		return true
	}
	if len(call.Args) != 1 {
		return false
	}
	_, ok := f.requestWithoutDeadline(call.Args[0], 0)
	return ok
}

// flowAt returns the def index of the function declaration holding pos.
func (c *checker) flowAt(pos token.Pos) *flow {
	fd := c.declAt(pos)
	if fd == nil {
		return nil
	}
	f := c.flows[fd]
	if f == nil {
		f = newFlow(c, fd)
		c.flows[fd] = f
	}
	return f
}

// declAt returns the function declaration holding pos, or nil.
func (c *checker) declAt(pos token.Pos) *ast.FuncDecl {
	for _, file := range c.pass.Files {
		if pos < file.FileStart || pos > file.FileEnd {
			continue
		}
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && pos >= fd.Pos() && pos < fd.End() {
				return fd
			}
		}
	}
	return nil
}

// clientSends are the methods of *http.Client that send a request.
var clientSends = map[string]bool{
	"(*net/http.Client).Do": true, "(*net/http.Client).Get": true, "(*net/http.Client).Head": true,
	"(*net/http.Client).Post": true, "(*net/http.Client).PostForm": true,
}
