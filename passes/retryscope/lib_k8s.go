package retryscope

import (
	"go/ast"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// k8s wait.ExponentialBackoff[WithContext] and client-go's
// RetryOnConflict/OnError retry a condition by a wait.Backoff (Steps,
// Jitter, Factor; Steps 0 never calls the condition; client-go's
// DefaultRetry and DefaultBackoff). wait.PollUntilContextCancel retries
// when its condition swallows a failure (polls.go).
const (
	k8sWait  = "k8s.io/apimachinery/pkg/util/wait"
	clientGo = "k8s.io/client-go/util/retry"
)

var (
	_ = register(&Library{Path: k8sWait, Entries: []string{"ExponentialBackoff", "ExponentialBackoffWithContext", "PollUntilContextCancel"},
		Ops:       map[string]int{"ExponentialBackoff": 1, "ExponentialBackoffWithContext": 2, "PollUntilContextCancel": 3},
		Condition: true, Fix: k8sFix, model: k8sWaitCall, backoff: k8sBackoff})
	_ = register(&Library{Path: clientGo, Entries: []string{"RetryOnConflict", "OnError"},
		Ops: map[string]int{"RetryOnConflict": 1, "OnError": 2}, Fix: k8sFix, Disjoint: map[string][]string{"RetryOnConflict": {k8sRest}},
		NothingApplied: []string{"RetryOnConflict"}, model: clientGoCall, backoff: clientGoBackoff})
)

var k8sFix = libraryFix{jitter: "set wait.Backoff.Jitter (0.1 or more)"}

func k8sWaitCall(st Site) bool {
	call := st.Call()
	switch st.Callee().Name() {
	case "PollUntilContextCancel":
		return pollRetry(st)
	case "ExponentialBackoff":
		if len(call.Args) == 2 {
			return conditionBackoff(st, call.Args[0], nil)
		}
	case "ExponentialBackoffWithContext":
		if len(call.Args) == 3 {
			return conditionBackoff(st, call.Args[1], call.Args[0])
		}
	}
	return false
}

func clientGoCall(st Site) bool {
	call := st.Call()
	switch st.Callee().Name() {
	case "RetryOnConflict":
		if len(call.Args) == 2 {
			return conditionBackoff(st, call.Args[0], nil)
		}
	case "OnError":
		if len(call.Args) == 3 {
			return conditionBackoff(st, call.Args[0], nil)
		}
	}
	return false
}

// conditionBackoff fills the scope of a retry of a condition by the
// wait.Backoff b, stopped by the context ctx when there is one; it
// reports false when the backoff never calls the condition (Steps 0).
func conditionBackoff(st Site, b, ctx ast.Expr) bool {
	s := st.Scope()
	bo := backoffOf(st, b, 0)
	if bo.cap.Kind == CapKnown && bo.cap.N == 0 {
		return false // Steps 0: the condition is never called
	}
	s.Cap, s.Deadline = bo.cap, Deadline{Kind: DeadlineNone}
	if ctx != nil {
		s.Deadline = Deadline{Kind: st.Context(ctx), Pos: ctx.Pos()}
	}
	s.Waits = []Wait{bo.waitAt(st.Call())}
	return true
}

// pollRetry makes the scope of wait.PollUntilContextCancel(ctx, interval,
// immediate, cond) a retry when its condition swallows a failure, at the
// constant interval, with no attempt cap, and reports whether it is.
func pollRetry(st Site) bool {
	s, call := st.Scope(), st.Call()
	if len(call.Args) != 4 || !st.SwallowsFailure(call.Args[3]) {
		return false
	}
	interval := call.Args[1]
	s.Deadline = Deadline{Kind: st.Context(call.Args[0]), Pos: call.Args[0].Pos()}
	s.Cap = Cap{Kind: CapNone}
	s.Trigger = TriggerError
	s.Waits = []Wait{{Kind: WaitConstant, Pos: interval.Pos(), Node: interval, Library: true, Setting: "the poll interval"}}
	return true
}

// k8sBackoff evaluates a wait.Backoff literal: Steps 0 means the condition
// is never called, Jitter 0 no jitter, a Factor other than 0 or 1 growth.
func k8sBackoff(st Site, v ast.Expr, _ int) (backoff, bool) {
	lit, ok := v.(*ast.CompositeLit)
	if !ok || astq.NamedOf(st.TypeOf(lit)).Name() != "Backoff" {
		return backoff{}, false
	}
	b := backoff{cap: Cap{Kind: CapKnown, N: 0, Pos: lit.Pos()}, deadline: Deadline{Kind: DeadlineNone}}
	b.wait, b.waitPos, b.waitNode, b.setting = WaitConstant, lit.Pos(), lit, "wait.Backoff without Jitter"
	if !litFields(st, &b, lit) {
		return b, false
	}
	for _, elt := range lit.Elts {
		kv := elt.(*ast.KeyValueExpr) // litFields took only keyed fields
		if key, _ := kv.Key.(*ast.Ident); key != nil && key.Name == "Factor" && !st.Zero(kv.Value) && b.wait == WaitConstant {
			if n, ok := st.Int(kv.Value); !ok || n != 1 {
				b.wait = WaitGrowth
			}
		}
	}
	return b, true
}

// clientGoBackoff evaluates client-go's DefaultRetry and DefaultBackoff.
func clientGoBackoff(st Site, v ast.Expr, _ int) (backoff, bool) {
	sel, ok := v.(*ast.SelectorExpr)
	if !ok {
		return backoff{}, false
	}
	switch fullName(st, sel) {
	case clientGo + ".DefaultRetry":
		return backoff{cap: Cap{Kind: CapKnown, N: 5}, deadline: Deadline{Kind: DeadlineNone}, wait: WaitJittered}, true
	case clientGo + ".DefaultBackoff":
		return backoff{cap: Cap{Kind: CapKnown, N: 4}, deadline: Deadline{Kind: DeadlineNone}, wait: WaitJittered}, true
	}
	return backoff{}, false
}
