package retryscope

import "go/ast"

// idemlint's own runtime/retry: Do(ctx, policy, op) and DoValue, capped
// (4 attempts by default, the policy's MaxAttempts) and bounded in time
// (15 s by default), with full jitter; a Retryable field replaces its
// classification of errors and AllowNested lets a call inside another's
// operation retry.
const idemRetry = "github.com/idemlint/idemlint/runtime/retry"

var _ = register(&Library{Path: idemRetry, Entries: []string{"Do", "DoValue"}, Ops: map[string]int{"Do": 2, "DoValue": 2},
	Permanent: []string{"Permanent"}, Policy: "Retryable", PolicyArg: 1, Nested: "AllowNested",
	ResponseError: []string{"ResponseError"}, RetryAfter: []string{"ParseRetryAfter"}, Inert: true, Jitter: "Jitter",
	StatusFix: "return retry.ResponseError(resp) or retry.Permanent(err)", model: idemRetryDo})

func idemRetryDo(st Site) bool {
	s, call := st.Scope(), st.Call()
	if len(call.Args) != 3 {
		return false
	}
	s.Cap = Cap{Kind: CapBounded, Pos: call.Args[1].Pos()}
	if lit, ok := st.Origin(call.Args[1], call.Pos()).(*ast.CompositeLit); ok {
		s.Cap = Cap{Kind: CapKnown, N: 4, Pos: lit.Pos()}
		for _, elt := range lit.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "MaxAttempts" {
					if n, ok := st.Int(kv.Value); ok && n > 0 {
						s.Cap = Cap{Kind: CapKnown, N: int(n), Pos: kv.Pos()}
					} else if !ok {
						s.Cap = Cap{Kind: CapBounded, Pos: kv.Pos()}
					}
				}
			}
		}
	}
	s.Deadline = Deadline{Kind: DeadlineLibrary, Pos: call.Args[1].Pos()}
	s.Waits = []Wait{{Kind: WaitJittered, Pos: s.Pos, Node: call, Library: true}}
	return true
}
