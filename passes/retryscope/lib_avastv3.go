package retryscope

// avast/retry-go v3 (v3.0.0+incompatible, imported without a /vN suffix;
// v2 has the same API): retry.Do(op, opts...) with v4's defaults (10
// attempts, no deadline, BackOffDelay plus RandomDelay), but Attempts(0)
// makes no attempt at all (the loop is n < attempts) and there is no
// UntilSucceeded.
var _ = register(&Library{
	Path:             avastFamily,
	Family:           avastFamily,
	Entries:          []string{"Do"},
	Permanent:        []string{"Unrecoverable"},
	Predicates:       []string{"RetryIf"},
	PredicateOnError: true,
	PredicateText:    "RetryIf predicate",
	StatusFix:        "wrap the error in retry.Unrecoverable for them",
	Fix: libraryFix{
		bound:  "pass retry.Attempts(n > 0) and a retry.Context with a deadline",
		jitter: "use the default DelayType (BackOffDelay plus RandomDelay)",
	},
	model: func(st Site) bool {
		call := st.Call()
		if st.Callee().Signature().Recv() != nil || len(call.Args) == 0 {
			return false
		}
		avastOptions(st, call.Args[1:], call.Ellipsis.IsValid())
		// Attempts(0): the operation is never called
		return st.Scope().Cap.Kind != CapNone
	},
})
