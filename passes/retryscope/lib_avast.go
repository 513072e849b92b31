package retryscope

import (
	"go/ast"
	"go/types"
	"strings"
)

// avast/retry-go v4 and v5 (v3 is lib_avastv3.go): retry.Do(op, opts...)
// and, in v5, retry.New(opts...).Do(op). Defaults: 10 attempts, no
// deadline, exponential backoff plus random jitter; Attempts(0) and
// UntilSucceeded retry forever.
const (
	avastFamily = "github.com/avast/retry-go"
	avastV4     = avastFamily + "/v4"
	avastV5     = avastFamily + "/v5"
)

var (
	_ = register(&Library{Path: avastV4, Family: avastFamily, Entries: []string{"Do", "DoWithData"},
		Permanent: []string{"Unrecoverable"}, Predicates: []string{"RetryIf"}, PredicateOnError: true, PredicateText: "RetryIf predicate",
		StatusFix: "wrap the error in retry.Unrecoverable for them", Fix: avastFix,
		model: func(st Site) bool {
			call := st.Call()
			if len(call.Args) == 0 {
				return false
			}
			avastOptions(st, call.Args[1:], call.Ellipsis.IsValid())
			return true
		}})
	_ = register(&Library{Path: avastV5, Family: avastFamily, Entries: []string{"Do"}, Methods: true, // (*Retrier).Do, (*RetrierWithData).Do
		Permanent: []string{"Unrecoverable"}, Predicates: []string{"RetryIf"}, PredicateOnError: true, PredicateText: "RetryIf predicate",
		StatusFix: "wrap the error in retry.Unrecoverable for them", Fix: avastFix, model: avastV5Do})
)

var avastFix = libraryFix{
	bound:  "pass retry.Attempts(n > 0) and a retry.Context with a deadline",
	jitter: "use the default DelayType or retry.FullJitterBackoffDelay",
}

// avastV5Do models retry.New(opts...).Do(op).
func avastV5Do(st Site) bool {
	if st.Callee().Signature().Recv() == nil {
		return false
	}
	s, call := st.Scope(), st.Call()
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return true
	}
	recv, ok := st.Origin(sel.X, call.Pos()).(*ast.CallExpr)
	if !ok {
		s.Cap, s.Deadline = Cap{Kind: CapUnknown}, Deadline{Kind: DeadlineUnknown}
		s.Waits = []Wait{{Kind: WaitUnknown, Pos: s.Pos, Node: call, Library: true}}
		return true
	}
	avastOptions(st, recv.Args, recv.Ellipsis.IsValid())
	return true
}

// avastOptions applies retry-go options (of the scope's version) to the
// site's scope. Defaults: 10 attempts, no deadline, exponential backoff
// plus random jitter.
func avastOptions(st Site, opts []ast.Expr, spread bool) {
	s, call := st.Scope(), st.Call()
	s.Cap = Cap{Kind: CapKnown, N: 10}
	s.Deadline = Deadline{Kind: DeadlineNone}
	wait := Wait{Kind: WaitJittered, Pos: s.Pos, Node: call, Library: true, Setting: "retry-go default delay"}
	if spread {
		opts, spread = st.Spread(opts, call.Pos())
	}
	if spread {
		unknownOptions(s, &wait)
	}
	for _, o := range opts {
		oc, callee := optionCall(st, o)
		if !inPath(callee, s.Library) {
			// an option the model cannot read (a variable, a call through
			// a func value, a helper of another package) may set anything
			unknownOptions(s, &wait)
			continue
		}
		switch callee.Name() {
		case "Attempts":
			if len(oc.Args) == 1 {
				s.Cap = attemptCap(st, oc.Args[0], oc.Pos(), true)
			}
		case "UntilSucceeded":
			s.Cap = Cap{Kind: CapNone, Pos: oc.Pos()}
		case "Context":
			if len(oc.Args) == 1 {
				s.Deadline = Deadline{Kind: st.Context(oc.Args[0]), Pos: oc.Pos()}
			}
		case "DelayType":
			if len(oc.Args) == 1 {
				k, setting := avastDelay(st, s.Library, oc.Args[0], 0)
				wait = Wait{Kind: k, Pos: oc.Pos(), Node: oc, Library: true, Setting: setting}
			}
		}
	}
	s.Waits = []Wait{wait}
}

// avastDelay classifies a retry-go DelayTypeFunc of the version at lib.
func avastDelay(st Site, lib string, e ast.Expr, depth int) (WaitKind, string) {
	e = st.Origin(e, e.Pos())
	switch e := e.(type) {
	case *ast.SelectorExpr, *ast.Ident:
		fn, ok := st.Object(e).(*types.Func)
		if !ok || !inPath(fn, lib) {
			return WaitUnknown, ""
		}
		switch fn.Name() {
		case "BackOffDelay":
			return WaitGrowth, "retry.BackOffDelay"
		case "FixedDelay":
			return WaitConstant, "retry.FixedDelay"
		case "RandomDelay", "FullJitterBackoffDelay":
			return WaitJittered, "retry." + fn.Name()
		}
	case *ast.CallExpr:
		if c := st.CalleeOf(e); depth < 3 && c != nil && c.Name() == "CombineDelay" {
			k := WaitKind(0)
			var names []string
			for _, a := range e.Args {
				ak, n := avastDelay(st, lib, a, depth+1)
				k = combine(k, ak)
				names = append(names, n)
			}
			return k, "retry.CombineDelay(" + strings.Join(names, ", ") + ")"
		}
	}
	return WaitUnknown, ""
}
