// Package unkeyedpost defines an Analyzer that reports non-idempotent HTTP
// requests retried without an idempotency key.
//
// Its documentation is Documentation, below: the analyzer's Doc and
// docs/unkeyedpost.md are both made from it.
package unkeyedpost

import "github.com/idemlint/idemlint/internal/checkdoc"

// Documentation is the check's structured documentation, its one source:
// the analyzer's Doc is Documentation.AnalyzerDoc(), and docs/unkeyedpost.md is
// generated from it (go test ./analyzers -update-docs).
var Documentation = &checkdoc.Doc{
	Name:  Name,
	Title: "POST and PATCH requests retried without an idempotency key",
	Since: "v0.1.0",
	Text: `
A request that timed out, or failed with a 5xx, may have been applied: the server can have charged the card and
then lost the connection. Sending a POST or PATCH again without an idempotency key applies it twice.

The check reports a non-idempotent request sent inside a retry scope of idemlint's retry model (a hand-written retry
loop's body, or the operation passed to retry-go v4/v5, cenkalti/backoff v4/v5, sethvargo/go-retry, failsafe-go, k8s
` + "`wait`" + ` or client-go ` + "`retry.OnError`" + `) with no idempotency-key header on it:

- ` + "`http.Post`, `http.PostForm`, `(*http.Client).Post` and `PostForm`" + `;
- ` + "`(*http.Client).Do`" + ` with a request built by ` + "`http.NewRequest`" + ` or ` + "`NewRequestWithContext`" + ` (through ` + "`WithContext`" + `
  and ` + "`Clone`" + `), or an ` + "`&http.Request{Method: ...}`" + ` literal, whose method is a constant ` + "`POST`" + ` or ` + "`PATCH`" + `
  (` + "`\"POST\"`, `http.MethodPost`" + `, or a local variable holding one);
- a POST or PATCH sent through a go-retryablehttp client built in the function: ` + "`retryablehttp.NewClient()`" + `,
  ` + "`&retryablehttp.Client{RetryMax: n}`" + `, the default client of package-level ` + "`retryablehttp.Post`/`PostForm`" + `, and the
  ` + "`*http.Client`" + ` of its ` + "`StandardClient()`" + `. That client retries connection errors and 5xx for every method;
  also such a client that a constructor of the package stores in a struct field (` + "`c.client = &retryablehttp.Client{...}`" + `
  in ` + "`newClient`" + `, every store of the field in the package that one client), sent through the field in another method;
  and a client whose ` + "`StandardClient()`" + ` a function of the package stores in an ` + "`*http.Client`" + ` field
  (` + "`c.HTTPClient = rc.StandardClient()`" + `, as godo's ` + "`New`" + `) when its policy retries every method (no
  ` + "`CheckRetry`" + ` set on a ` + "`NewClient()`" + `, ` + "`DefaultRetryPolicy`" + `, ` + "`ErrorPropagatedRetryPolicy`" + `, or a func literal,
  function or method of the package that can say retry and never reads the request's method, directly or through a
  helper of the package it calls: go-gitlab's ` + "`CheckRetry: c.retryHTTPCheck`" + `, which tests the status alone), the function gives the field no other transport, and
  the package sends an unkeyed POST or PATCH with ` + "`Do`" + ` through the field, or through a sending helper it passes
  the field to (` + "`DoRequestWithClient(ctx, c.HTTPClient, req)`" + `): that is reported at the client, which re-sends
  them, with no fix. A go-retryablehttp client that makes one attempt re-sends nothing and is none of these
  (issue 47): its ` + "`RetryMax`" + ` is 0 in its literal, or written 0 after construction on the local it is assigned to
  or on the struct field the package stores it in (` + "`c.RetryMax = 0`" + ` before ` + "`c.StandardClient()`" + `,
  ` + "`r.rc.RetryMax = 0`" + ` in the constructor); nor is a retry library call of one attempt (` + "`retry.Attempts(1)`" + `), nor a client
  given a ` + "`CheckRetry`" + ` (in its literal or after construction, ` + "`c.CheckRetry = idempotentOnly`" + `) that reads the
  request's method (` + "`resp.Request.Method`" + `, a comparison or switch on it, a helper of the package given it) or never
  says retry; a policy of another package that is not a stock one is not judged, and a functional option's store of
  its parameter (` + "`WithCustomRetry(checkRetry)`" + `) is the choice of the users who ask for it, not the client's policy;
- the sends of generated API clients, whose request or method is a parameter: a request parameter (or the
  ` + "`Request`" + ` of a ` + "`*retryablehttp.Request`" + ` one) is judged by the requests the package's call sites pass for it, a
  method parameter by the methods they pass, and a request built by a request builder of the package
  (` + "`c.NewRequest(http.MethodPost, path)`" + `) by what the builder returns, with the method of that call; a call inside the
  retry of a sending helper of the package (` + "`api.request(ctx, method, uri)`" + ` that builds and sends the request) by the
  send in the helper, with the method of that call, reported at the call. The first POST
  or PATCH found makes the send one: its message says where it comes from (` + "`(a POST from issues.go:118)`" + `), and there is
  no fix (the key belongs to the caller). A builder that sets a key header keys every request it builds; code it
  hands the request to (the caller's request options) does not count, and copying the entries of a local header map
  whose names are all constant and none a key sets none. A helper of the package that copies one header parameter
  into another (` + "`copyHeader(target, source)`" + `: ` + "`for k, vs := range source { target[k] = vs }`" + `) keys the request
  only with what it copies: the header passed for the source is judged at the call sites the method came through
  (` + "`nil`" + `, a header the receiver holds for every request, a local header of literals and constant names none a
  key carry none; a header of the caller's may carry one). Call sites in other packages are not seen;
- the caller's requests, of any method: a retry that re-sends a request its callers give (a parameter of an
  exported function or of an exported method of an exported type that no call site of the package settles as a
  POST, or an exported ` + "`*http.Request`" + ` field of the receiver of a method of an exported type, as in the
  ` + "`RequestConfig`" + ` of a generated SDK, or the request of a pipeline policy's ` + "`Do`" + `, which the SDK's pipeline hands
  every request, re-sent with ` + "`req.Next()`" + ` or ` + "`req.Clone(ctx).Next()`" + ` as in azcore's retry policy) re-sends their
  POSTs too. Sends through values count here: an
  ` + "`http.RoundTripper`" + `'s ` + "`RoundTrip`" + ` and a func value of the shape of ` + "`(*http.Client).Do`" + ` (` + "`handler := c.HTTPClient.Do`" + `,
  wrapped in middleware). A function that compares the request's method (` + "`req.Method`" + `, ` + "`req.Raw().Method`" + ` or a local
  holding it; itself, or in a helper of the package it hands the request to) decides by method and is not reported. The message says to key POSTs or to retry only
  idempotent methods; there is no fix. Headers copied from a header map a client holds for every request
  (` + "`for k, v := range c.header`" + `), predicate hooks (` + "`c.retryOnError(req, err)`" + `), calls handed the response beside the
  request (a logger's ` + "`LogRoundTrip(req, res, ...)`" + `), and parts of the request (` + "`req.Body`" + `) set no key.

It reports at the send (at the client for a retrying client behind a field, above); when a helper of the package
sends a request built inside the retry, it reports where the request is built; and when the retry calls a helper of the package that builds and sends an unkeyed POST or PATCH
itself (` + "`c.post(ctx, \"/charges\", body)`" + `), it reports the call.

Not reported: requests that carry a key header (` + "`Idempotency-Key`, `X-Idempotency-Key`" + `, or a name given with
` + "`-key-headers`" + `; set with ` + "`Header.Set`, `Add`" + `, a map assignment or a header literal, in the function or in a helper
of the package it passes the request to); requests handed to code the check cannot see into (a function value, an
interface method, a function of another package than ` + "`net/http`, `fmt`, `log`" + ` and the like), or given a header whose name is not constant
(a hook called only when set, ` + "`if c.PrepareRetry != nil { c.PrepareRetry(req) }`" + ` or an optional signer
` + "`if c.signer != nil { c.signer.SignRequest(req) }`" + `, and values copied out of the request
such as ` + "`req.Method`" + ` do not count); ` + "`GET`, `HEAD`, `OPTIONS`,\n`PUT`, `DELETE`" + ` and methods that are not constant; a POST sent once; and retries that never repeat after the send:
a loop in which every path after the send leaves the loop, an operation whose returns after the send are ` + "`nil`" + ` or
permanent errors (` + "`retry.Unrecoverable`, `backoff.Permanent`" + `, idemlint's ` + "`retry.Permanent`" + `), a sethvargo/go-retry
operation that never wraps an error in ` + "`RetryableError`" + `, a k8s condition that returns ` + "`true`" + ` or a certain error after
the send, client-go's ` + "`RetryOnConflict`" + `, which retries only on a 409 Conflict, and a loop that goes on past the send
only when an SDK's status test says 409 (azcore's ` + "`if err != nil || !runtime.HasStatusCode(resp, codes...) { return }`" + `, the
codes constants or a field the package defaults to ` + "`{http.StatusConflict}`" + `). Generated files are skipped.`,
	Rule: `Every non-idempotent operation exposed to retries (POST that creates or charges, message handlers with side effects) needs an idempotency key or natural idempotence.

Gotcha: retrying on 500 for a POST without a key creates duplicates.`,
	Before: `
for attempt := 0; attempt < 4; attempt++ {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	if resp, err := client.Do(req); err == nil && resp.StatusCode < 500 {
		return nil
	}
	time.Sleep(backoff(attempt))
}`,
	After: `
key := idempotency.NewKey()
for attempt := 0; attempt < 4; attempt++ {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	if resp, err := client.Do(req); err == nil && resp.StatusCode < 500 {
		return nil
	}
	time.Sleep(backoff(attempt))
}`,
	Fix: `
Mint one key per logical operation with ` + "`github.com/idemlint/idemlint/runtime/idempotency.NewKey()`" + ` above the retry and
set it on every attempt's request, or send through ` + "`github.com/idemlint/idemlint/runtime/retry.NewTransport`" + `, which
keys every non-idempotent request that has no key and reuses that key for its own retries (and then drop the hand
retry: retry at one layer).

Suggested fixes, offered when the request comes from ` + "`req, err := http.NewRequest...`" + ` followed by
` + "`if err != nil { ...return }`" + ` (so the request is never nil where the header is set):

- **Mint an idempotency key above the retry and set it on the request** when the request is built inside the
  retry: ` + "`key := idempotency.NewKey()`" + ` above the loop (or above the statement that calls the retry library) and
  ` + "`req.Header.Set(\"Idempotency-Key\", key)`" + ` after the error check;
- **Set an idempotency key on the request** when it is built once before the retry, or sent through a retrying
  client: ` + "`req.Header.Set(\"Idempotency-Key\", idempotency.NewKey())`" + ` after the error check.

Both add the import of ` + "`github.com/idemlint/idemlint/runtime/idempotency`" + `, under another name when ` + "`idempotency`" + ` is
taken. The server must honour the key: see [runtime/idempotency](runtime-idempotency.md).`,
	Options: []checkdoc.Option{
		{Flag: "-key-headers", Setting: "key-headers", Default: "none",
			Text: "comma-separated extra request headers that carry a key (besides `Idempotency-Key`, `X-Idempotency-Key`)"},
	},
}
