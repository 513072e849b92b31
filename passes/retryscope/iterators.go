package retryscope

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// Attempt iterators (issue 19, shape 2): a range over a function iterator
// of attempt numbers whose producer waits between yields,
//
//	for range c.newRetryTimer(ctx, maxRetry, base, cap, jitter) { ... continue // retry }
//
// with newRetryTimer returning func(yield func(int) bool) that runs for
// i := range maxRetry { if !yield(i) { return }; <-time.After(backoff(i)) }.
// The body is the attempt, judged like a for loop's; the iterator's loop is
// the cap and its waits are the loop's waits, read with the iterator's
// parameters standing for the range's arguments. An iterator of items (a
// page, a record), one that yields without waiting, or one the model cannot
// read is no attempt iterator: ranging over it processes what it yields.

// An attemptIter is what the model reads of an attempt iterator.
type attemptIter struct {
	cap   Cap
	waits []Wait
}

// attemptIterOf returns the attempt iterator that l ranges over, or nil.
func (m *model) attemptIterOf(di *defIndex, l *ast.RangeStmt) *attemptIter {
	t := m.info.TypeOf(l.X)
	if t == nil || !isAttemptSeq(t) {
		return nil
	}
	x := ast.Unparen(l.X)
	if _, ok := x.(*ast.Ident); ok {
		x = ast.Unparen(m.origin(di, x, l.Pos()))
	}
	call, ok := x.(*ast.CallExpr)
	if !ok {
		return nil
	}
	fn := m.callee(call)
	if fn == nil || fn.Pkg() != m.pass.Pkg {
		return nil
	}
	decl := m.funcs[fn]
	if decl == nil || decl.Body == nil {
		return nil
	}
	lit := returnedLit(decl.Body)
	if lit == nil || len(lit.Type.Params.List) != 1 || len(lit.Type.Params.List[0].Names) != 1 {
		return nil
	}
	yield := m.info.Defs[lit.Type.Params.List[0].Names[0]]
	if yield == nil {
		return nil
	}
	args := make(map[types.Object]ast.Expr)
	sig := fn.Signature()
	for i := 0; i < sig.Params().Len() && i < len(call.Args); i++ {
		if sig.Variadic() && i == sig.Params().Len()-1 {
			break
		}
		args[sig.Params().At(i)] = call.Args[i]
	}
	hdi := m.defIndex(decl)
	var it *attemptIter
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if it != nil {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		body := astq.LoopBody(n)
		if body == nil || !yieldsIn(m.info, body, yield) {
			return true
		}
		var waits []Wait
		astq.InspectOwn(body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			ws := m.waitCall(hdi, c)
			if ws == nil {
				return true
			}
			ws.args, ws.callerDI = args, di
			waits = append(waits, m.waitAt(ws, c))
			return false
		})
		if len(waits) == 0 {
			return false // yields without waiting: a sequence, not a backoff
		}
		it = &attemptIter{cap: m.iterCap(n.(ast.Stmt), args), waits: waits}
		return false
	})
	return it
}

// isAttemptSeq reports whether t is an iterator of attempt numbers or of
// nothing: func(yield func(int) bool) (iter.Seq[int]) or func(yield
// func() bool).
func isAttemptSeq(t types.Type) bool {
	sig, ok := t.Underlying().(*types.Signature)
	if !ok || sig.Params().Len() != 1 || sig.Results().Len() != 0 {
		return false
	}
	y, ok := sig.Params().At(0).Type().Underlying().(*types.Signature)
	if !ok || y.Results().Len() != 1 || !types.Identical(y.Results().At(0).Type(), types.Typ[types.Bool]) {
		return false
	}
	switch y.Params().Len() {
	case 0:
		return true
	case 1:
		return isInteger(y.Params().At(0).Type())
	}
	return false
}

// returnedLit returns the function literal body returns, when its only
// top-level way out is return func(...) {...}.
func returnedLit(body *ast.BlockStmt) *ast.FuncLit {
	var lit *ast.FuncLit
	n := 0
	astq.InspectOwn(body, func(node ast.Node) bool {
		switch node := node.(type) {
		case *ast.ReturnStmt:
			n++
			if len(node.Results) == 1 {
				lit, _ = ast.Unparen(node.Results[0]).(*ast.FuncLit)
			}
		}
		return true
	})
	if n != 1 {
		return nil
	}
	return lit
}

// yieldsIn reports whether body calls yield outside function literals.
func yieldsIn(info *types.Info, body *ast.BlockStmt, yield types.Object) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || found {
			return false
		}
		if c, ok := n.(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok && info.Uses[id] == yield {
				found = true
			}
		}
		return !found
	})
	return found
}

// iterCap returns the cap of an attempt iterator's loop: a range over a
// number, or a for loop whose condition compares its incremented counter
// with a bound (i < n), known when the number is a constant or a
// parameter given a constant. Any other loop's cap is unknown.
func (m *model) iterCap(loop ast.Stmt, args map[types.Object]ast.Expr) Cap {
	count := func(e ast.Expr, pos token.Pos, adjust int64) Cap {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if a, ok := args[m.info.Uses[id]]; ok {
				e = a
			}
		}
		if t, ok := m.info.Types[e]; ok && t.Value != nil {
			if n, ok := constant.Int64Val(constant.ToInt(t.Value)); ok {
				return Cap{Kind: CapKnown, N: int(max(n+adjust, 1)), Pos: pos}
			}
		}
		return Cap{Kind: CapBounded, Pos: pos}
	}
	switch l := loop.(type) {
	case *ast.RangeStmt:
		if t, ok := m.info.Types[l.X]; ok && isInteger(t.Type) {
			return count(l.X, l.X.Pos(), 0)
		}
	case *ast.ForStmt:
		b, ok := l.Cond.(*ast.BinaryExpr)
		inc, ok2 := l.Post.(*ast.IncDecStmt)
		if !ok || !ok2 || inc.Tok != token.INC {
			break
		}
		ctr, ok := ast.Unparen(inc.X).(*ast.Ident)
		x, ok3 := ast.Unparen(b.X).(*ast.Ident)
		if !ok || !ok3 || m.info.Uses[x] != m.info.Uses[ctr] || m.info.Uses[x] == nil {
			break
		}
		start := int64(0)
		if as, ok := l.Init.(*ast.AssignStmt); ok && len(as.Rhs) == 1 {
			if v, ok := m.intConst(as.Rhs[0]); ok {
				start = v
			}
		}
		switch b.Op {
		case token.LSS:
			return count(b.Y, b.Y.Pos(), -start)
		case token.LEQ:
			return count(b.Y, b.Y.Pos(), 1-start)
		}
	}
	return Cap{Kind: CapUnknown}
}
