// Package unboundedretry defines an Analyzer that reports retries with no
// attempt cap and no deadline.
//
// # Analyzer unboundedretry
//
// unboundedretry: report retries that have no attempt cap and no deadline
//
// The reference rule: every retry loop has a max attempt count and an
// overall deadline. A retry with neither turns a dependency's outage into
// an endless stream of calls from every client, and a caller that hangs
// forever.
//
// The check reads idemlint's retry model. It reports a hand-written loop at
// its for keyword, and a retry library call at the call, when the model
// finds no attempt cap (no counter, no range over a number, no library
// maximum; retry-go's Attempts(0) and UntilSucceeded, cenkalti/backoff v5's
// WithMaxTries(0), failsafe-go's WithMaxRetries(-1)) and no deadline (no
// context with a deadline made in scope, no clock test, no library
// max-elapsed time; cenkalti's ExponentialBackOff literal and
// WithMaxElapsedTime(0) mean never stop).
//
// A retry bounded only by a context that comes from the caller is not
// reported by default: the caller may have set a deadline. The flag
// -strict-context reports it too.
//
// The fix is a cap and a deadline: runtime/retry.Do with a retry.Policy has
// both by default (4 attempts, 15 seconds).
package unboundedretry
