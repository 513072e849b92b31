package retryscope

// What a message's fix says for each retry library: the setting that caps
// its attempts and sets its deadline, and the one that jitters its waits,
// as the code spells them. The checks add the runtime/retry alternative.
// This is the one place that names these settings; a library absent here
// gets the generic fix.
type libraryFix struct {
	bound  string // how to cap the attempts and set a deadline
	jitter string // how to add jitter to the waits
	// jitterRuntime replaces the check's runtime/retry alternative to the
	// jitter fix, when the library is a client (go-retryablehttp: the
	// runtime's transport, not retry.Do)
	jitterRuntime string
}

var libraryFixes = map[string]libraryFix{
	avastV4: {
		bound:  "pass retry.Attempts(n) with n > 0 and retry.Context with a deadline",
		jitter: "use retry.DelayType(retry.CombineDelay(retry.BackOffDelay, retry.RandomDelay)) (the default) or retry.FullJitterBackoffDelay",
	},
	cenkaltiV4: {
		bound:  "wrap the backoff in backoff.WithMaxRetries and keep a non-zero MaxElapsedTime",
		jitter: "use backoff.NewExponentialBackOff() with a non-zero RandomizationFactor",
	},
	cenkaltiV5: {
		bound:  "pass backoff.WithMaxTries(n) and a non-zero backoff.WithMaxElapsedTime",
		jitter: "use backoff.NewExponentialBackOff() with a non-zero RandomizationFactor",
	},
	sethvargo: {
		bound:  "wrap the backoff in retry.WithMaxRetries and retry.WithMaxDuration",
		jitter: "wrap the backoff in retry.WithJitterPercent or retry.WithFullJitter",
	},
	k8sWait: {jitter: "set wait.Backoff.Jitter (e.g. 0.1 or more)"},
	failsafe: {
		bound:  "set WithMaxRetries(n) with n >= 0 and WithMaxDuration",
		jitter: "add WithJitterFactor or WithRandomDelay to the retry policy",
	},
	retryable: {
		jitter:        "set the client's Backoff to retryablehttp.LinearJitterBackoff",
		jitterRuntime: "use github.com/idemlint/idemlint/runtime/retry.NewTransport, which waits with full jitter",
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

// BoundFix returns how to cap the attempts and set a deadline of the
// library the scope calls, as a message's fix says it; "" for a loop or a
// library without a setting of its own.
func (s *Scope) BoundFix() string { return libraryFixes[s.Library].bound }

// JitterFix returns how to jitter the waits of the library the scope
// calls, and the runtime alternative when it is not runtime/retry.Do
// (runtime is ""); fix is "" for a loop or a library without a setting of
// its own.
func (s *Scope) JitterFix() (fix, runtime string) {
	f := libraryFixes[s.Library]
	return f.jitter, f.jitterRuntime
}
