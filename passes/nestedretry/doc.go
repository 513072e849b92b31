// Package nestedretry defines an Analyzer that reports retries nested in
// other retries.
//
// Its documentation is Documentation, below: the analyzer's Doc and
// docs/nestedretry.md are both made from it.
package nestedretry

import "github.com/idemlint/idemlint/internal/checkdoc"

// Documentation is the check's structured documentation, its one source:
// the analyzer's Doc is Documentation.AnalyzerDoc(), and docs/nestedretry.md is
// generated from it (go test ./analyzers -update-docs).
var Documentation = &checkdoc.Doc{
	Name:  Name,
	Title: "retry layers nested in other retries, directly or through calls",
	Since: "v0.1.0",
	Text: `
` + "`nestedretry`" + ` reports a retry layer inside the repeated code of another
retry: a retry loop, a retry library call, or a call to a client that
retries by itself, reached directly or through any number of calls.

Attempts multiply, which is why the reference (idempotency-and-retries)
asks for retries at one layer only. A loop of 3 attempts around a
go-retryablehttp client (5 attempts by default) sends up to 15 requests
for one logical call, and each layer's backoff keeps the caller waiting
while a dependency that is already failing gets 15 times the load.

The message multiplies every layer it knows on the worst path from the
reported one inward: a loop of 4 attempts around a function that retries 4
times around a client that tries 5 times says "up to 4×4×5 = 80 calls".`,
	Rule: `Retry at one layer of the stack. Retries at three layers of three attempts
each make 27 calls to a struggling dependency.

Retry at the outermost layer that can make the decision (often the edge
client or the job runner), and disable retries in inner SDKs, or the
reverse; never both.`,
	Before: `
sc := stripe.NewClient(key)
for i := 0; i < 3; i++ {
	pi, err := sc.V1PaymentIntents.Create(ctx, params) // reported
	if err == nil {
		return pi, nil
	}
	time.Sleep(backoff(i))
}`,
	After: `
backends := stripe.NewBackendsWithConfig(&stripe.BackendConfig{MaxNetworkRetries: stripe.Int64(0)})
sc := stripe.NewClient(key, stripe.WithBackends(backends))
params.SetIdempotencyKey(orderKey) // one key for every attempt
err := retry.Do(ctx, retry.Policy{MaxAttempts: 3}, func(ctx context.Context) error {
	_, err := sc.V1PaymentIntents.Create(ctx, params)
	return err
})`,
	Fix: `
In the reported code, the loop makes up to 3 attempts, each a stripe-go call
that makes up to 3 of its own: up to 9 charges attempted. The fixed code
keeps one layer: it turns stripe-go's retries off and keeps its own
(letting stripe-go retry and dropping the loop would do too).

In general, keep one layer:

- turn the inner client's retries off (` + "`RetryMax = 0`, `MaxNetworkRetries`" + `
  0, ` + "`aws.NopRetryer{}`" + ` or ` + "`RetryMaxAttempts: 1`, `MaxRetries(0)`" + `, no
  ` + "`gax.WithRetry`" + `), or drop the outer loop and rely on the client;
- for two retry loops or libraries, drop one;
- or use ` + "`github.com/idemlint/idemlint/runtime/retry.Do`" + ` at every layer:
  a ` + "`Do`" + ` inside another ` + "`Do`" + `'s operation makes a single attempt, so only the
  outermost layer retries (set ` + "`Policy.AllowNested`" + ` to opt a layer out).

A deliberate nesting (say, the inner layer retries a different failure) is
silenced with ` + "`//idemlint:ignore nestedretry <reason>`" + ` on the line or the
line above. There is no suggested fix: which layer to keep is a decision.`,
	More: []checkdoc.Section{
		{Title: "What it reports", Text: `
Inside the repeated code of a retry (the body of a retry loop, or the
operation passed to a retry library, whether a closure or a named function
of the package, or the closure passed to a retry helper: a function of
the analysed code that retries its func parameter in a loop, or hands it
to another retry, as go-containerregistry's internal ` + "`retry.Retry`" + ` hands it
to its vendored ` + "`wait.ExponentialBackoff`" + ` and gcrane's ` + "`backoffErrors`" + ` to
` + "`retry.Retry`" + `), the check reports:

| Inner layer | Reported at | Retries by itself unless |
|---|---|---|
| a hand-written retry loop that waits between attempts | its ` + "`for`" + ` keyword | (it is a retry) |
| a retry library call (` + "`retry.Do`, `backoff.Retry`, `wait.ExponentialBackoff`" + `, failsafe-go, ...) | the call | (it is a retry) |
| ` + "`(*retryablehttp.Client).Do/Get/Head/Post/PostForm`, `retryablehttp.Get/...`, `(*retryablehttp.RoundTripper).RoundTrip`" + ` | the call | ` + "`RetryMax`" + ` is 0 (or a ` + "`Client`" + ` literal without ` + "`RetryMax`" + `), or set to what the model cannot evaluate |
| ` + "`(*net/http.Client).Do/Get/...`" + ` on a client built by ` + "`(*retryablehttp.Client).StandardClient()`" + ` or with a ` + "`retryablehttp.RoundTripper`" + ` transport | the call | the retryablehttp client's ` + "`RetryMax`" + ` is 0, or set to what the model cannot evaluate |
| ` + "`(*net/http.Client).Do/Get/...`" + ` on a client whose transport comes (directly or under another RoundTripper) from a function of another package that returns a retrying RoundTripper: every value it returns is of one type whose ` + "`RoundTrip`" + ` reaches a retry layer (go-containerregistry's ` + "`transport.NewRetry`" + `, known by its fact) | the call | the function returns another transport |
| stripe-go API calls (` + "`sc.V1PaymentIntents.Create`, `paymentintent.New`" + `, ...) | the call | ` + "`MaxNetworkRetries`" + ` is 0 on that backend (default 2 retries: 3 attempts) |
| aws-sdk-go-v2 service operations (` + "`client.RunInstances(ctx, in)`" + `) | the call | the retryer is ` + "`aws.NopRetryer`" + ` or max attempts is 1 (default 3 attempts) |
| k8s client-go REST requests (` + "`(*rest.Request).Do/DoRaw/Stream/Watch`" + `) | the call | ` + "`.MaxRetries(0)`" + ` (default 10 retries: 11 attempts) |
| k8s typed clientsets (` + "`clientset.CoreV1().Pods(ns).Create(ctx, ...)`" + `: methods with a context of the interfaces in ` + "`k8s.io/client-go/kubernetes/typed/...`" + `) | the call | (always the default: 11 attempts) |
| ` + "`gax.Invoke`" + ` with ` + "`gax.WithRetry`" + `, or with spread call options (a Google Cloud client's per-method settings) | the call | no retry option |
| a call of a function that reaches any of these | the call | |

A client's method called through an interface is read as the concrete client's when the function fixes its type:
every assignment of the local variable holds one concrete type (` + "`var g getter = retryablehttp.NewClient()`" + `).

Calls are followed along the static call graph: functions, methods on
concrete types, and closures held in local variables, within the package;
a call through a func variable runs the functions and method values
assigned to it, and through a func parameter of an unexported function
used only in calls, the ones its callers pass (vault's
` + "`doRenewWithOptions(..., renew, ...)`" + `, passed ` + "`RenewTokenAsSelf`" + ` or ` + "`Sys().Renew`" + `);
across packages through a fact that the check exports on every exported
function or method that retries (directly or through its callees), with the
attempt cap when known. Because a Google Cloud client's methods call
` + "`gax.Invoke`" + `, they carry the fact too when the driver analyses them as
dependencies. A call through an interface declared in the package is
followed when exactly one type of the package implements the interface and
no type of the packages it imports does (sarama's ` + "`Client`" + `, implemented by
` + "`*client`" + `; a wrapper of an ` + "`http.Client`" + `-like interface is not, since
` + "`*http.Client`" + ` implements it too); a wrapper that embeds the interface
(sarama's ` + "`nopCloserClient{Client}`" + `) hands the call to the value it wraps
and is not counted as an implementation, nor is a test double declared in a
` + "`_test.go`" + ` file. Other interface calls are not followed
(the typed clientsets' interfaces are known, by package). A retry by recursion
(a function that calls itself again after a failure) is one layer: its call to
itself is its next attempt, not a layer inside it.

The message names the inner layer and its cap and, when both caps are known,
the worst case:

` + "```" + `
call to example.com/pay.Charge reaches github.com/avast/retry-go/v4.Do (5 attempts) inside a retry loop (3 attempts), up to 3×5 = 15 calls; retry in one layer only: ...
` + "```" + `

Client settings are traced back from the call: through local variables
(every value assigned to them, the fields set on them, the option functions
passed to their constructors), fields of the package's own types (every
value assigned to the field in the package) and the results of the
package's functions. When a client comes from outside (a parameter, another
package) and the package sets the library's retry option somewhere to a
value that turns retries off or that the check cannot evaluate, the check
stays quiet: that setting may be this client's.

A job handler (an asynq handler, a river worker, a Temporal activity: the
retry model's job handler scopes) is an outer layer: its framework runs it
again when it fails (asynq 26 attempts, river 25, Temporal without limit by
default), so a retry loop or retry library call written in the handler, or
reached from it through calls, is a second layer:

` + "```" + `
call to example.com/demo/jobs.syncLedger reaches retry loop (5 attempts) inside asynq handler func literal for "ledger:sync" (26 attempts), up to 26×5 = 130 calls; retry in one layer only: drop the inner retry and let asynq retry the task, or enqueue the task with asynq.MaxRetry(0) and keep the inner retry
` + "```" + `

Inside a job handler, clients that retry by themselves (stripe-go, the AWS
SDK, client-go, go-retryablehttp) are not reported: their short, default
retries are in nearly every handler, and the framework's retries are the
ones the fix keeps. A handler whose task or job the package enqueues with
retries off (` + "`asynq.MaxRetry(0)`, `river.InsertOpts{MaxAttempts: 1}`" + `,
a Temporal ` + "`RetryPolicy`" + ` with ` + "`MaximumAttempts: 1`" + `) is no layer.

The layers are those of the retry model pass that
` + "`nestedretry.Config{Scope: ...}`" + ` selects (the suite passes its shared one,
so ` + "`-retry-funcs`" + ` applies: functions listed there are outer and inner
layers too). The check has no flags of its own.`},
		{Title: "Not reported", Text: `
- Two retries one after the other.
- A layer that does not retry (issue 47): a retry library call of one attempt
  (` + "`retry.Attempts(1)`" + `, ` + "`MaxAttempts: 1`" + `, ` + "`Steps: 1`" + `), a go-retryablehttp client whose
  ` + "`RetryMax`" + ` is 0 (in its literal, or written after construction on the local it is
  assigned to, on the struct field the package stores it in, or on the client a helper of the package
  returns: ` + "`c.RetryMax = 0`" + `, ` + "`r.rc.RetryMax = 0`" + `), the ` + "`*http.Client`" + ` of its ` + "`StandardClient()`" + `, a gRPC call passed
  ` + "`retry.Disable()`" + ` or ` + "`retry.WithMax(1)`" + `, a call on a conn dialled with
  ` + "`grpc.WithDisableRetry()`" + `, or with neither the retry interceptor nor a ` + "`retryPolicy`" + `
  (a plain ` + "`grpc.NewClient(target, creds)`" + `, a service config with only ` + "`timeout`" + ` and
  ` + "`waitForReady`" + `). Options count wherever the package builds them: in the call, in a slice
  literal, a slice (declared empty or not) appended to (` + "`opts = append(opts, grpc.WithDisableRetry())`" + `), a package
  variable (` + "`var noRetry = []grpc.CallOption{retry.Disable()}`" + `) or a slice a function of the
  package returns (` + "`grpc.NewClient(target, dialOptions()...)`" + `), or an option it returns (` + "`noRetries()`" + `).
- A layer the model cannot read: unknown means silent. A conn dialled with
  options it cannot list (the caller's ` + "`opts...`" + `, a service config that is not a
  constant), a go-retryablehttp client whose ` + "`RetryMax`" + ` is set to a value it cannot
  evaluate (` + "`rc.RetryMax = retries`" + `); a ` + "`RetryMax`" + ` copied from a field of the package's own is
  read as the default the package gives that field (` + "`c.RetryMax = cfg.MaxRetries`" + ` with ` + "`MaxRetries: 2`" + `
  in its ` + "`DefaultConfig`" + `: 3 attempts), even when a setter's parameter or a value parsed from the environment
  also writes the field (vault's ` + "`SetMaxRetries`" + ` and ` + "`VAULT_MAX_RETRIES`" + `): the default is the layer's
  documented setting; a field the package gives no constant default (one only its callers set) stays unknown.
- A retry inside a loop that does not retry: a loop over items, a poller or
  worker that never leaves on success.
- A call of a function that loops over items without retrying.
- A retry loop that never waits between attempts, as the inner layer: such
  loops are more often read or scan loops that look like retries, and a
  mistake there would spread through every caller. (It still counts as an
  outer layer.)
- A loop that asks a policy value whether to try again (` + "`wait, ok, err := retrier.Retry(ctx, n, ...)`" + `)
  when, by its package's defaults, the value is of a type whose method returns
  false there on every path and the loop repeats only after asking it (or once,
  on a flag): olivere/elastic's ` + "`PerformRequest`" + `, whose client's retrier is a
  ` + "`StopRetrier`" + ` unless a user's ` + "`SetRetrier`" + ` gives another. The model makes no
  retry scope of it; a retrying default policy, or one every user passes to the
  constructor, leaves the loop a retry.
- Code inside the inner layer's own repeated code: it belongs to the inner
  layer (and is reported against it if it nests a third layer).
- ` + "`runtime/retry.Do`" + ` inside another ` + "`runtime/retry.Do`" + `'s operation, directly
  or through calls: the inner one makes a single attempt (the one-layer
  rule), unless its ` + "`Policy`" + ` sets ` + "`AllowNested: true`" + `.
- ` + "`retry.RetryOnConflict`" + ` around a client-go REST request: the REST client
  does not retry 409 conflicts, so the two layers retry different failures.
- The standard library: ` + "`net/http`" + `'s transparent replay of requests on a
  reused connection and ` + "`database/sql`" + `'s bad-connection retries are not
  retry layers here; the check exports no facts for standard packages.
- Functions of the modelled libraries themselves carry no facts (the model,
  which knows their configuration, decides).
- Generated files.`},
		{Title: "Limits", Text: `
- Interface method calls (but the package's own sole implementation, above)
  and function values (other than closures held in local variables) are not
  followed.
- The retry model takes a function of the same package that waits anywhere
  in its body for a wait helper (like ` + "`sleepCtx(ctx, d)`" + `), so a hand-written
  loop whose attempt is such a function (` + "`for { err = c.Refund(); ...;\n  time.Sleep(d) }`" + ` with ` + "`Refund`" + ` retrying with sleeps) is not seen as a
  retry and is not an outer layer. The same loop in another package is.
- Settings made outside the package (a client built in ` + "`main`" + ` and passed
  in) are invisible: the library default is assumed unless the package
  itself turns the retries off somewhere.`},
		{Title: "Cost", Text: `
` + "`nestedretry`" + ` is the suite's only pass that declares facts (the unexported
` + "`*retriesFact`" + `: layer, library, attempts, function; and ` + "`*transportFact`" + ` on a
function returning a retrying RoundTripper, which holds its RoundTrip's retriesFact;
gob-encoded, no maps).
A fact-bearing pass makes every driver analyse all dependencies from source
(and run the passes it requires, the retry model included, on each), so it
is what decides the suite's cost on a small package. The check skips the
standard library (no facts, no reports), which keeps its own work there near
zero; the loading is the driver's.

Measured on a shared 2-core machine under heavy load (load average 17 to
35), so wall times are noisy; user CPU and peak memory are the figures to
compare. ` + "`singlechecker`" + ` binaries of the fact-free ` + "`unboundedretry`" + ` (same
retry model) and of ` + "`nestedretry`" + `:

| target | unboundedretry (no facts) | nestedretry (facts) |
|---|---|---|
| ` + "`net/http`" + ` (185 packages with deps) | 5.4 s wall, 2.0 s user, 149 MB | 30 to 35 s wall, 7.7 to 8.6 s user, 690 to 707 MB |
| ` + "`std`" + ` (every package a root) | 39 s wall, 8.7 s user, 848 MB | 52 s wall, 8.9 s user, 795 MB |
| one package using stripe-go, aws-sdk-go-v2 (ec2), retryablehttp, retry-go | 3.8 s wall, 0.8 s user, 48 MB | 165 s wall, 25 s user, 1.99 GB |

Analysis work alone, packages loaded once (` + "`go test -bench BenchmarkStd\n./passes/nestedretry/`" + `, net/http and its dependencies):

| run | time/op | alloc/op |
|---|---|---|
| unboundedretry on net/http only | 0.23 s | 13 MB |
| nestedretry on all 185 packages, standard packages skipped | 1.88 s | 188 MB |
| nestedretry on all 185 packages, standard packages analysed | 2.05 s | 240 MB |

So the check's own analysis of 185 packages costs about 0.17 s and 52 MB;
the rest is the retry model running on every dependency, and, outside the
benchmark, parsing and type-checking every dependency from source (the
aws-sdk-go-v2 ec2 package alone dominates the third row).`},
		{Title: "gRPC", Text: `
A ` + "`grpc.ClientConn`" + ` retries by itself when it is dialled (` + "`grpc.NewClient`" + `, ` + "`Dial`" + `,
` + "`DialContext`" + `) with go-grpc-middleware's retry interceptor and ` + "`retry.WithMax(n)`" + ` with n > 1
(` + "`WithMax`" + ` counts every attempt; 0, the default, and ` + "`retry.Disable()`" + ` make one call), or with a service
config whose ` + "`retryPolicy`" + ` the model can read (a constant ` + "`grpc.WithDefaultServiceConfig`" + ` JSON:
` + "`maxAttempts`" + ` clamped to 5, or to ` + "`grpc.WithMaxCallAttempts`" + `; an entry without ` + "`name`" + ` is skipped;
` + "`grpc.WithDisableRetry()`" + ` turns it off). The two multiply. Its calls (` + "`Invoke`" + `, ` + "`NewStream`" + `, and
the methods of generated stubs built on it with ` + "`pb.NewXClient(conn)`" + `, traced through variables, fields and
the package's functions back to the dial) are a retry layer; a ` + "`retry.WithMax`" + `/` + "`retry.Disable`" + ` passed
to the call overrides the interceptor's. grpc-go's transparent retries (an RPC that never reached the server
application) are no layer, nor is a conn the package does not dial, nor one whose options the model
cannot list or whose service config is not a constant (see Not reported: what counts as a disabled layer).
A conn also retries its unary calls (` + "`Invoke`" + ` and the stubs' unary methods, not streams) when it is dialled
with a unary interceptor of the package's own (` + "`grpc.WithUnaryInterceptor`" + ` or
` + "`WithChainUnaryInterceptor`" + `: a function of the package, or the closure a function or method of the package
returns, in the call, a chain or an option slice) whose body is itself a retry: etcd's
` + "`c.unaryClientInterceptor(withMax(...))`" + ` retries every unary RPC in its loop, so a call through that
conn inside a retry is a second layer, with the interceptor's attempts. Other options the model cannot list do
not hide such an interceptor; one that only logs or adds metadata, or one from a parameter, is no layer.

` + "```go" + `
conn, _ := grpc.NewClient(target, grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithMax(3))))
client := pb.NewPaymentsClient(conn)
for i := 0; i < 3; i++ {
	if _, err = client.CreatePayment(ctx, req); err == nil { // 3×3 = 9 calls
		return nil
	}
	time.Sleep(backoff(i))
}
` + "```" + ``},
	},
}
