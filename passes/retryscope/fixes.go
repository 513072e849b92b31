package retryscope

// What a message's fix says for each retry library: the setting that caps
// its attempts and sets its deadline, and the one that jitters its waits,
// as the code spells them, short enough for a one-line message (the
// checks' docs give the runtime/retry alternative).
// This is the one place that names these settings; a library absent here
// gets the generic fix.
type libraryFix struct {
	bound  string // how to cap the attempts and set a deadline
	jitter string // how to add jitter to the waits
}

var libraryFixes = map[string]libraryFix{
	avastV4: {
		bound:  "pass retry.Attempts(n > 0) and a retry.Context with a deadline",
		jitter: "use the default DelayType or retry.FullJitterBackoffDelay",
	},
	cenkaltiV4: {
		bound:  "wrap the backoff in backoff.WithMaxRetries, keep MaxElapsedTime",
		jitter: "set a non-zero RandomizationFactor",
	},
	cenkaltiV5: {
		bound:  "pass backoff.WithMaxTries(n) and a non-zero backoff.WithMaxElapsedTime",
		jitter: "set a non-zero RandomizationFactor",
	},
	sethvargo: {
		bound:  "wrap it in retry.WithMaxRetries and retry.WithMaxDuration",
		jitter: "wrap it in retry.WithJitterPercent or retry.WithFullJitter",
	},
	k8sWait: {jitter: "set wait.Backoff.Jitter (0.1 or more)"},
	// a poll whose condition swallows failures (polls.go)
	k8sWait + ".PollUntilContextCancel": {
		bound:  "use wait.PollUntilContextTimeout",
		jitter: "retry with wait.ExponentialBackoffWithContext and a jittered Backoff",
	},
	failsafe: {
		bound:  "set WithMaxRetries(n) with n >= 0 and WithMaxDuration",
		jitter: "add WithJitterFactor or WithRandomDelay to the policy",
	},
	retryable: {
		jitter: "set Backoff to retryablehttp.LinearJitterBackoff",
	},
	rican7: {jitter: "use strategy.BackoffWithJitter"},
	grpcRetry: {
		jitter: "use retry.BackoffExponentialWithJitterBounded",
	},
}

func init() {
	libraryFixes[avastV5] = libraryFixes[avastV4]
	libraryFixes[clientGo] = libraryFixes[k8sWait]
}

// fixOf returns the fixes of the scope's entry point, or of its library.
func (s *Scope) fixOf() libraryFix {
	if f, ok := libraryFixes[s.Entry]; ok {
		return f
	}
	return libraryFixes[s.Library]
}

// BoundFix returns how to cap the attempts and set a deadline of the
// library the scope calls, as a message's fix says it; "" for a loop or a
// library without a setting of its own.
func (s *Scope) BoundFix() string { return s.fixOf().bound }

// JitterFix returns how to jitter the waits of the library the scope
// calls; "" for a loop or a library without a setting of its own.
func (s *Scope) JitterFix() string { return s.fixOf().jitter }
