// Package unkeyedpost defines an Analyzer that reports non-idempotent HTTP
// requests retried without an idempotency key.
//
// # Analyzer unkeyedpost
//
// unkeyedpost: report POST and PATCH requests retried without an idempotency key
//
// The reference rules: every non-idempotent operation exposed to retries
// needs an idempotency key or natural idempotence; retrying on 500 for a
// POST without a key creates duplicates. A request that timed out may have
// been applied; sending it again without a key applies it twice.
//
// The check reports a POST or PATCH sent inside a retry scope of idemlint's
// retry model (a hand-written retry loop's body, the operation passed to a
// retry library) when no idempotency-key header is set on the request:
// http.Post, http.PostForm, (*http.Client).Post and PostForm, and
// (*http.Client).Do with a request built by http.NewRequest or
// NewRequestWithContext with a constant method. It also reports a POST or
// PATCH sent through a go-retryablehttp client built in the function
// (retryablehttp.NewClient(), &retryablehttp.Client{RetryMax: n}, or the
// default client of retryablehttp.Post), which retries by itself on
// connection errors and 5xx, whatever the method. A request built in the
// retry and sent by a helper of the package is reported where it is built,
// and a call in the retry of a helper that builds and sends an unkeyed POST
// itself is reported at the call.
//
// Requests that set a key header (Idempotency-Key, X-Idempotency-Key, or a
// name given with -key-headers; by Header.Set, Add, a map assignment or a
// header literal, in the function or in a helper it passes the request to)
// are fine, and so are requests handed to a function the check cannot see
// into, and GET, HEAD, OPTIONS, PUT and DELETE. A POST is also fine when
// its retry never repeats after the send: a loop that leaves after the send
// whatever happens, an operation whose returns after the send are nil or
// permanent errors (retry.Unrecoverable, backoff.Permanent), a
// sethvargo/go-retry operation that never wraps an error in
// RetryableError, a k8s condition that returns true or an error after the
// send, and client-go's RetryOnConflict, which retries only on a 409
// Conflict.
//
// The suggested fix, when the request is built inside the retry, mints a
// key above the retry with runtime/idempotency.NewKey and sets it on the
// request after it is built (and after its error check); when the request
// is built once, before the retry, or sent through a retrying client, it
// sets a key minted there. runtime/retry.NewTransport is the other remedy:
// it keys every non-idempotent request once and reuses the key for its own
// retries.
package unkeyedpost
