package unkeyedpost

import (
	"go/ast"
	"go/token"
	"go/types"
	"unicode/utf8"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/names"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// transportSend reports whether call sends an *http.Request through a
// value rather than a declared function: an http.RoundTripper's RoundTrip
// (c.transport.RoundTrip(req)) or a func value of the shape of
// (*http.Client).Do (handler := c.HTTPClient.Do, wrapped in middlewares,
// then handler(req)), the sends of generated SDKs and search transports.
// It returns the request argument and the send's name as messages spell
// it.
func (c *checker) transportSend(call *ast.CallExpr) (ast.Expr, string, bool) {
	if len(call.Args) != 1 || typeutil.StaticCallee(c.info, call) != nil {
		return nil, "", false
	}
	t := c.info.TypeOf(call.Fun)
	if t == nil {
		return nil, "", false
	}
	sig, ok := t.Underlying().(*types.Signature)
	if !ok || !sendShape(sig) {
		return nil, "", false
	}
	if fn, ok := typeutil.Callee(c.info, call).(*types.Func); ok {
		// an interface method: only net/http's RoundTripper is a transport
		if fn.FullName() != "(net/http.RoundTripper).RoundTrip" {
			return nil, "", false
		}
		return call.Args[0], names.In(fn, c.pass.Pkg), true
	}
	if tv, ok := c.info.Types[call.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
		return nil, "", false
	}
	name := types.ExprString(call.Fun)
	if utf8.RuneCountInString(name) > 30 {
		name = "a func value"
	}
	return call.Args[0], name, true
}

// sendShape reports whether sig is func(*http.Request) (*http.Response,
// error).
func sendShape(sig *types.Signature) bool {
	if sig.Params().Len() != 1 || sig.Results().Len() != 2 {
		return false
	}
	return astq.IsPointerTo(sig.Params().At(0).Type(), "net/http", "Request") &&
		astq.IsPointerTo(sig.Results().At(0).Type(), "net/http", "Response") && astq.IsError(sig.Results().At(1).Type())
}

// callersRequest reports whether e, the request s sends, is its callers'
// to choose: a parameter of fd, an exported function or method of an
// exported type, that no package call site settled as a POST; or an
// exported field of the receiver of a method of an exported type. Then every method its callers pass is
// re-sent, POST included; s gets anyMethod. A function that tests the
// request's method (if req.Method == http.MethodGet, a switch on it),
// itself or in a helper it hands the request to, chooses what to retry by
// method and is left alone.
func (c *checker) callersRequest(fd *ast.FuncDecl, s *sendInfo, e ast.Expr) bool {
	if !c.viaParams {
		return false
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := c.info.Uses[e].(*types.Var)
		if !ok || !isParam(c.info, fd, v) || !(fd.Name.IsExported() && exportedRecv(c.info, fd) || c.pipelinePolicy(fd)) {
			return false
		}
	case *ast.SelectorExpr:
		// an exported field of an exported type: its users set it, and
		// any method of the type may send it
		f, ok := c.info.Uses[e.Sel].(*types.Var)
		if !ok || !f.IsField() || !f.Exported() || !isRequest(f.Type(), "net/http") || fd.Recv == nil || !exportedRecv(c.info, fd) {
			return false
		}
		recv, ok := ast.Unparen(e.X).(*ast.Ident)
		if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 || c.info.Uses[recv] != c.info.Defs[fd.Recv.List[0].Names[0]] {
			return false
		}
	default:
		return false
	}
	if c.testsMethod(fd, 0) {
		return false
	}
	s.anyMethod, s.origin, s.indirect, s.method = true, e, true, "POST"
	return true
}

// pipelinePolicy reports whether fd is a pipeline policy's Do, which the
// pipeline hands every request of the SDK's clients
// (retryscope.PipelinePolicy).
func (c *checker) pipelinePolicy(fd *ast.FuncDecl) bool {
	fn, _ := c.info.Defs[fd.Name].(*types.Func)
	return retryscope.PipelinePolicy(fn)
}

// exportedRecv reports whether fd is a function, or a method of an
// exported type.
func exportedRecv(info *types.Info, fd *ast.FuncDecl) bool {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return true
	}
	tn := astq.NamedOf(info.TypeOf(fd.Recv.List[0].Type))
	return tn != nil && tn.Exported()
}

// isParam reports whether v is a parameter of fd.
func isParam(info *types.Info, fd *ast.FuncDecl, v *types.Var) bool {
	for id := range astq.Params(info, fd) {
		if info.Defs[id] == v {
			return true
		}
	}
	return false
}

// testsMethod reports whether fd compares a request's method, or hands a
// request to a helper of the package that does (depth bounds the helpers
// followed).
func (c *checker) testsMethod(fd *ast.FuncDecl, depth int) bool {
	isMethod := func(e ast.Expr) bool {
		// m := req.Method; if m != http.MethodGet
		sel, ok := ast.Unparen(c.origin(fd, e, e.Pos())).(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Method" {
			return false
		}
		t := c.info.TypeOf(sel.X)
		return isRequest(t, "net/http") || retryscope.HTTPMirrorType(t, "Request")
	}
	return astq.Search(fd.Body, func(n ast.Node, found *bool) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if (n.Op == token.EQL || n.Op == token.NEQ) && (isMethod(n.X) || isMethod(n.Y)) {
				*found = true
			}
		case *ast.SwitchStmt:
			if n.Tag != nil && isMethod(n.Tag) {
				*found = true
			}
		case *ast.CallExpr:
			if depth >= 2 {
				break
			}
			fn := typeutil.StaticCallee(c.info, n)
			if fn == nil || c.funcs[fn.Origin()] == nil || c.funcs[fn.Origin()] == fd {
				break
			}
			for _, a := range n.Args {
				if t := c.info.TypeOf(a); t != nil && (isRequest(t, "net/http") || retryscope.HTTPMirrorType(t, "Request") || retryscope.PipelineRequest(t)) {
					if c.testsMethod(c.funcs[fn.Origin()], depth+1) {
						*found = true
					}
					break
				}
			}
		}
		return !*found
	})
}

// anyMethodMessage is the finding on a retry of the caller's requests;
// name is dropped when the message would be longer than 120 characters.
func anyMethodMessage(name string) string {
	const rest = " retries the caller's requests, POST too, without an idempotency key; key POSTs or retry only idempotent methods"
	if utf8.RuneCountInString(name+rest) > 120 {
		return "a retry of the caller's requests, POST too, has no idempotency key; key POSTs or retry only idempotent methods"
	}
	return name + rest
}
