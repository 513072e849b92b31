// Package retrytimeout defines an Analyzer that reports HTTP calls with no
// timeout inside a retry.
//
// # Analyzer retrytimeout
//
// retrytimeout: report HTTP calls inside a retry that have no timeout
//
// The reference rule: every remote call has a timeout. A retry around a
// call with no timeout never gets to retry: when the server or the network
// stops answering, the first attempt hangs for as long as the connection
// lives, and the attempt cap, the backoff and the deadline of the retry
// never come into play.
//
// Inside the repeated code of a retry (a retry loop's body, or the
// operation passed to a retry library), the check reports, at the call:
//
//   - net/http.Get, Head, Post and PostForm: they send through
//     http.DefaultClient, whose Timeout is zero, with no context;
//   - (*net/http.Client).Do, Get, Head, Post and PostForm on
//     http.DefaultClient, on a &http.Client{} or http.Client{} literal
//     without Timeout, or on new(http.Client), traced through local
//     variables, when the request's context has no deadline either: a
//     request made by http.NewRequest, or by http.NewRequestWithContext,
//     WithContext or Clone with context.Background(), context.TODO() or a
//     context derived from them without WithTimeout or WithDeadline.
//
// A go-retryablehttp client is a retry of its own, and its default
// HTTPClient (cleanhttp.DefaultPooledClient) has no Timeout: the check also
// reports retryablehttp.Get, Head, Post and PostForm, and the Do, Get, Head,
// Post and PostForm methods of a local retryablehttp.NewClient() whose
// HTTPClient is not replaced and whose RetryMax is not set to zero or to a
// value the check cannot see, when the request's context has no deadline
// (retryablehttp.NewRequest, or NewRequestWithContext as above).
//
// It stays quiet when it cannot prove the absence of a timeout: a client
// that comes from a field, a parameter or another function; a client whose
// Timeout or Transport is set anywhere (a Transport may bound each attempt,
// as runtime/retry.NewTransport does with Policy.AttemptTimeout); a request
// whose context comes from the caller (a parameter, a library's per-attempt
// context), or that has a deadline (context.WithTimeout or WithDeadline, per
// attempt or above the retry); and http.DefaultClient when the package sets
// its Timeout or Transport. Generated files are skipped.
//
// The fix is a timeout per attempt: an http.Client with a Timeout, a
// request made with http.NewRequestWithContext and a context.WithTimeout
// made for each attempt, or github.com/idemlint/idemlint/runtime/retry's
// NewTransport (or Do) with Policy.AttemptTimeout.
package retrytimeout
