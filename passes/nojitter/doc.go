// Package nojitter defines an Analyzer that reports waits between retry
// attempts that have no randomness.
//
// # Analyzer nojitter
//
// nojitter: report waits between retry attempts that are constant or grow without jitter
//
// The reference rule: fixed delays without jitter synchronise clients into
// waves (a thundering herd); back off with full jitter,
// sleep = random(0, min(cap, base * 2^attempt)).
//
// The check reads idemlint's retry model and reports, at the wait, every
// wait between attempts whose duration is constant or grows
// deterministically (<<, *= 2, math.Pow, a schedule table) with no
// math/rand, math/rand/v2 or crypto/rand in it, and, at the option, library
// settings that remove jitter: retry-go's FixedDelay or BackOffDelay alone,
// cenkalti/backoff's RandomizationFactor 0, an ExponentialBackOff literal
// and ConstantBackOff, sethvargo/go-retry backoffs not wrapped in a jitter
// option, a k8s wait.Backoff without Jitter in a retrying call, failsafe-go
// delays without WithJitter, and go-retryablehttp's default backoff.
//
// Waits directed by the server (Retry-After) are fine, and waits the model
// cannot see into are never reported. A retry loop with no wait at all and
// more than three counted attempts is reported with its own message: it retries at
// once, hammering a dependency that is already failing.
//
// The fix is full jitter; runtime/retry.Do waits with full jitter.
package nojitter
