package retryscope

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// A poll that retries (issue 19, shape 16 of testdata/recall/README.md):
// k8s wait.PollUntilContextCancel calls its condition every interval until
// it returns true or an error, or the context ends. A condition that
// returns false, nil when a call it makes with the poll's context fails
// (list, err := listFn(ctx, opts); if err != nil { return false, nil })
// turns the poll into a retry of that call, at the constant interval, with
// no attempt cap. A poll for a state (the condition tests a result) is
// none, and so is PollUntilContextTimeout: a wait of a few seconds for
// something to be ready (a file watch, a test API server's namespace) more
// often than a retry of a dependency. The k8s library's file
// (lib_k8s.go: pollRetry) asks swallowsFailure through its Site.

// swallowsFailure reports whether a condition body returns false, nil
// inside an if on a non-nil error that a call given the condition's
// context returned (the failure is tried again at the next tick instead of
// ending the poll).
func (m *model) swallowsFailure(body *ast.BlockStmt) bool {
	di := buildDefIndex(m.info, body)
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || found {
			return false
		}
		ifs, ok := n.(*ast.IfStmt)
		if !ok {
			return true
		}
		e := m.nonNilTest(ifs.Cond)
		if e == nil || len(ifs.Body.List) == 0 {
			return true
		}
		ret, ok := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 2 {
			return true
		}
		if isFalse(m.info, ret.Results[0]) && astq.IsNil(m.info, ret.Results[1]) && m.fromContextCall(di, ifs, e) {
			found = true
		}
		return !found
	})
	return found
}

// fromContextCall reports whether e is assigned, in the if statement's
// init or in the body di indexes, from a call that takes a context.
func (m *model) fromContextCall(di *defIndex, ifs *ast.IfStmt, e types.Object) bool {
	var rhs []ast.Expr
	if as, ok := ifs.Init.(*ast.AssignStmt); ok {
		rhs = append(rhs, as.Rhs...)
	}
	for _, d := range di.defs[e] {
		rhs = append(rhs, d.rhs)
	}
	for _, r := range rhs {
		if call, ok := ast.Unparen(r).(*ast.CallExpr); ok && contextArg(m.info, call) != nil {
			return true
		}
	}
	return false
}

// nonNilTest returns the error variable cond tests for err != nil, or nil.
func (m *model) nonNilTest(cond ast.Expr) types.Object {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != token.NEQ {
		return nil
	}
	var e types.Object
	isErrVar := func(x ast.Expr) bool {
		if id, ok := ast.Unparen(x).(*ast.Ident); ok {
			if o := m.info.Uses[id]; o != nil && isError(o.Type()) {
				e = o
				return true
			}
		}
		return false
	}
	if !isNilCompare(m.info, b, isErrVar) {
		return nil
	}
	return e
}

func isFalse(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && !constant.BoolVal(tv.Value)
}
