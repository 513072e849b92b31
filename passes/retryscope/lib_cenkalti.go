package retryscope

import (
	"go/ast"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// cenkalti/backoff v4: Retry*(op, b), the backoff value followed through
// NewExponentialBackOff (15 minutes, jitter), literals (never stop, no
// jitter), field assignments, WithMaxRetries, WithContext,
// ConstantBackOff, ZeroBackOff. v5: Retry(ctx, op, opts...), no attempt
// cap, 15 minutes max elapsed time, jitter; WithMaxTries,
// WithMaxElapsedTime, WithBackOff.
const (
	cenkaltiFamily = "github.com/cenkalti/backoff"
	cenkaltiV4     = cenkaltiFamily + "/v4"
	cenkaltiV5     = cenkaltiFamily + "/v5"
)

var (
	_ = register(&Library{Path: cenkaltiV4, Family: cenkaltiFamily,
		Entries:   []string{"Retry", "RetryNotify", "RetryWithData", "RetryNotifyWithData", "RetryNotifyWithTimer", "RetryNotifyWithTimerAndData"},
		Permanent: []string{"Permanent"}, StatusFix: "wrap the error in backoff.Permanent for them",
		Fix:   libraryFix{bound: "wrap the backoff in backoff.WithMaxRetries, keep MaxElapsedTime", jitter: "set a non-zero RandomizationFactor"},
		model: cenkaltiV4Retry, backoff: cenkaltiBackoff})
	_ = register(&Library{Path: cenkaltiV5, Family: cenkaltiFamily, Entries: []string{"Retry"}, Ops: map[string]int{"Retry": 1},
		Permanent: []string{"Permanent"}, StatusFix: "wrap the error in backoff.Permanent for them",
		Fix:   libraryFix{bound: "pass backoff.WithMaxTries(n) and a non-zero backoff.WithMaxElapsedTime", jitter: "set a non-zero RandomizationFactor"},
		model: cenkaltiV5Retry, backoff: cenkaltiBackoff})
)

// cenkaltiV4Retry models backoff.Retry*(op, b, ...): the backoff b decides.
func cenkaltiV4Retry(st Site) bool {
	s, call := st.Scope(), st.Call()
	if len(call.Args) < 2 {
		return false
	}
	bo := backoffOf(st, call.Args[1], 0)
	s.Cap, s.Deadline = bo.cap, bo.deadline
	s.Waits = []Wait{bo.waitAt(call)}
	return true
}

// cenkaltiV5Retry models backoff.Retry(ctx, op, opts...). Defaults: no
// attempt cap, 15 minutes max elapsed time, exponential backoff with
// jitter.
func cenkaltiV5Retry(st Site) bool {
	s, call := st.Scope(), st.Call()
	if len(call.Args) < 2 {
		return false
	}
	s.Cap = Cap{Kind: CapNone}
	s.Deadline = Deadline{Kind: DeadlineLibrary, Pos: call.Pos()}
	wait := Wait{Kind: WaitJittered, Pos: s.Pos, Node: call, Library: true}
	opts, unknown := st.Options(2)
	if unknown {
		unknownOptions(s, &wait)
	}
	for _, o := range opts {
		oc, callee := optionCall(st, o)
		if callee == nil || len(oc.Args) != 1 {
			continue
		}
		switch callee.Name() {
		case "WithMaxTries":
			s.Cap = attemptCap(st, oc.Args[0], oc.Pos(), true)
		case "WithMaxElapsedTime":
			if st.Zero(oc.Args[0]) {
				s.Deadline = Deadline{Kind: DeadlineNone, Pos: oc.Pos()}
			} else {
				s.Deadline = Deadline{Kind: DeadlineLibrary, Pos: oc.Pos()}
			}
		case "WithBackOff":
			bo := backoffOf(st, oc.Args[0], 0)
			wait = bo.waitAt(oc)
			if bo.cap.Kind == CapKnown {
				s.Cap = bo.cap
			}
		}
	}
	if s.Deadline.Kind == DeadlineNone {
		s.Deadline = Deadline{Kind: st.Context(call.Args[0]), Pos: call.Args[0].Pos()}
	}
	s.Waits = []Wait{wait}
	return true
}

// cenkaltiBackoff evaluates a backoff.BackOff of v4 or v5: a literal of
// one of its types, or a call of its constructors and wrappers.
func cenkaltiBackoff(st Site, v ast.Expr, depth int) (backoff, bool) {
	b := backoff{cap: Cap{Kind: CapNone}, deadline: Deadline{Kind: DeadlineNone}}
	switch v := v.(type) {
	case *ast.CompositeLit:
		switch astq.NamedOf(st.TypeOf(v)).Name() {
		case "ExponentialBackOff":
			// A literal leaves MaxElapsedTime and RandomizationFactor at 0:
			// never stop, no jitter.
			b.wait, b.waitPos, b.waitNode, b.setting = WaitGrowth, v.Pos(), v, "backoff.ExponentialBackOff{}"
		case "ConstantBackOff":
			b.wait, b.waitPos, b.waitNode, b.setting = WaitConstant, v.Pos(), v, "backoff.ConstantBackOff"
		case "ZeroBackOff":
			b.wait, b.waitPos, b.waitNode, b.setting = WaitNone, v.Pos(), v, "backoff.ZeroBackOff"
		case "StopBackOff":
			b.cap, b.wait = Cap{Kind: CapKnown, N: 1, Pos: v.Pos()}, WaitUnknown
		default:
			return b, false
		}
		return b, litFields(st, &b, v)
	case *ast.CallExpr:
		callee := st.CalleeOf(v)
		switch callee.Name() {
		case "NewExponentialBackOff":
			b.wait = WaitJittered
			if callee.Pkg().Path() == cenkaltiV4 {
				b.deadline = Deadline{Kind: DeadlineLibrary, Pos: v.Pos()} // MaxElapsedTime 15 min
			}
			for _, o := range v.Args {
				oc, ok := ast.Unparen(o).(*ast.CallExpr)
				if !ok || len(oc.Args) != 1 {
					continue
				}
				// An option made by a call through a func value (opt(0.5))
				// has no static callee: the model cannot tell what it sets.
				fn := st.CalleeOf(oc)
				if !inPath(fn, callee.Pkg().Path()) {
					return b, false
				}
				switch fn.Name() {
				case "WithRandomizationFactor":
					applyField(st, &b, "RandomizationFactor", oc.Args[0], oc.Pos())
					if st.Zero(oc.Args[0]) {
						b.setting = "backoff.WithRandomizationFactor(0)"
					}
				case "WithMaxElapsedTime":
					applyField(st, &b, "MaxElapsedTime", oc.Args[0], oc.Pos())
				}
			}
		case "NewConstantBackOff":
			b.wait, b.waitPos, b.waitNode, b.setting = WaitConstant, v.Pos(), v, "backoff.NewConstantBackOff"
		case "WithMaxRetries":
			if len(v.Args) != 2 {
				return b, false
			}
			b = backoffOf(st, v.Args[0], depth+1)
			b.cap = retriesCap(st, v.Args[1], v.Pos())
		case "WithContext":
			if len(v.Args) != 2 {
				return b, false
			}
			b = backoffOf(st, v.Args[0], depth+1)
			if b.deadline.Kind == DeadlineNone {
				b.deadline = Deadline{Kind: st.Context(v.Args[1]), Pos: v.Pos()}
			}
		default:
			return b, false
		}
		return b, true
	}
	return b, false
}
