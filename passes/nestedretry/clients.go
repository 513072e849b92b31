package nestedretry

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/types/typeutil"

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
	l := &layer{node: call, pos: callPos(call), end: call.Fun.End(), desc: names.Of(fn.Origin()), lib: sr.Library, client: sr.Client, attempts: sr.Attempts}
	if sr.Op != nil {
		l.body, l.op, l.opExpr = c.opOf(sr.Op)
	}
	return l
}

// clientEnv is the retry model's reader of the package's client
// configurations, following values with the check's own index.
func (c *checker) clientEnv() *retryscope.ClientEnv {
	return &retryscope.ClientEnv{Info: c.pass.TypesInfo, Files: c.pass.Files, Res: c.res,
		Region: func(es ...ast.Expr) retryscope.ClientRegion {
			r := c.x.region(es...)
			// clipped: the index keeps the region, which a caller may extend
			return retryscope.ClientRegion{Nodes: slices.Clip(r.nodes), Open: r.open}
		}}
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
