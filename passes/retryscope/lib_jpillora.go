package retryscope

import "go/ast"

// jpillora/backoff: a Backoff value whose Duration (and ForAttempt) the
// code waits for in its own loop; it grows, and is jittered only when the
// Backoff sets Jitter: true (waits.go asks jpilloraDuration).
const jpillora = "github.com/jpillora/backoff"

var _ = register(&Library{Path: jpillora})

// jpilloraDuration classifies the site's call of (*backoff.Backoff).Duration.
func jpilloraDuration(st Site) WaitKind {
	call := st.Call()
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return WaitUnknown
	}
	lit, ok := st.Origin(sel.X, call.Pos()).(*ast.CompositeLit)
	if !ok {
		return WaitUnknown
	}
	k := WaitGrowth
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Jitter" {
				if v, ok := st.Bool(kv.Value); !ok || v {
					k = WaitJittered
				}
			}
		}
	}
	for _, fs := range st.FieldSets(sel.X) {
		if fs.Field() == "Jitter" {
			k = WaitJittered
		}
	}
	return k
}
