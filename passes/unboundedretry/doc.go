// Package unboundedretry defines an Analyzer that reports retries with no
// attempt cap and no deadline.
//
// Its documentation is Documentation, below: the analyzer's Doc and
// docs/unboundedretry.md are both made from it.
package unboundedretry

import "github.com/idemlint/idemlint/internal/checkdoc"

// Documentation is the check's structured documentation, its one source:
// the analyzer's Doc is Documentation.AnalyzerDoc(), and docs/unboundedretry.md is
// generated from it (go test ./analyzers -update-docs).
var Documentation = &checkdoc.Doc{
	Name:  Name,
	Title: "retries with no attempt cap and no deadline",
	Since: "v0.1.0",
	Text: `
A retry with neither a maximum number of attempts nor an overall deadline keeps calling a dependency for as long
as it fails: a short outage becomes an endless stream of calls from every client, and the caller hangs forever.

The check reads idemlint's retry model and reports a hand-written retry loop at its ` + "`for`" + ` keyword, and a
retry library call at the call, when the model finds:

- **no attempt cap**: no counter compared with a bound (a counter that is never incremented is no cap), no range over
  a number, no library maximum. Library settings that mean "forever": retry-go's ` + "`Attempts(0)`" + ` and
  ` + "`UntilSucceeded()`" + `, cenkalti/backoff v5's ` + "`WithMaxTries(0)`" + ` (and no ` + "`WithMaxTries`" + ` at all),
  backoff v4 without ` + "`WithMaxRetries`" + `, failsafe-go's ` + "`WithMaxRetries(-1)`" + `, sethvargo/go-retry without
  ` + "`WithMaxRetries`" + `, a k8s ` + "`wait.PollUntilContextCancel`" + ` whose condition returns ` + "`false, nil`" + ` when a call with its context fails;
- **and no deadline**: no context with a deadline made in the function (` + "`context.WithTimeout`" + `,
  ` + "`WithDeadline`" + `), no clock test (` + "`time.Since(start) > d`" + `), no timer made before the loop, no
  library max-elapsed time. A stop channel (a ` + "`chan struct{}`" + ` field or local closed on shutdown, as in
  ` + "`case <-s.done: return`" + `) is no deadline: it ends the loop at no time of its own; one that comes as a
  parameter counts as the caller's, like a context, and so does a local holding ` + "`ctx.Done()`" + `. cenkalti/backoff's ` + "`ExponentialBackOff{}`" + ` literal and ` + "`WithMaxElapsedTime(0)`" + `
  mean never stop; ` + "`NewExponentialBackOff()`" + ` stops after 15 minutes. A context is traced to where it is
  made: ` + "`context.Background()`" + `, ` + "`TODO()`" + ` and ` + "`WithCancel`" + ` of them have no deadline (a
  cancel-only context ends when its owner cancels it, like a stop channel), also through a parameter that every call
  in the package passes such a context (kafka-go's ` + "`reader.run`" + `, given ` + "`Reader.start`" + `'s
  ` + "`context.WithCancel(context.Background())`" + `). A wait helper that returns false when its context or stop
  channel ends (` + "`if !sleep(ctx, backoff(attempt)) { return }`" + `) is that context's exit, not a cap, and
  so is a failure on an ended context (` + "`errors.Is(err, context.Canceled)`" + `) of an attempt given one. An
  exit that no retried failure reaches caps nothing: a return on the item found after a successful call, or on a
  watch's callback after the failure branch that sleeps and continues. A retry helper of the package whose cap
  is taken only when a field of its options parameter is positive (nats.go's ` + "`retryWithBackoff(f, opts)`" + `:
  ` + "`if opts.attempts > 0 && i >= opts.attempts-1 { break }`" + `) is reported at a call whose argument gives that
  field a count that is not positive (a constant, or a field the package defaults to one: ` + "`MaxResetAttempts`" + `,
  -1 when unset) and a stop channel of the package's own (` + "`cancel: c.subscription.done`" + `): the call's
  arguments make it unbounded, ` + "`… with these arguments`" + `.

A retry bounded only by a context that comes from the caller is not reported by default, since the caller may have
set a deadline; ` + "`-strict-context`" + ` reports it too. It is reported by default when code of the package
itself (not its tests) reaches it with a context that has no deadline, directly or through the context parameters
of its callers: ` + "`Subscribe(fn)`" + ` calling ` + "`SubscribeWithContext(context.Background(), fn)`" + `, whose
watch retries until the context ends; the message names the function that makes that context (` + "`when called from Subscribe`" + `). When a loop leaves on a condition the model cannot
understand (a call such as ` + "`stop()`" + `), the bound is unknown and nothing is reported: a miss costs less than a
false alarm.

A loop that never leaves on success is not a retry when each pass takes the next item of a source: a worker
(` + "`j, err := q.Dequeue(ctx)`" + `; on ` + "`errEmpty`" + ` or any other error it sleeps and continues, else it processes the job), a
poller, a subscription reader (` + "`m, err := sub.NextMsg(d)`" + `) or a queue drainer, whose only exits are its context, a
stop signal or a failure of the take (` + "`for ctx.Err() == nil`" + `, ` + "`case <-ctx.Done(): return`" + `,
` + "`errors.Is(err, context.Canceled)`" + `), and which does not count its failures. Its wait after a failure paces the source;
it is not reported. A loop that leaves on success (` + "`if err == nil { return }`" + `), through a flag its success sets
(` + "`for !done`" + `) or after a successful take (a watch that ends when its callback fails), or that counts its failures
and resets the count on success (` + "`attempt = 0`" + `), stays a retry, and so does a reconnect loop: its attempt returns only
an error (it connects), or opens what the pass then serves (a connection or session, an ` + "`io.Closer`" + `; a stream that a
loop nested in the pass reads until it breaks), or returns what the next attempt starts from (kafka-go's member id,
a watch's revision).`,
	Rule: `Every remote call has a timeout. Every retry loop has a max attempt count and an overall deadline.`,
	Before: `
for {
	if err := client.Charge(ctx, req); err == nil {
		return nil
	}
	time.Sleep(jitter(time.Second))
}`,
	After: `
return retry.Do(ctx, retry.Policy{MaxAttempts: 4, Deadline: 15 * time.Second}, func(ctx context.Context) error {
	return client.Charge(ctx, req)
})`,
	Fix: `
Cap the attempts and set an overall deadline. ` + "`github.com/idemlint/idemlint/runtime/retry.Do`" + ` has both by
default (4 attempts, 15 seconds from the first failure, full jitter, transient errors only). With a library, the
message names its setting: ` + "`retry.Attempts(n)`" + ` and ` + "`retry.Context`" + `, ` + "`backoff.WithMaxRetries`" + `,
` + "`backoff.WithMaxTries`" + ` and ` + "`backoff.WithMaxElapsedTime`" + `, ` + "`retry.WithMaxRetries`" + ` and
` + "`retry.WithMaxDuration`" + `. There is no suggested fix: the right cap is a decision.`,
	Options: []checkdoc.Option{{
		Flag: "-strict-context", Setting: "strict-context", Default: "false",
		Text: "also report retries bounded only by a caller's context (no cap, no deadline of their own)",
	}},
	More: []checkdoc.Section{
		{Title: "gRPC", Text: `
Hand loops around gRPC calls are judged like any other loop. go-grpc-middleware's retry interceptor always
has a cap (` + "`WithMax(n)`" + ` is n attempts; 0, the default, is one call) and a service config's
` + "`maxAttempts`" + ` is clamped to 5, so neither is reported.

` + "```go" + `
for { // reported: no cap, no deadline
	if _, err := client.CreatePayment(context.Background(), req); err == nil {
		return
	}
	time.Sleep(time.Second)
}
` + "```" + ``},
	},
}
