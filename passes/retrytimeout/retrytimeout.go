package retrytimeout

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/internal/suppress"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// Name is the check's name.
const Name = "retrytimeout"

// Config configures the check.
type Config struct {
	// Scope is the retry model pass to read; nil means retryscope.Analyzer.
	Scope *analysis.Analyzer
}

// Analyzer is the check with the default configuration.
var Analyzer = New(&Config{})

// New returns the check for cfg. The analyzer reads cfg when it runs.
func New(cfg *Config) *analysis.Analyzer {
	scope := cfg.Scope
	if scope == nil {
		scope = retryscope.Analyzer
	}
	return &analysis.Analyzer{
		Name:     Name,
		Doc:      Documentation.AnalyzerDoc(),
		URL:      "https://github.com/idemlint/idemlint/blob/main/docs/retrytimeout.md",
		Requires: []*analysis.Analyzer{scope, suppress.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			run(pass, pass.ResultOf[scope].(*retryscope.Result))
			return nil, nil
		},
	}
}

const fixText = "set http.Client.Timeout, or make the request with http.NewRequestWithContext and a context.WithTimeout per attempt, " +
	"or send it through github.com/idemlint/idemlint/runtime/retry.NewTransport with Policy.AttemptTimeout"

func run(pass *analysis.Pass, res *retryscope.Result) {
	grpc := usesGRPC(pass.Pkg)
	if !imports(pass.Pkg, "net/http") && !imports(pass.Pkg, retryable) && !grpc {
		return
	}
	c := &checker{pass: pass, info: pass.TypesInfo, res: res, flows: make(map[*ast.FuncDecl]*flow)}
	c.grpcTimeout = grpc && grpcTimeoutSomewhere(res)
	c.defaultSet = c.setsDefaultClient()
	seen := make(map[*ast.CallExpr]bool)
	if imports(pass.Pkg, retryable) || pass.Pkg.Path() == retryable {
		// A go-retryablehttp client is a retry of its own: its sends are
		// the attempts.
		for _, f := range pass.Files {
			if ast.IsGenerated(f) {
				continue
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					if msg := c.checkRetryable(call); msg != "" {
						seen[call] = true
						suppress.Report(pass, Name, analysis.Diagnostic{Pos: call.Pos(), End: call.Fun.End(), Message: msg})
					}
				}
				return true
			})
		}
	}
	for _, s := range res.Scopes() {
		if s.Body == nil || generated(pass, s.Body.Pos()) {
			continue
		}
		ast.Inspect(s.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || seen[call] {
				return true
			}
			seen[call] = true
			if msg := c.check(call); msg != "" {
				suppress.Report(pass, Name, analysis.Diagnostic{Pos: call.Pos(), End: call.Fun.End(), Message: msg})
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

const retryable = "github.com/hashicorp/go-retryablehttp"

const retryableFix = "set the client's HTTPClient.Timeout, or make the request with retryablehttp.NewRequestWithContext and a context.WithTimeout, " +
	"or use github.com/idemlint/idemlint/runtime/retry.NewTransport with Policy.AttemptTimeout"

// checkRetryable returns the message for a go-retryablehttp send with no
// timeout, or "".
func (c *checker) checkRetryable(call *ast.CallExpr) string {
	fn := callee(c.info, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != retryable || c.pass.Pkg.Path() == retryable {
		return "" // the library's own code is not its users'
	}
	const noTimeout = "its HTTPClient (go-retryablehttp's default, cleanhttp.DefaultPooledClient) has no Timeout"
	switch fn.Name() {
	case "Get", "Head", "Post", "PostForm":
	case "Do":
		if fn.Signature().Recv() == nil {
			return ""
		}
	default:
		return ""
	}
	if fn.Signature().Recv() == nil {
		return fn.FullName() + " retries with no timeout: " + noTimeout + " and the request has no context, " +
			"so a hung attempt never ends and the retries never come; " + retryableFix
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	f := c.flowAt(call.Pos())
	if f == nil || !f.retryableWithoutTimeout(sel.X) {
		return ""
	}
	why := noTimeout + " and the request has no context"
	if fn.Name() == "Do" {
		if len(call.Args) != 1 {
			return ""
		}
		ctx, ok := f.requestWithoutDeadline(call.Args[0], 0)
		if !ok {
			return ""
		}
		why = noTimeout + " and the request's context (" + ctx + ") has no deadline"
	}
	return fn.FullName() + " retries with no timeout: " + why + ", so a hung attempt never ends and the retries never come; " + retryableFix
}

type checker struct {
	pass *analysis.Pass
	info *types.Info
	res  *retryscope.Result
	// grpcTimeout: a dial of the package may time its calls out
	grpcTimeout bool
	flows       map[*ast.FuncDecl]*flow
	defaultSet  bool // the package sets http.DefaultClient, its Timeout or its Transport
}

// check returns the message for call, or "" when call is not an HTTP call
// proven to have no timeout.
func (c *checker) check(call *ast.CallExpr) string {
	fn := callee(c.info, call)
	if fn == nil {
		return ""
	}
	if ctx, _, ok := retryscope.GRPCCall(c.info, call); ok {
		return c.checkGRPC(call, ctx)
	}
	name := fn.FullName()
	switch name {
	case "net/http.Get", "net/http.Head", "net/http.Post", "net/http.PostForm":
		if c.defaultSet {
			return ""
		}
		return name + " inside a retry has no timeout: it sends through http.DefaultClient, whose Timeout is zero, " +
			"with no context, so a hung attempt never ends and the retry never gets to retry; " + fixText
	case "(*net/http.Client).Do", "(*net/http.Client).Get", "(*net/http.Client).Head", "(*net/http.Client).Post", "(*net/http.Client).PostForm":
	default:
		return ""
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	f := c.flowAt(call.Pos())
	if f == nil {
		return ""
	}
	client, ok := f.clientWithoutTimeout(sel.X, 0)
	if !ok {
		return ""
	}
	why := "the client (" + client + ") has no Timeout"
	if fn.Name() == "Do" {
		if len(call.Args) != 1 {
			return ""
		}
		ctx, ok := f.requestWithoutDeadline(call.Args[0], 0)
		if !ok {
			return ""
		}
		why += " and the request's context (" + ctx + ") has no deadline"
	} else {
		why += " and the request has no context"
	}
	return name + " inside a retry has no timeout: " + why + ", so a hung attempt never ends and the retry never gets to retry; " + fixText
}

// setsDefaultClient reports whether the package assigns http.DefaultClient
// or one of its Timeout and Transport fields.
func (c *checker) setsDefaultClient() bool {
	found := false
	for _, file := range c.pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok {
				return !found
			}
			for _, lhs := range as.Lhs {
				e := ast.Unparen(lhs)
				if sel, ok := e.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Timeout" || sel.Sel.Name == "Transport") {
					e = ast.Unparen(sel.X)
				}
				if c.isDefaultClient(e) {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

func (c *checker) isDefaultClient(e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	v, ok := c.info.Uses[sel.Sel].(*types.Var)
	return ok && v.Pkg() != nil && v.Pkg().Path() == "net/http" && v.Name() == "DefaultClient"
}

// flowAt returns the def index of the function declaration holding pos.
func (c *checker) flowAt(pos token.Pos) *flow {
	for _, file := range c.pass.Files {
		if pos < file.FileStart || pos > file.FileEnd {
			continue
		}
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || pos < fd.Pos() || pos >= fd.End() {
				continue
			}
			f := c.flows[fd]
			if f == nil {
				f = newFlow(c, fd)
				c.flows[fd] = f
			}
			return f
		}
	}
	return nil
}

func callee(info *types.Info, call *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	case *ast.IndexExpr:
		return callee(info, &ast.CallExpr{Fun: f.X})
	default:
		return nil
	}
	fn, _ := info.Uses[id].(*types.Func)
	return fn
}

func generated(pass *analysis.Pass, pos token.Pos) bool {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return ast.IsGenerated(f)
		}
	}
	return false
}
