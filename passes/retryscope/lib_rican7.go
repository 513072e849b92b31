package retryscope

// Rican7/retry: retry.Retry(action, strategies...): with no Limit it
// retries forever, with no wait strategy it retries at once.
const rican7 = "github.com/Rican7/retry"

var _ = register(&Library{Path: rican7, Entries: []string{"Retry"}, Fix: libraryFix{jitter: "use strategy.BackoffWithJitter"}, model: rican7Retry})

func rican7Retry(st Site) bool {
	s, call := st.Scope(), st.Call()
	if len(call.Args) == 0 {
		return false
	}
	s.Cap, s.Deadline = Cap{Kind: CapNone}, Deadline{Kind: DeadlineNone}
	wait := Wait{Kind: WaitNone, Pos: s.Pos, Node: call, Library: true, Setting: "no wait strategy"}
	opts, unknown := st.Options(1)
	if unknown {
		unknownOptions(s, &wait)
	}
	for _, a := range opts {
		oc, callee := optionCall(st, a)
		if callee == nil {
			unknownOptions(s, &wait)
			continue
		}
		switch callee.Name() {
		case "Limit":
			s.Cap = attemptCap(st, oc.Args[0], oc.Pos(), false)
		case "Delay", "Wait":
			wait = Wait{Kind: WaitConstant, Pos: oc.Pos(), Node: oc, Library: true, Setting: "strategy." + callee.Name()}
		case "Backoff":
			wait = Wait{Kind: WaitGrowth, Pos: oc.Pos(), Node: oc, Library: true, Setting: "strategy.Backoff"}
		case "BackoffWithJitter":
			wait = Wait{Kind: WaitJittered, Pos: oc.Pos(), Node: oc, Library: true}
		default:
			s.Cap, s.Deadline = Cap{Kind: CapUnknown}, Deadline{Kind: DeadlineUnknown}
		}
	}
	s.Waits = []Wait{wait}
	return true
}
