// Package retrystatus defines an Analyzer that reports retries that repeat
// on HTTP statuses that are not transient.
//
// Its documentation is Documentation, below: the analyzer's Doc and
// docs/retrystatus.md are both made from it.
package retrystatus

import "github.com/idemlint/idemlint/internal/checkdoc"

// Documentation is the check's structured documentation, its one source:
// the analyzer's Doc is Documentation.AnalyzerDoc(), and docs/retrystatus.md is
// generated from it (go test ./analyzers -update-docs).
var Documentation = &checkdoc.Doc{
	Name:  Name,
	Title: "retries that repeat on permanent HTTP statuses, or on 429 without Retry-After",
	Since: "v0.1.0",
	Text: `
` + "`" + `retrystatus` + "`" + ` reports a retry that repeats an HTTP request on a status that
is not transient: every non-2xx, or explicitly 400, 401, 403, 404, 409 or
422; and a retry of 429 that does not read ` + "`" + `Retry-After` + "`" + `.

The reference (idempotency-and-retries) sorts failures so:

| Retry | Do not retry |
|---|---|
| Connection refused/reset, DNS failure, timeouts (for idempotent/keyed ops) | 400, 401, 403, 404, 409 (unless documented), 422 |
| 429 (honor Retry-After) | Validation or business-rule errors |
| 502, 503, 504 | 500 from a non-idempotent call without a key |

A retry of 404 or 400 repeats an answer that will not change: it only adds
load and delays the caller's error by the whole backoff schedule. A 429
retried without reading ` + "`" + `Retry-After` + "`" + ` hammers a server that said how long
to wait. A 409 is worth retrying only as the in-progress answer of a keyed
request (the idempotency server answers 409 while the first attempt with
the same key is still running).`,
	Rule: `
Retry only errors that are transient and only operations that are
idempotent (or keyed).`,
	Before: `
for attempt := 0; attempt < 4; attempt++ {
	resp, err := client.Do(req)
	if err == nil && resp.StatusCode == http.StatusOK { // 404, 401, 429... all retried
		return resp, nil
	}
	time.Sleep(backoff(attempt))
}`,
	After: `
for attempt := 0; attempt < 4; attempt++ {
	resp, err := client.Do(req)
	if err == nil {
		if err = retry.ResponseError(resp); err == nil {
			return resp, nil
		}
		resp.Body.Close()
		if retry.Classify(err) == retry.ClassPermanent {
			return nil, err // 400, 401, 403, 404, 409, 422: the answer will not change
		}
	}
	delay := backoff(attempt)
	var se *retry.StatusError
	if errors.As(err, &se) && se.RetryAfter > 0 {
		delay = se.RetryAfter // 429 and 503: the server said how long to wait
	}
	time.Sleep(delay)
}

// Or, simpler, with github.com/idemlint/idemlint/runtime/retry.Do, which classifies,
// honours Retry-After, caps attempts and sets a deadline:
err := retry.Do(ctx, retry.Policy{}, func(ctx context.Context) error {
	resp, err := client.Do(req.WithContext(ctx))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return retry.ResponseError(resp)
})`,
	Fix: `
Retry only transient statuses: 408, 429 after waiting for ` + "`" + `Retry-After` + "`" + `,
502, 503 and 504 (500 only for idempotent or keyed requests), and return on
the other 4xx. ` + "`" + `runtime/retry.Classify` + "`" + ` and ` + "`" + `DefaultRetryable` + "`" + ` implement
that sorting; ` + "`" + `runtime/retry.ResponseError` + "`" + ` turns a response into an error
they sort, carrying the ` + "`" + `Retry-After` + "`" + ` delay. There is no suggested fix:
which statuses a caller retries is its decision.`,
	More: []checkdoc.Section{
		{Title: "What it reports", Text: `
The check works out, status by status (100 to 599), which statuses lead to
another attempt, and reports at the condition that sends them there:

| Retry | Where it looks | Reported at |
|---|---|---|
| a hand-written retry loop | every path from the statement that gets the response (` + "`" + `resp, err := client.Do(req)` + "`" + `) to ` + "`" + `continue` + "`" + ` or the end of the body (another attempt) or to ` + "`" + `return` + "`" + `/` + "`" + `break` + "`" + ` (an exit) | the ` + "`" + `if` + "`" + ` condition or ` + "`" + `case` + "`" + ` clause |
| go-resty v2 ` + "`" + `AddRetryCondition` + "`" + `, resty v3 ` + "`" + `AddRetryConditions` + "`" + `/` + "`" + `SetRetryConditions` + "`" + ` | the condition function | the condition |
| go-resty v2 ` + "`" + `AddRetryAfterErrorCondition()` + "`" + ` | (retries ` + "`" + `IsError()` + "`" + `: every status ≥ 400) | the call |
| retry-go ` + "`" + `RetryIf` + "`" + ` | the predicate, where it finds a status in the error (` + "`" + `errors.As(err, &se)` + "`" + `, ` + "`" + `se, ok := err.(*T)` + "`" + `) | the condition |
| failsafe-go ` + "`" + `HandleIf` + "`" + ` | the predicate | the condition |
| go-retryablehttp ` + "`" + `CheckRetry` + "`" + ` (assigned, or in a ` + "`" + `Client` + "`" + ` literal) | the policy function | the condition |
| the operation of retry-go ` + "`" + `Do` + "`" + ` (without ` + "`" + `RetryIf` + "`" + `), cenkalti/backoff ` + "`" + `Retry` + "`" + `, sethvargo/go-retry ` + "`" + `Do` + "`" + `, ` + "`" + `runtime/retry.Do` + "`" + ` (with the default ` + "`" + `Retryable` + "`" + `) | the statuses for which the operation returns an error the library retries | the condition, or the call of the package's helper that makes the error (` + "`" + `return checkResponse(resp)` + "`" + `) |

The loops are those of idemlint's retry model (attempt iterators included: ` + "`" + `for range c.newRetryTimer(...)` + "`" + `
over a function iterator that waits between its attempts), plus loops (` + "`" + `for` + "`" + `, or
` + "`" + `range` + "`" + ` over an integer) that the model leaves out because they retry on
statuses only (they return on a transport error), when they leave on some
2xx status and repeat on others. A loop that indexes something with its
counter, or whose request depends on it (` + "`" + `http.Get(fmt.Sprintf(url, i))` + "`" + `),
asks for something new each time: it is not checked.

A status is reported when it is **surely** retried:

- Conditions on the status are evaluated exactly: comparisons of
  ` + "`" + `resp.StatusCode` + "`" + ` (or resty's ` + "`" + `StatusCode()` + "`" + `, ` + "`" + `IsSuccess()` + "`" + `,
  ` + "`" + `IsError()` + "`" + `, a status error's ` + "`" + `StatusCode` + "`" + ` field, or an integer variable
  assigned the status) with constants, arithmetic such as
  ` + "`" + `resp.StatusCode/100 != 2` + "`" + `, and ` + "`" + `switch` + "`" + ` statements on the status.
- The error returned with the response is nil whenever there is a response;
  an error assigned on a path (` + "`" + `fmt.Errorf` + "`" + `, ` + "`" + `errors.New` + "`" + `, a sentinel
  ` + "`" + `errFoo` + "`" + `/` + "`" + `ErrFoo` + "`" + `, a composite literal) is not nil, and
  ` + "`" + `runtime/retry.ResponseError(resp)` + "`" + ` is nil exactly below 400.
- A condition that does not depend on the attempt (an attempt counter, a
  clock, a context) may go either way: ` + "`" + `if i == last { return }` + "`" + ` does not
  hide a retry.
- A function of the package given the status or the response is followed
  through a summary of what it returns per status, made by the same walk:
  a predicate (` + "`" + `if shouldRetry(resp)` + "`" + `, ` + "`" + `isRetryable(resp.StatusCode)` + "`" + `, ` + "`" + `return code >= 500` + "`" + `, a
  method such as ` + "`" + `r.Retry(code, err) (time.Duration, bool)` + "`" + `, or a bool variable assigned its result once),
  a function that turns statuses into errors (` + "`" + `if resp.StatusCode >= 300 { return fmt.Errorf(...) }` + "`" + `, then
  ` + "`" + `if err := checkResponse(resp); err != nil { continue }` + "`" + `), and a function that gets the response itself
  (` + "`" + `if err = c.upload(b); err == nil { return }` + "`" + ` in a loop that retries every error). A predicate that
  returns true on some path and false on another that does not depend on
  the status (an attempt counter) may go either way; in a summary, a condition the walk cannot follow
  (` + "`" + `if _, err := decodeBody(resp.Body, &e); err != nil` + "`" + `) keeps only what both of its ways decide, and a
  value of a concrete type returned as the error (` + "`" + `return errResp` + "`" + `, an ` + "`" + `ErrorResponse` + "`" + ` struct) is not
  nil. Lookups in a
  package-level map literal of status constants that the package never
  changes (` + "`" + `retryable[code]` + "`" + `, ` + "`" + `_, ok := retrySet[code]` + "`" + `), and membership tests of a
  package-level set built once from status constants (minio-go's ` + "`" + `set.CreateIntSet(...)` + "`" + ` with
  ` + "`" + `Contains` + "`" + `, apimachinery's ` + "`" + `sets.New(...)` + "`" + ` and ` + "`" + `sets.NewInt(...)` + "`" + ` with ` + "`" + `Has` + "`" + `; a set the
  package uses any other way may change) are evaluated too; so is an integer assigned the status under ` + "`" + `if resp != nil { code = resp.StatusCode }` + "`" + `.
- The error of reading the body (` + "`" + `body, err = io.ReadAll(resp.Body)` + "`" + `, through ` + "`" + `io.LimitReader` + "`" + ` too) and that of
  the model's wait (` + "`" + `if err := sleep(ctx, d); err != nil` + "`" + `, a cancelled context) may be nil or not,
  whatever the status; a bool the loop's condition tests (` + "`" + `for !done` + "`" + `) is
  known until the path sets it.
- A condition on anything else the attempt produced (a helper of another
  package, the body, a variable assigned in the loop) is not followed: a
  status whose fate depends on it is never reported, except past
  ` + "`" + `if isS3CodeRetryable(apiErr.Code) { continue }` + "`" + `: a status it leaves undecided is retried
  there or goes on, and a later status condition that retries it retries it either way.

Permanent statuses are the 4xx but 408 and 429, as
` + "`" + `github.com/idemlint/idemlint/runtime/retry.Classify` + "`" + ` sorts them, and but
409 when the function sends an idempotency key (an ` + "`" + `Idempotency-Key` + "`" + ` or
` + "`" + `X-Idempotency-Key` + "`" + ` header, ` + "`" + `IdempotencyKeyHeader` + "`" + `, ` + "`" + `NewIdempotencyKey` + "`" + `, an
` + "`" + `IdempotencyKey` + "`" + ` field). 5xx statuses are never reported.

429 is reported in hand-written loops and retry-library operations when the
function does not read ` + "`" + `Retry-After` + "`" + `: the header name (as a string or a
constant), ` + "`" + `runtime/retry.ParseRetryAfter` + "`" + `, a ` + "`" + `RetryAfter` + "`" + ` field, a
function of the package given the response that reads it (or, for a
function that gets its own response, it or what it hands the response
to), or a function from outside the standard library given the response
(which may read it).
In retry predicates, whether the library waits for ` + "`" + `Retry-After` + "`" + ` is the
library's business: 429 is not reported there.

Messages (the answer to a permanent status will not change, so every retry
repeats it; after a 429 the server said how long to wait: ` + "`" + `runtime/retry.Classify` + "`" + `
sorts statuses as the messages say, and ` + "`" + `runtime/retry.DefaultRetryable` + "`" + `, the
default of ` + "`" + `runtime/retry.Do` + "`" + `, uses it; an operation that returns
` + "`" + `retry.ResponseError(resp)` + "`" + ` has its ` + "`" + `Retry-After` + "`" + ` honoured):

` + "`" + `` + "`" + `` + "`" + `
retry loop retries every 4xx but 408 and 429; retry only 408, 429, 502, 503 and 504, as retry.Classify does
retry loop retries 429 without reading Retry-After; honour it with retry.ParseRetryAfter or retry.ResponseError
RetryIf predicate retries 401, a permanent status; retry only 408, 429, 502, 503 and 504, as retry.Classify does
retry.Do retries 404, a permanent status; wrap the error in retry.Unrecoverable for them
` + "`" + `` + "`" + `` + "`" + ``},
		{Title: "Not reported", Text: `
- Conditions that retry only 408, 429 with ` + "`" + `Retry-After` + "`" + ` read, 5xx, 502,
  503 or 504 and return on 4xx.
- 409 retried by a function that sends an idempotency key.
- A retry after the path does more than wait, log, close or read the body,
  or build an error: a call of the package's own code or of another module
  that does not just compute a number, string or duration
  (` + "`" + `a.refreshToken()` + "`" + `), a write to a header, or a new value for something
  the request is made from (` + "`" + `url = nextEndpoint()` + "`" + `). The next attempt may
  differ: refreshing credentials on 401 and failing over on 404 are not
  repeats. The package's own status checks that do nothing else (the
  summarised helpers above), the model's waits, functions that only
  build a value from their arguments (` + "`" + `return &response{resp: resp}` + "`" + ` for a log line), and
  functions of the package that only read, drain, close or decode (their calls such functions or of the
  standard library's readers, their assignments to their own variables: minio-go's ` + "`" + `closeResponse` + "`" + `, a
  ` + "`" + `decodeBody(resp.Body, &v)` + "`" + `) do not count.
- Retries whose decision a helper of another package makes
  (` + "`" + `return retryablehttp.DefaultRetryPolicy(ctx, resp, err)` + "`" + `), or that depends
  on the body or another variable assigned in the loop.
- Loops over items (among the loops the retry model does not find retries, one that takes values from a
  channel each pass: minio-go's ` + "`" + `for object := range objectsCh` + "`" + ` batches), pollers that never leave on success.
- Paths that leave through a nested loop or ` + "`" + `goto` + "`" + ` (the loop is then not
  checked at all), but for a ` + "`" + `range` + "`" + ` over endpoints that gets the response
  (` + "`" + `for _, url := range urls { res, err := c.Do(req(url)) ... }` + "`" + `): its paths go on to the
  next endpoint and, after the last, to the next attempt. A ` + "`" + `switch` + "`" + ` clause that ends in ` + "`" + `fallthrough` + "`" + `
  goes on into the next clause.
- Operations that are called by the retry's operation rather than being it,
  retry-go calls with a ` + "`" + `RetryIf` + "`" + ` anywhere in the function or with spread
  options, and ` + "`" + `runtime/retry.Do` + "`" + ` with a ` + "`" + `Policy.Retryable` + "`" + ` or a policy
  that is not a literal.
- Code in resty's own packages, and generated files.

A loop that waits for a resource to appear (retrying 404 until another
request has created it) is a poll, not a retry; it is reported, since the
check cannot tell the two apart: say so with
` + "`" + `//idemlint:ignore retrystatus <reason>` + "`" + `.`},
		{Title: "gRPC", Text: `
Permanent gRPC codes (` + "`InvalidArgument`" + `, ` + "`NotFound`" + `, ` + "`AlreadyExists`" + `, ` + "`PermissionDenied`" + `,
` + "`FailedPrecondition`" + `, ` + "`OutOfRange`" + `, ` + "`Unimplemented`" + `, ` + "`Unauthenticated`" + `) come back the same on every
attempt. The check reports them where they are retried: in the codes given to go-grpc-middleware's retry interceptor
(` + "`retry.WithCodes`" + `), in a constant service config's ` + "`retryableStatusCodes`" + `, in a hand retry loop whose
tests of ` + "`status.Code(err)`" + ` (or ` + "`status.Convert(err).Code()`" + `, a ` + "`codes.Code`" + ` variable, a
` + "`switch`" + ` on one) repeat the attempt on them (` + "`status.Code(err) != codes.OK`" + ` is every code), and in
` + "`retry.WithRetriable`" + ` and retry-go ` + "`RetryIf`" + ` predicates. A loop that retries every error without testing
a code is left to the model's "any error". ` + "`codes.ResourceExhausted`" + ` retried by a loop that never waits is
reported too: a quota needs time.

` + "```go" + `
if status.Code(err) == codes.Unavailable || status.Code(err) == codes.PermissionDenied { // reported
	time.Sleep(backoff(i))
	continue
}
return err
` + "```" + ``},
	},
}
