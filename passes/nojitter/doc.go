// Package nojitter defines an Analyzer that reports waits between retry
// attempts that have no randomness.
//
// Its documentation is Documentation, below: the analyzer's Doc and
// docs/nojitter.md are both made from it.
package nojitter

import "github.com/idemlint/idemlint/internal/checkdoc"

// Documentation is the check's structured documentation, its one source:
// the analyzer's Doc is Documentation.AnalyzerDoc(), and docs/nojitter.md is
// generated from it (go test ./analyzers -update-docs).
var Documentation = &checkdoc.Doc{
	Name:  Name,
	Title: "waits between retry attempts that are constant or grow without jitter",
	Since: "v0.1.0",
	Text: `
Clients that fail together, because a dependency blipped, retry together when their waits have no randomness: a
constant or deterministically growing wait lines them up into waves that hit the dependency at the same instants
(a thundering herd), again and again. Full jitter spreads them over the whole interval.

The check reads idemlint's retry model and reports, at the wait:

- a sleep, ` + "`time.After`" + `, timer or ` + "`Reset`" + ` between attempts whose duration is constant, or grows
  deterministically (` + "`<<`" + `, ` + "`*= 2`" + `, ` + "`math.Pow`" + `, a schedule table indexed by the attempt), with no
  ` + "`math/rand`" + `, ` + "`math/rand/v2`" + ` or ` + "`crypto/rand`" + ` anywhere in how it is computed (the model follows
  local variables and small helper functions of the same package, including helpers that do the sleeping,
  directly or through one more such helper, and exported delay functions of other packages through facts); a backoff method that adds randomness only when its
  receiver sets a field (` + "`if b.Jitter > 0 { d += rand.N(b.Jitter) }`" + `) has none when the receiver is built in the
  function from a literal that leaves the field unset (` + "`&backoff.Backoff{Max: 5 * time.Minute}`" + `); and a wait
  variable is judged by what the failure branch sets it to before it continues
  (` + "`if err != nil { wait = time.Second; continue }`" + `), whatever it holds on success;
- library settings that remove jitter, at the setting: retry-go's ` + "`DelayType(FixedDelay)`" + ` or
  ` + "`DelayType(BackOffDelay)`" + ` alone; cenkalti/backoff's ` + "`RandomizationFactor = 0`" + `,
  ` + "`WithRandomizationFactor(0)`" + `, an ` + "`ExponentialBackOff{}`" + ` literal and ` + "`ConstantBackOff`" + `;
  sethvargo/go-retry backoffs not wrapped in ` + "`WithJitter`" + `/` + "`WithJitterPercent`" + `; a k8s
  ` + "`wait.Backoff`" + ` without ` + "`Jitter`" + ` in ` + "`ExponentialBackoff`" + `, ` + "`RetryOnConflict`" + ` or
  ` + "`OnError`" + `; failsafe-go ` + "`WithDelay`" + `/` + "`WithBackoff`" + ` without ` + "`WithJitter*`" + `; and
  go-retryablehttp's default backoff (reported at ` + "`retryablehttp.NewClient()`" + `, in a function or at package level);
  the interval of a k8s ` + "`wait.PollUntilContextCancel`" + ` whose condition returns ` + "`false, nil`" + ` when a call it
  makes with the poll's context fails, which makes the poll a retry of that call (` + "`PollUntilContextTimeout`" + `, a
  short wait for something to be ready, is not);
- retries with no wait at all, in their own message: failsafe-go's default policy (3 attempts, no delay), Rican7/retry
  without a wait strategy, and hand loops with more than three counted attempts and no wait (a loop that neither waits nor counts
  attempts is not taken for a retry: it is far more often a read or scan loop).

Waits directed by the server (` + "`Retry-After`" + `) are fine. Waits the model cannot see into (a rate limiter, a
function of another package) are never reported. Pollers and tickers are not retries, and neither are workers,
subscription readers and queue drainers: a loop that never leaves on success (only on its context, a stop signal
or a failure of its take), does not count its failures, and whose attempt hands the pass the next item
(` + "`j, err := q.Dequeue(ctx)`" + `, ` + "`m, err := sub.NextMsg(d)`" + `) waits out its source after a failure; it does not
retry a call. A reconnect loop stays a retry: its attempt returns only an error, or opens what the pass serves (a
connection or session it closes, a stream it reads in a loop of its own), or returns what the next attempt starts
from (a member id, a revision). A layer that makes one attempt
never waits, so it is not reported (issue 47): a go-retryablehttp client whose ` + "`RetryMax`" + ` is 0, in its literal or
written after construction on the local it is assigned to or on the struct field the package stores it in
(` + "`c.RetryMax = 0`" + `, ` + "`r.rc.RetryMax = 0`" + `), a retry library call of one attempt (` + "`retry.Attempts(1)`" + `). A
` + "`Backoff`" + ` written after construction counts the same way (` + "`r.rc.Backoff = retryablehttp.LinearJitterBackoff`" + `).`,
	Rule: `Backoff with full jitter: sleep = random(0, min(cap, base * 2^attempt)).
Fixed delays without jitter synchronize clients into waves (thundering herd).`,
	Before: `
for attempt := 0; attempt < 5; attempt++ {
	if err = send(ctx); err == nil {
		return nil
	}
	time.Sleep(100 * time.Millisecond << attempt)
}`,
	After: `
for attempt := 0; attempt < 5; attempt++ {
	if err = send(ctx); err == nil {
		return nil
	}
	time.Sleep(rand.N(100 * time.Millisecond << attempt)) // math/rand/v2: full jitter
}`,
	Fix: `
Wait a random duration in ` + "`[0, d)`" + ` (full jitter), or use ` + "`github.com/idemlint/idemlint/runtime/retry.Do`" + `,
which waits ` + "`rand(0, min(MaxDelay, BaseDelay·2^n))`" + ` on a context-aware timer. For a library, the message
names the setting that brings jitter back.`,
	More: []checkdoc.Section{
		{Title: "gRPC", Text: `
go-grpc-middleware's retry interceptor waits ` + "`retry.BackoffLinearWithJitter(50ms, 0.10)`" + ` by default;
` + "`retry.WithBackoff(retry.BackoffLinear(d))`" + ` and ` + "`retry.BackoffExponential(d)`" + ` (or a jitter fraction of 0) have no
jitter and are reported at the option, when the interceptor retries (` + "`WithMax`" + ` > 1). The ...` + "`WithJitter`" + `
backoffs are fine, and so are a service config's retries (grpc-go jitters them by ±20 %).

` + "```go" + `
grpc.NewClient(target, grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(
	retry.WithMax(3),
	retry.WithBackoff(retry.BackoffLinear(100*time.Millisecond)), // reported
)))
` + "```" + ``},
	},
}
