// Package retrystatus defines an Analyzer that reports retries that repeat
// on HTTP statuses that are not transient.
//
// # Analyzer retrystatus
//
// retrystatus: report retries that repeat on permanent HTTP statuses, or on 429 without reading Retry-After
//
// The reference rule: retry only errors that are transient. Do not retry
// 400, 401, 403, 404, 409 (unless documented) and 422; retry 429 honouring
// Retry-After, and 502, 503 and 504. A retry of 404 or 400 repeats an
// answer that will not change, and a 429 retried without reading
// Retry-After hammers a server that said how long to wait.
//
// In a hand-written retry loop, the check follows every path of the body
// from the statement that gets the response (resp, err := client.Do(req))
// to the places that start another attempt (continue, or the end of the
// body) or leave the loop (return, break), and works out, status by status,
// which statuses lead to another attempt. It reads comparisons of
// resp.StatusCode (or resty's StatusCode(), IsSuccess() and IsError(), or
// an integer variable assigned the status) with constants, switch
// statements on the status, the error returned with the response, and an
// error set per status (fmt.Errorf, a sentinel, runtime/retry.ResponseError).
// A condition on something else that the attempt produced (a helper that
// classifies the response, the body) is not followed: a status whose fate
// depends on it is never reported. A condition that does not depend on the
// attempt (an attempt counter, a clock) may go either way. A path that,
// after the response, does more than wait, log, close or read the body or
// build an error (it refreshes a token, writes a header, picks another
// endpoint) may send something else next time: its retry is not reported.
//
// It reports, at the condition that sends them to another attempt, a loop
// that retries a permanent 4xx status: every non-2xx (if resp.StatusCode
// != 200 { continue }), or explicitly 400, 401, 403, 404, 409, 422 and
// the other 4xx but 408 and 429. A 409 is accepted when the function sends
// an idempotency key: it is then the in-progress answer to an earlier
// attempt. It also reports a loop that retries 429 when the function
// does not read Retry-After (the header name, runtime/retry.ParseRetryAfter,
// a StatusError's RetryAfter, or a helper that is given the response and
// reads it or that the check cannot see into).
//
// For retry libraries it reads the retry predicates the same way, and
// reports the statuses for which they surely say "retry": resty's
// AddRetryCondition (v2) and AddRetryConditions (v3), and v2's
// AddRetryAfterErrorCondition, which retries every status of 400 and
// above; retry-go's RetryIf predicates that find a status in the error
// (errors.As, a type assertion); failsafe-go's HandleIf; and
// go-retryablehttp CheckRetry policies. Whether a library waits for
// Retry-After is the library's business: 429 is not reported there.
//
// Generated files are skipped. The fix is to retry only transient
// statuses, as github.com/idemlint/idemlint/runtime/retry.Classify sorts
// them (408, 429, 502, 503, 504 transient; other 4xx permanent), which
// runtime/retry.Do applies by default through DefaultRetryable.
package retrystatus
