// Package retrytimeout defines an Analyzer that reports HTTP calls with no
// timeout inside a retry.
//
// Its documentation is Documentation, below: the analyzer's Doc and
// docs/retrytimeout.md are both made from it.
package retrytimeout

import "github.com/idemlint/idemlint/internal/checkdoc"

// Documentation is the check's structured documentation, its one source:
// the analyzer's Doc is Documentation.AnalyzerDoc(), and docs/retrytimeout.md is
// generated from it (go test ./analyzers -update-docs).
var Documentation = &checkdoc.Doc{
	Name:  Name,
	Title: "HTTP calls with no timeout inside a retry",
	Since: "v0.1.0",
	Text: `
` + "`" + `retrytimeout` + "`" + ` reports an HTTP call with no timeout inside a retry: in the
body of a retry loop, or in the operation passed to a retry library.

A retry around a call with no timeout never gets to retry, which is why the
reference (idempotency-and-retries) asks for a timeout on every remote call.
When the server stops answering or a connection stalls, the first attempt
hangs for as long as the connection lives (with ` + "`" + `http.DefaultClient` + "`" + `,
possibly forever), and the attempt cap, the backoff and the retry's deadline
never come into play.
A retry library's deadline does not help either unless it reaches the
request: retry-go's ` + "`" + `retry.Context(ctx)` + "`" + ` is only checked between attempts.`,
	Rule: `
Every remote call has a timeout. Every retry loop has a max attempt count
and an overall deadline.`,
	Before: `
func fetch(url string) (*http.Response, error) {
	return retry.DoWithData(func() (*http.Response, error) {
		return http.Get(url) // no timeout: a stalled server hangs the first attempt forever
	}, retry.Attempts(3))
}`,
	After: `
var client = &http.Client{Timeout: 5 * time.Second}

func fetch(ctx context.Context, url string) ([]byte, error) {
	return retry.DoWithData(func() ([]byte, error) {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, retry.Unrecoverable(err)
		}
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		return io.ReadAll(resp.Body)
	}, retry.Attempts(3), retry.Context(ctx))
}

// Or with github.com/idemlint/idemlint/runtime/retry, which also retries:
client := &http.Client{Transport: retry.NewTransport(nil, retry.Policy{AttemptTimeout: 5 * time.Second})}`,
	Fix: `
Give each attempt a bound: set ` + "`" + `http.Client.Timeout` + "`" + `, make the request with
` + "`" + `http.NewRequestWithContext` + "`" + ` and a ` + "`" + `context.WithTimeout` + "`" + ` per attempt, or
send it through ` + "`" + `runtime/retry.NewTransport` + "`" + ` (or run it in
` + "`" + `runtime/retry.Do` + "`" + `) with ` + "`" + `Policy.AttemptTimeout` + "`" + `. There is no suggested
fix: the right timeout is the caller's choice.

The fixed code reads the body inside the attempt, before its context is
cancelled. With ` + "`" + `runtime/retry.NewTransport` + "`" + ` (its last line), the transport
retries the request itself, with a per-attempt timeout, a deadline and full
jitter.`,
	More: []checkdoc.Section{
		{Title: "What it reports", Text: `
Inside a retry's repeated code, at the call:

| Call | Reported when |
|---|---|
| ` + "`" + `http.Get` + "`" + `, ` + "`" + `http.Head` + "`" + `, ` + "`" + `http.Post` + "`" + `, ` + "`" + `http.PostForm` + "`" + ` | always (they use ` + "`" + `http.DefaultClient` + "`" + ` and no context), unless the package sets ` + "`" + `http.DefaultClient` + "`" + `, its ` + "`" + `Timeout` + "`" + ` or its ` + "`" + `Transport` + "`" + ` |
| ` + "`" + `(*http.Client).Get/Head/Post/PostForm` + "`" + ` | the client is proven to have no timeout (below) |
| ` + "`" + `(*http.Client).Do(req)` + "`" + ` | the client is proven to have no timeout, and the request's context is proven to have no deadline |

A go-retryablehttp client is a retry of its own, and its default
` + "`" + `HTTPClient` + "`" + ` (` + "`" + `cleanhttp.DefaultPooledClient()` + "`" + `) has no ` + "`" + `Timeout` + "`" + `. The check
also reports, wherever they are:

| Call | Reported when |
|---|---|
| ` + "`" + `retryablehttp.Get` + "`" + `, ` + "`" + `Head` + "`" + `, ` + "`" + `Post` + "`" + `, ` + "`" + `PostForm` + "`" + ` | always |
| ` + "`" + `(*retryablehttp.Client).Get/Head/Post/PostForm` + "`" + ` | the client is a local ` + "`" + `retryablehttp.NewClient()` + "`" + ` whose ` + "`" + `HTTPClient` + "`" + ` is never replaced nor given a ` + "`" + `Transport` + "`" + ` or a ` + "`" + `Timeout` + "`" + ` (but copies of one proven to be 0, below), whose ` + "`" + `RetryMax` + "`" + ` is not set to 0 (or to a value the check cannot evaluate), and which is never passed to a function |
| ` + "`" + `(*retryablehttp.Client).Do(req)` + "`" + ` | the same, and the request's context has no deadline (` + "`" + `retryablehttp.NewRequest` + "`" + `, or ` + "`" + `NewRequestWithContext` + "`" + `, ` + "`" + `FromRequest` + "`" + ` or ` + "`" + `WithContext` + "`" + ` as below) |
| a ` + "`" + `&retryablehttp.Client{RetryMax: n}` + "`" + ` literal that a constructor stores in a struct field (every store of the field in the package that client), reported at its ` + "`" + `HTTPClient` + "`" + ` | its ` + "`" + `HTTPClient` + "`" + ` is proven to have no timeout (below, or ` + "`" + `cleanhttp.DefaultPooledClient()` + "`" + `), or is not set (` + "`" + `Do` + "`" + ` then uses ` + "`" + `cleanhttp.DefaultPooledClient()` + "`" + `), and the package never sets that ` + "`" + `HTTPClient` + "`" + `'s ` + "`" + `Timeout` + "`" + ` or ` + "`" + `Transport` + "`" + ` nor replaces it with anything but a parameter (a client option passing the caller's client on) |

Every request of such a type goes through the field, each on its caller's context: a deadline there, if any,
spans all the attempts, so none has a bound of its own (go-gitlab's ` + "`" + `newClient` + "`" + `).

A go-retryablehttp client may take its ` + "`" + `Timeout` + "`" + ` from another client (godo's ` + "`" + `New` + "`" + `:
` + "`" + `retryableClient.HTTPClient.Timeout = c.HTTPClient.Timeout` + "`" + `). The check reports the copy when:

- the client is a local ` + "`" + `retryablehttp.NewClient()` + "`" + ` that retries (` + "`" + `RetryMax` + "`" + ` not set to 0), keeps its
  ` + "`" + `HTTPClient` + "`" + `, is never passed to a function and hands its sends on through ` + "`" + `StandardClient()` + "`" + ` (each
  then on its caller's context, as above); every assignment of its ` + "`" + `HTTPClient.Timeout` + "`" + ` is such a copy, and
  the package assigns no other ` + "`" + `http.Client` + "`" + `'s ` + "`" + `Timeout` + "`" + ` (but the own ` + "`" + `HTTPClient` + "`" + ` of
  go-retryablehttp clients, when the package never replaces one);
- every client copied from is proven to have a zero ` + "`" + `Timeout` + "`" + ` (its ` + "`" + `Transport` + "`" + ` aside: only the
  ` + "`" + `Timeout` + "`" + ` is copied): ` + "`" + `http.DefaultClient` + "`" + `, an ` + "`" + `http.Client` + "`" + ` literal without ` + "`" + `Timeout` + "`" + `,
  ` + "`" + `new(http.Client)` + "`" + `, ` + "`" + `cleanhttp.DefaultClient()` + "`" + ` or ` + "`" + `DefaultPooledClient()` + "`" + `, or golang.org/x/oauth2's
  ` + "`" + `NewClient(ctx, src)` + "`" + ` over ` + "`" + `context.Background()` + "`" + ` or ` + "`" + `TODO()` + "`" + ` (or a context derived from them
  without ` + "`" + `WithValue` + "`" + `: no client of its own in it), traced through local variables; through the field of
  a constructor's result (` + "`" + `c := NewClient(httpClient)` + "`" + ` then ` + "`" + `c.HTTPClient` + "`" + `, where the one literal
  ` + "`" + `NewClient` + "`" + ` returns stores its parameter, or the fallback it assigns the parameter, and the package
  stores the field nowhere else but after the copy, never sets its ` + "`" + `Timeout` + "`" + ` nor passes it to another
  package's function); and, for a parameter, through the argument that some call of the package passes (godo's
  ` + "`" + `NewFromToken` + "`" + `: ` + "`" + `New(oauthClient, ...)` + "`" + `).

The related information points at the client without a ` + "`" + `Timeout` + "`" + ` and at the call passing it:

` + "`" + `` + "`" + `` + "`" + `
copied c.HTTPClient.Timeout is 0 (oauth2.NewClient of NewFromToken): no attempt times out; default it when 0
` + "`" + `` + "`" + `` + "`" + `

A client in a struct field of the package's own type is judged by what the package stores in the field
(cloudflare-go's ` + "`" + `api.httpClient` + "`" + `, datadog-api-client-go's ` + "`" + `cfg.HTTPClient` + "`" + `, go-retryablehttp's own
` + "`" + `c.HTTPClient` + "`" + `). Inside a retry's repeated code, at the call:

| Call | Reported when |
|---|---|
| ` + "`" + `x.f.Do(req)` + "`" + `, ` + "`" + `x.f.Get` + "`" + `, ` + "`" + `Head` + "`" + `, ` + "`" + `Post` + "`" + `, ` + "`" + `PostForm` + "`" + `, or through a local copy ` + "`" + `hc := x.f` + "`" + ` | every value the package's code stores in field ` + "`" + `f` + "`" + ` (a constructor's literal, a fallback ` + "`" + `if c.f == nil { c.f = http.DefaultClient }` + "`" + `), but nil and the parameters it passes on (a client option's ` + "`" + `WithHTTPClient(hc)` + "`" + `, a constructor's argument: the users' choice), is proven to have no timeout (below), and there is one, or the local copy falls back to such a client; the package never sets the field's ` + "`" + `Timeout` + "`" + ` or ` + "`" + `Transport` + "`" + `, never takes the field's address and never passes it to a function; and a ` + "`" + `Do` + "`" + `'s request has no deadline (below) or carries the caller's context |
| a call of a function of the package (` + "`" + `api.request(ctx, ...)` + "`" + `) | that function sends as in the row above, its request or context the argument the retry passes |

The request carries the caller's context when it is a parameter of the function declaring the retry (not of a
function literal: a retry library's per-attempt context may have a deadline) that is never assigned, traced
through local variables, copies (` + "`" + `*req` + "`" + `), a field of type ` + "`" + `*http.Request` + "`" + ` whose every store is such a
request (go-retryablehttp's ` + "`" + `req.Request` + "`" + `), ` + "`" + `http.NewRequestWithContext` + "`" + `, ` + "`" + `WithContext` + "`" + ` or ` + "`" + `Clone` + "`" + ` with such a
context, and the functions of the package it calls (datadog's ` + "`" + `copyRequest(request)` + "`" + `), their parameters read
as the arguments passed. The message names the field, and its related information the default client and,
for a call of the package's function, the send in it:

` + "`" + `` + "`" + `` + "`" + `
(*cloudflare.API).request in a retry can hang: field httpClient has no Timeout by default; set one
` + "`" + `` + "`" + `` + "`" + `

A client is proven to have no timeout when it is ` + "`" + `http.DefaultClient` + "`" + ` or,
traced through local variables, ` + "`" + `cleanhttp.DefaultClient()` + "`" + ` or ` + "`" + `DefaultPooledClient()` + "`" + `, a ` + "`" + `&http.Client{}` + "`" + ` or ` + "`" + `http.Client{}` + "`" + `
literal without ` + "`" + `Timeout` + "`" + ` (or with ` + "`" + `Timeout: 0` + "`" + `) and without ` + "`" + `Transport` + "`" + `,
` + "`" + `new(http.Client)` + "`" + `, or a zero ` + "`" + `var c http.Client` + "`" + `, whose ` + "`" + `Timeout` + "`" + ` and
` + "`" + `Transport` + "`" + ` are never assigned and which is never passed to a function.

A request's context is proven to have no deadline when the request comes
from ` + "`" + `http.NewRequest` + "`" + `, or from ` + "`" + `http.NewRequestWithContext` + "`" + `,
` + "`" + `req.WithContext` + "`" + ` or ` + "`" + `req.Clone` + "`" + ` with ` + "`" + `context.Background()` + "`" + `,
` + "`" + `context.TODO()` + "`" + `, ` + "`" + `context.WithoutCancel(...)` + "`" + ` or a context derived from
them by ` + "`" + `WithCancel` + "`" + ` or ` + "`" + `WithValue` + "`" + `, traced through local variables.

The message says which client and which context:

` + "`" + `` + "`" + `` + "`" + `
(*net/http.Client).Do inside a retry has no timeout: the client (http.DefaultClient) has no Timeout and the request's context (context.Background() of http.NewRequest) has no deadline, so a hung attempt never ends and the retry never gets to retry; set http.Client.Timeout, or make the request with http.NewRequestWithContext and a context.WithTimeout per attempt, or send it through github.com/idemlint/idemlint/runtime/retry.NewTransport with Policy.AttemptTimeout
` + "`" + `` + "`" + `` + "`" + ``},
		{Title: "Not reported", Text: `
- A client with a non-zero ` + "`" + `Timeout` + "`" + `, set in the literal or later.
- A client with a ` + "`" + `Transport` + "`" + `: it may bound each attempt, as
  ` + "`" + `runtime/retry.NewTransport` + "`" + ` does with ` + "`" + `Policy.AttemptTimeout` + "`" + `, or as an
  ` + "`" + `http.Transport` + "`" + ` with ` + "`" + `ResponseHeaderTimeout` + "`" + ` partly does.
- A client from elsewhere: a field (but for the stored go-retryablehttp clients and the field clients above), a parameter, a function's result, or a
  local client passed to a function (which may set its ` + "`" + `Timeout` + "`" + `).
- A field client whose default the package makes with a ` + "`" + `Timeout` + "`" + ` or a ` + "`" + `Transport` + "`" + `
  (` + "`" + `&http.Client{Transport: retry.NewTransport(...)}` + "`" + `), sets either later, builds by a call of
  its own (` + "`" + `newHTTPClient()` + "`" + `) or passes to a function; and a field the package only
  stores a caller's client in (a constructor's or an option's parameter), with no default of its own.
- A request whose context has a deadline: ` + "`" + `context.WithTimeout` + "`" + ` or
  ` + "`" + `WithDeadline` + "`" + `, made per attempt or above the retry (a retry whose own
  deadline is in scope and propagated to the request).
- A request whose context comes from the caller (a parameter) or from the
  retry library (the per-attempt context of ` + "`" + `runtime/retry.Do` + "`" + `, or the
  context sethvargo/go-retry passes), but for the field clients above: the caller may have set a deadline.
- Calls in functions that the retry's operation calls: only the retry's own
  code (the loop body, the operation's function literal or named function)
  is read, and the sends through field clients of the functions of the
  package it calls directly (above), when those hold no retry of their own.
- A copied ` + "`" + `Timeout` + "`" + ` that the package's own calls never give a client without one (a literal with a
  ` + "`" + `Timeout` + "`" + `, an oauth2 client over a context carrying a client, a client it sets a ` + "`" + `Timeout` + "`" + ` on), or
  that no call of the package reaches (an exported constructor: the users' choice); a default the package sets
  when the copy is 0; a client sent only in the function that makes it (judged at the send, above).
- Calls outside any retry, and generated files.`},
		{Title: "gRPC", Text: `
gRPC sets no deadline by default. A gRPC call (` + "`(*grpc.ClientConn).Invoke`" + `, ` + "`NewStream`" + `, a
generated stub's method) inside a retry is reported when its context is proven to have no deadline
(` + "`context.Background()`" + `, ` + "`TODO()`" + `, or derived from them without a timeout). A per-attempt
` + "`context.WithTimeout`" + `, a deadline made above the retry, a caller's context, ` + "`retry.WithPerRetryTimeout`" + `
on the call, and a package whose dials may time calls out (a service config's method ` + "`timeout`" + `, the retry
interceptor's ` + "`WithPerRetryTimeout`" + `, options the model cannot read) are fine.

` + "```go" + `
for i := 0; i < 3; i++ {
	if _, err = client.CreatePayment(context.Background(), req); err == nil { // reported
		return nil
	}
	time.Sleep(backoff(i))
}
` + "```" + ``},
	},
}
