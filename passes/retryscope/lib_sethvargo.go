package retryscope

import (
	"go/ast"
	"strings"
)

// sethvargo/go-retry: Do(ctx, b, op) and DoValue with a backoff built by
// NewConstant, NewExponential or NewFibonacci and wrapped in WithJitter,
// WithMaxRetries, WithMaxDuration...; Constant, Exponential and Fibonacci
// (ctx, base, op) retry forever.
const sethvargo = "github.com/sethvargo/go-retry"

var _ = register(&Library{Path: sethvargo, Entries: []string{"Do", "DoValue", "Constant", "Exponential", "Fibonacci"},
	Ops:       map[string]int{"Do": 2, "DoValue": 2, "Constant": 2, "Exponential": 2, "Fibonacci": 2},
	Retryable: []string{"RetryableError"}, StatusFix: "do not wrap their error in retry.RetryableError",
	Fix:   libraryFix{bound: "wrap it in retry.WithMaxRetries and retry.WithMaxDuration", jitter: "wrap it in retry.WithJitterPercent or retry.WithFullJitter"},
	model: sethvargoDo, backoff: sethvargoBackoff})

func sethvargoDo(st Site) bool {
	s, call, name := st.Scope(), st.Call(), st.Callee().Name()
	if len(call.Args) != 3 {
		return false
	}
	s.Deadline = Deadline{Kind: st.Context(call.Args[0]), Pos: call.Args[0].Pos()}
	switch name {
	case "Do", "DoValue":
		bo := backoffOf(st, call.Args[1], 0)
		s.Cap = bo.cap
		if bo.deadline.Kind != DeadlineNone {
			s.Deadline = bo.deadline
		}
		s.Waits = []Wait{bo.waitAt(call)}
	default: // Constant, Exponential, Fibonacci
		k := WaitGrowth
		if name == "Constant" {
			k = WaitConstant
		}
		s.Cap = Cap{Kind: CapNone}
		s.Waits = []Wait{{Kind: k, Pos: s.Pos, Node: call, Library: true, Setting: "retry." + name}}
	}
	return true
}

// sethvargoBackoff evaluates a retry.Backoff: a constructor's, through the
// wrappers that cap, bound or jitter it.
func sethvargoBackoff(st Site, v ast.Expr, depth int) (backoff, bool) {
	call, ok := v.(*ast.CallExpr)
	if !ok {
		return backoff{}, false
	}
	name := st.CalleeOf(call).Name()
	b := backoff{cap: Cap{Kind: CapNone}, deadline: Deadline{Kind: DeadlineNone}}
	last := func() backoff {
		if len(call.Args) == 0 {
			return unknownBackoff()
		}
		return backoffOf(st, call.Args[len(call.Args)-1], depth+1)
	}
	switch name {
	case "NewConstant":
		b.wait, b.waitPos, b.waitNode, b.setting = WaitConstant, call.Pos(), call, "retry.NewConstant"
	case "NewExponential", "NewFibonacci":
		b.wait, b.waitPos, b.waitNode, b.setting = WaitGrowth, call.Pos(), call, "retry."+name
	case "WithJitter", "WithJitterPercent":
		b = last()
		if len(call.Args) == 2 && !st.Zero(call.Args[0]) {
			b.wait = WaitJittered
		}
	case "WithMaxRetries":
		b = last()
		b.cap = retriesCap(st, call.Args[0], call.Pos())
	case "WithMaxDuration":
		b = last()
		b.deadline = Deadline{Kind: DeadlineLibrary, Pos: call.Pos()}
	case "WithCappedDuration":
		b = last()
	default:
		if !strings.Contains(name, "Jitter") {
			return b, false
		}
		b = last()
		b.wait = WaitJittered
	}
	return b, true
}
