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
	model: func(m *model, di *defIndex, s *Scope, call *ast.CallExpr, fn *types.Func) int {
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || fn.Signature().Recv() == nil {
			return -1
		}
		op := 0
		s.Deadline = Deadline{Kind: DeadlineNone}
		if fn.Name() != "Run" {
			if len(call.Args) != 2 {
				return -1
			}
			op = 1
			s.Deadline = Deadline{Kind: m.ctxArgKind(di, call.Args[0]), Pos: call.Args[0].Pos()}
		}
		s.Cap = Cap{Kind: CapUnknown}
		wait := Wait{Kind: WaitUnknown, Pos: s.Pos, Node: call, Library: true}
		// the receiver: New(...), through WithInfiniteRetry and
		// WithSurfaceWorkErrors, and the SetJitter calls on its variable
		infinite := false
		recv := m.origin(di, sel.X, call.Pos())
		for range maxDepth {
			rc, ok := recv.(*ast.CallExpr)
			if !ok {
				break
			}
			c := m.callee(rc)
			if c == nil || c.Pkg() == nil || c.Pkg().Path() != eapachePath {
				break
			}
			if c.Name() == "WithInfiniteRetry" {
				infinite = true
			}
			if c.Name() == "New" && len(rc.Args) == 2 {
				s.Cap, wait = m.eapacheBackoff(di, rc.Args[0])
				if s.Cap.Kind == CapKnown && s.Cap.N <= 1 {
					return -1 // no retries
				}
				break
			}
			rsel, ok := rc.Fun.(*ast.SelectorExpr)
			if !ok {
				break
			}
			recv = m.origin(di, rsel.X, rc.Pos())
		}
		if infinite {
			s.Cap = Cap{Kind: CapNone}
		}
		if wait.Kind != WaitUnknown && m.eapacheJitter(s.Func, sel.X) {
			wait.Kind = WaitJittered
		}
		s.Waits = []Wait{wait}
		return op
	},
})

// eapacheBackoff evaluates a retrier backoff: ConstantBackoff(n, d),
// ExponentialBackoff(n, d), LimitedExponentialBackoff(n, d, max), a
// []time.Duration literal, or nil.
func (m *model) eapacheBackoff(di *defIndex, e ast.Expr) (Cap, Wait) {
	v := m.origin(di, e, e.Pos())
	unknown := Wait{Kind: WaitUnknown, Pos: e.Pos(), Node: e, Library: true}
	switch v := v.(type) {
	case *ast.Ident:
		if v.Name == "nil" && m.info.Types[v].IsNil() {
			return Cap{Kind: CapKnown, N: 1, Pos: v.Pos()}, unknown
		}
	case *ast.CompositeLit:
		return Cap{Kind: CapKnown, N: len(v.Elts) + 1, Pos: v.Pos()}, Wait{Kind: WaitGrowth, Pos: v.Pos(), Node: v, Library: true, Setting: "a fixed backoff"}
	case *ast.CallExpr:
		c := m.callee(v)
		if c == nil || c.Pkg() == nil || c.Pkg().Path() != eapachePath || len(v.Args) < 2 {
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
		if n, ok := m.intConst(v.Args[0]); ok {
			cp = Cap{Kind: CapKnown, N: int(n) + 1, Pos: v.Pos()}
		}
		return cp, Wait{Kind: k, Pos: v.Pos(), Node: v, Library: true, Setting: "retrier." + c.Name()}
	}
	return Cap{Kind: CapUnknown}, unknown
}

// eapacheJitter reports whether fn calls SetJitter on the retrier x, a
// local variable, with a factor that may not be 0.
func (m *model) eapacheJitter(fn ast.Node, x ast.Expr) bool {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok || fn == nil {
		return false
	}
	o := m.info.Uses[id]
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
		if r, ok := ast.Unparen(sel.X).(*ast.Ident); ok && o != nil && m.info.Uses[r] == o && !m.isZero(call.Args[0]) {
			if c := m.callee(call); c != nil && c.Pkg() != nil && c.Pkg().Path() == eapachePath {
				found = true
			}
		}
		return !found
	})
	return found
}
