package retryscope

// What a message's fix says for each retry library: the setting that caps
// its attempts and sets its deadline, and the one that jitters its waits,
// as the code spells them, short enough for a one-line message (the
// checks' docs give the runtime/retry alternative).
// The table (table.go) holds each library's; a library without one gets
// the generic fix.
type libraryFix struct {
	bound  string // how to cap the attempts and set a deadline
	jitter string // how to add jitter to the waits
}

// entryFixes are the fixes of the entry points whose fixes are not their
// library's (table.go has those).
var entryFixes = map[string]libraryFix{
	// a poll whose condition swallows failures (polls.go)
	k8sWait + ".PollUntilContextCancel": {
		bound:  "use wait.PollUntilContextTimeout",
		jitter: "retry with wait.ExponentialBackoffWithContext and a jittered Backoff",
	},
}

// fixOf returns the fixes of the scope's entry point, or of its library.
func (s *Scope) fixOf() libraryFix {
	if f, ok := entryFixes[s.Entry]; ok {
		return f
	}
	if l := registry[s.Library]; l != nil {
		return l.Fix
	}
	return libraryFix{}
}

// BoundFix returns how to cap the attempts and set a deadline of the
// library the scope calls, as a message's fix says it; "" for a loop or a
// library without a setting of its own.
func (s *Scope) BoundFix() string { return s.fixOf().bound }

// JitterFix returns how to jitter the waits of the library the scope
// calls; "" for a loop or a library without a setting of its own.
func (s *Scope) JitterFix() string { return s.fixOf().jitter }
