package nestedretry

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/names"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// clientLayer returns the layer of a call to a client that retries by
// itself (the retry model's table knows them: retryscope.SelfRetrying),
// or nil.
func (c *checker) clientLayer(call *ast.CallExpr) *layer {
	sr, ok := c.clients.SelfRetrying(call)
	if !ok {
		return nil
	}
	fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	l := &layer{node: call, pos: callPos(call), end: call.Fun.End(), desc: names.Of(fn.Origin()), lib: sr.Library, client: sr.Client, attempts: sr.Attempts, offBy: sr.OffBy}
	if sr.Op != nil {
		l.body, l.op, l.opExpr = c.opOf(sr.Op)
	}
	return l
}

// clientEnv is the retry model's reader of the package's client
// configurations, following values with the check's own index, and
// knowing the retrying transports of other packages by their facts.
func (c *checker) clientEnv() *retryscope.ClientEnv {
	return &retryscope.ClientEnv{Info: c.pass.TypesInfo, Files: c.pass.Files, Res: c.res,
		Region: func(es ...ast.Expr) retryscope.ClientRegion {
			r := c.x.region(es...)
			// clipped: the index keeps the region, which a caller may extend
			return retryscope.ClientRegion{Nodes: slices.Clip(r.nodes), Open: r.open}
		},
		Transport: func(fn *types.Func) (retryscope.SelfRetry, bool) {
			var f transportFact
			if fn.Pkg() == nil || fn.Pkg() == c.pass.Pkg || !c.pass.ImportObjectFact(fn, &f) {
				return retryscope.SelfRetry{}, false
			}
			return retryscope.SelfRetry{Library: fn.Pkg().Path(), Attempts: f.RoundTrip.Attempts, Client: true, OffBy: f.OffBy}, true
		}}
}

// retryingTransport returns the transportFact of fn, declared by d, when
// fn returns an http.RoundTripper and every value it returns is of one
// type of the package whose RoundTrip method reaches a retry layer
// (return &retryTransport{inner: inner}), or nil.
func (c *checker) retryingTransport(d *ast.FuncDecl, fn *types.Func) *transportFact {
	res := fn.Signature().Results()
	if res.Len() != 1 || !isRoundTripper(res.At(0).Type()) {
		return nil
	}
	var typ types.Type
	ok := true
	astq.InspectOwn(d.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ReturnStmt:
			if len(n.Results) != 1 {
				ok = false
				break
			}
			t := c.pass.TypesInfo.TypeOf(n.Results[0])
			if t == nil || types.IsInterface(t) || typ != nil && !types.Identical(t, typ) {
				ok = false
			}
			typ = t
		}
		return ok
	})
	if !ok || typ == nil {
		return nil
	}
	obj, _, _ := types.LookupFieldOrMethod(typ, true, c.pass.Pkg, "RoundTrip")
	m, isFunc := obj.(*types.Func)
	if !isFunc || m.Pkg() != c.pass.Pkg {
		return nil
	}
	md := c.x.funcs[m]
	if md == nil {
		return nil
	}
	r := c.summary(md)
	if r == nil {
		return nil
	}
	return &transportFact{RoundTrip: *r, OffBy: c.offBy(md)}
}

// offBy returns the import path of the package of another module's or
// package's function that RoundTrip (d) asks of its request's context
// (retry.Ever(in.Context())), or "".
func (c *checker) offBy(d *ast.FuncDecl) string {
	if len(d.Type.Params.List) != 1 || len(d.Type.Params.List[0].Names) != 1 {
		return ""
	}
	req := c.pass.TypesInfo.Defs[d.Type.Params.List[0].Names[0]]
	path := ""
	ast.Inspect(d.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || path != "" {
			return path == ""
		}
		fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
		if fn == nil || fn.Pkg() == nil || fn.Pkg() == c.pass.Pkg || len(call.Args) != 1 {
			return true
		}
		// F(in.Context())
		arg, ok := ast.Unparen(call.Args[0]).(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := ast.Unparen(arg.Fun).(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && sel.Sel.Name == "Context" && req != nil && c.pass.TypesInfo.Uses[id] == req {
			path = fn.Pkg().Path()
		}
		return path == ""
	})
	return path
}

// isRoundTripper reports whether t is net/http.RoundTripper.
func isRoundTripper(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "net/http" && n.Obj().Name() == "RoundTripper"
}

// callPos is where a call is reported: the method or function name.
func callPos(call *ast.CallExpr) token.Pos {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		return sel.Sel.Pos()
	}
	return call.Pos()
}

// capAttempts converts the retry model's cap: > 0 known, 0 unknown, -1 none.
func capAttempts(c retryscope.Cap) int {
	switch c.Kind {
	case retryscope.CapKnown:
		return c.N
	case retryscope.CapNone:
		return -1
	}
	return 0
}
