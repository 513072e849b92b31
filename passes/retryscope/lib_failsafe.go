package retryscope

import (
	"go/ast"
)

// failsafe-go: failsafe.With(policies...).Run(op) (and Get, the
// WithExecution and Async forms), a retry policy among the policies built
// by retrypolicy.NewWithDefaults or a builder chain ending in Build.
// Defaults: 3 attempts, no delay.
const (
	failsafe    = "github.com/failsafe-go/failsafe-go"
	retrypolicy = "github.com/failsafe-go/failsafe-go/retrypolicy"
)

var (
	_ = register(&Library{Path: failsafe, Entries: []string{"Run", "Get", "RunWithExecution", "GetWithExecution", "RunAsync", "GetAsync", "RunWithExecutionAsync", "GetWithExecutionAsync"},
		Methods: true, Predicates: []string{"HandleIf"}, PredicateText: "HandleIf predicate", Fix: failsafeFix, model: failsafeRun})
	_ = register(&Library{Path: retrypolicy, Family: failsafe, Predicates: []string{"HandleIf"}, PredicateText: "HandleIf predicate", Fix: failsafeFix})
)

var failsafeFix = libraryFix{
	bound:  "set WithMaxRetries(n) with n >= 0 and WithMaxDuration",
	jitter: "add WithJitterFactor or WithRandomDelay to the policy",
}

// failsafeRun models failsafe.With(policies...).Run(op); it reports false
// when no retry policy is among the policies.
func failsafeRun(st Site) bool {
	s, call := st.Scope(), st.Call()
	if st.Callee().Signature().Recv() == nil || len(call.Args) != 1 {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	var ctx ast.Expr
	recv := st.Origin(sel.X, call.Pos())
	for range maxDepth {
		rc, ok := recv.(*ast.CallExpr)
		if !ok {
			return false
		}
		callee := st.CalleeOf(rc)
		if !inPath(callee, failsafe) {
			return false
		}
		if callee.Name() == "With" || callee.Name() == "NewExecutor" {
			found := false
			for _, p := range rc.Args {
				if b, ok := retryPolicy(st, p); ok {
					found = true
					s.Cap, s.Deadline = b.cap, b.deadline
					s.Waits = []Wait{b.waitAt(rc)}
				}
			}
			if found && ctx != nil && s.Deadline.Kind == DeadlineNone {
				s.Deadline = Deadline{Kind: st.Context(ctx), Pos: ctx.Pos()}
			}
			return found
		}
		if callee.Name() == "WithContext" && len(rc.Args) == 1 {
			ctx = rc.Args[0]
		}
		rsel, ok := rc.Fun.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		recv = st.Origin(rsel.X, rc.Pos())
	}
	return false
}

// retryPolicy evaluates a failsafe-go retry policy: NewWithDefaults, or a
// builder chain ending in Build. Defaults: 3 attempts, no delay.
func retryPolicy(st Site, e ast.Expr) (backoff, bool) {
	v := st.Origin(e, e.Pos())
	b := backoff{cap: Cap{Kind: CapKnown, N: 3}, deadline: Deadline{Kind: DeadlineNone}, wait: WaitNone, setting: "failsafe-go's default"}
	var chain []*ast.CallExpr
	for range 32 {
		c, ok := v.(*ast.CallExpr)
		if !ok {
			return b, false
		}
		callee := st.CalleeOf(c)
		if !inPath(callee, retrypolicy) && !inPath(callee, failsafe) {
			return b, false
		}
		if callee.Signature().Recv() == nil {
			if callee.Name() != "NewWithDefaults" && callee.Name() != "NewBuilder" {
				return b, false
			}
			b.waitPos, b.waitNode = c.Pos(), c
			break
		}
		chain = append(chain, c)
		sel, ok := c.Fun.(*ast.SelectorExpr)
		if !ok {
			return b, false
		}
		v = st.Origin(sel.X, c.Pos())
	}
	jitter := false
	for i := len(chain) - 1; i >= 0; i-- {
		c := chain[i]
		arg := func(n int) ast.Expr {
			if n < len(c.Args) {
				return c.Args[n]
			}
			return nil
		}
		switch name := st.CalleeOf(c).Name(); name {
		case "WithMaxRetries", "WithMaxAttempts":
			extra := 1
			if name == "WithMaxAttempts" {
				extra = 0
			}
			if n, ok := st.Int(arg(0)); ok {
				if n < 0 {
					b.cap = Cap{Kind: CapNone, Pos: c.Pos()}
				} else {
					b.cap = Cap{Kind: CapKnown, N: int(n) + extra, Pos: c.Pos()}
				}
			} else {
				b.cap = Cap{Kind: CapBounded, Pos: c.Pos()}
			}
		case "WithMaxDuration":
			b.deadline = Deadline{Kind: DeadlineLibrary, Pos: c.Pos()}
		case "WithDelay":
			b.wait, b.waitPos, b.waitNode, b.setting = WaitConstant, c.Pos(), c, "retrypolicy WithDelay"
			if st.Zero(arg(0)) {
				b.wait = WaitNone
			}
		case "WithBackoff", "WithBackoffFactor":
			b.wait, b.waitPos, b.waitNode, b.setting = WaitGrowth, c.Pos(), c, "retrypolicy WithBackoff"
		case "WithRandomDelay", "WithRandomDelayFactor":
			b.wait, b.setting = WaitJittered, ""
		case "WithJitter", "WithJitterFactor":
			jitter = true
		}
	}
	if jitter && b.wait != WaitNone {
		b.wait = WaitJittered
	}
	return b, true
}
