package retryscope

import (
	"go/ast"
	"go/types"
)

// eapache/go-resiliency's retrier (v1.7.0): retrier.New(backoff, class)
// retries len(backoff) times, waiting backoff[i] without jitter unless
// SetJitter sets a factor; WithInfiniteRetry removes the cap; Run has no
// context, RunCtx and RunFn stop with theirs. A nil class retries every
// error.
const eapachePath = "github.com/eapache/go-resiliency/retrier"

var _ = register(&Library{
	Path:    eapachePath,
	Entries: []string{"Run", "RunCtx", "RunFn"},
	Methods: true,
	Ops:     map[string]int{"Run": 0, "RunCtx": 1, "RunFn": 1},
	Fix: libraryFix{
		bound:  "drop WithInfiniteRetry, or give RunCtx a deadline",
		jitter: "call SetJitter(0.25) on the Retrier",
	},
	model: eapacheRun,
})

// eapacheRun models (*retrier.Retrier).Run(op), RunCtx(ctx, op) and
// RunFn(ctx, op): the receiver New(backoff, class), through
// WithInfiniteRetry and WithSurfaceWorkErrors, and the SetJitter calls on
// its variable.
func eapacheRun(st Site) bool {
	s, call, fn := st.Scope(), st.Call(), st.Callee()
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || fn.Signature().Recv() == nil {
		return false
	}
	s.Deadline = Deadline{Kind: DeadlineNone}
	if fn.Name() != "Run" {
		if len(call.Args) != 2 {
			return false
		}
		s.Deadline = Deadline{Kind: st.Context(call.Args[0]), Pos: call.Args[0].Pos()}
	}
	s.Cap = Cap{Kind: CapUnknown}
	wait := Wait{Kind: WaitUnknown, Pos: s.Pos, Node: call, Library: true}
	infinite := false
	recv := st.Origin(sel.X, call.Pos())
	for range maxDepth {
		rc, ok := recv.(*ast.CallExpr)
		if !ok {
			break
		}
		c := st.CalleeOf(rc)
		if !inPath(c, eapachePath) {
			break
		}
		if c.Name() == "WithInfiniteRetry" {
			infinite = true
		}
		if c.Name() == "New" && len(rc.Args) == 2 {
			s.Cap, wait = eapacheBackoff(st, rc.Args[0])
			if s.Cap.Kind == CapKnown && s.Cap.N <= 1 {
				return false // no retries
			}
			break
		}
		rsel, ok := rc.Fun.(*ast.SelectorExpr)
		if !ok {
			break
		}
		recv = st.Origin(rsel.X, rc.Pos())
	}
	if infinite {
		s.Cap = Cap{Kind: CapNone}
	}
	if wait.Kind != WaitUnknown && eapacheJitter(st, s.Func, sel.X) {
		wait.Kind = WaitJittered
	}
	s.Waits = []Wait{wait}
	return true
}

// eapacheBackoff evaluates a retrier backoff: ConstantBackoff(n, d),
// ExponentialBackoff(n, d), LimitedExponentialBackoff(n, d, max), a
// []time.Duration literal, or nil.
func eapacheBackoff(st Site, e ast.Expr) (Cap, Wait) {
	v := st.Origin(e, e.Pos())
	unknown := Wait{Kind: WaitUnknown, Pos: e.Pos(), Node: e, Library: true}
	switch v := v.(type) {
	case *ast.Ident:
		if _, isNil := st.Object(v).(*types.Nil); isNil {
			return Cap{Kind: CapKnown, N: 1, Pos: v.Pos()}, unknown
		}
	case *ast.CompositeLit:
		return Cap{Kind: CapKnown, N: len(v.Elts) + 1, Pos: v.Pos()}, Wait{Kind: WaitGrowth, Pos: v.Pos(), Node: v, Library: true, Setting: "a fixed backoff"}
	case *ast.CallExpr:
		c := st.CalleeOf(v)
		if !inPath(c, eapachePath) || len(v.Args) < 2 {
			break
		}
		k := WaitGrowth
		switch c.Name() {
		case "ConstantBackoff":
			k = WaitConstant
		case "ExponentialBackoff", "LimitedExponentialBackoff":
		default:
			return Cap{Kind: CapUnknown}, unknown
		}
		cp := Cap{Kind: CapBounded, Pos: v.Pos()}
		if n, ok := st.Int(v.Args[0]); ok {
			cp = Cap{Kind: CapKnown, N: int(n) + 1, Pos: v.Pos()}
		}
		return cp, Wait{Kind: k, Pos: v.Pos(), Node: v, Library: true, Setting: "retrier." + c.Name()}
	}
	return Cap{Kind: CapUnknown}, unknown
}

// eapacheJitter reports whether fn calls SetJitter on the retrier x, a
// local variable, with a factor that may not be 0.
func eapacheJitter(st Site, fn ast.Node, x ast.Expr) bool {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok || fn == nil {
		return false
	}
	o := st.Object(id)
	found := false
	ast.Inspect(fn, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return !found
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "SetJitter" {
			return !found
		}
		if r, ok := ast.Unparen(sel.X).(*ast.Ident); ok && o != nil && st.Object(r) == o && !st.Zero(call.Args[0]) {
			if inPath(st.CalleeOf(call), eapachePath) {
				found = true
			}
		}
		return !found
	})
	return found
}
