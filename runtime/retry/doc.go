// Package retry runs an operation again when it fails with a transient error, safely: attempts are bounded,
// waits use full jitter on a context-aware timer, the whole run has a deadline, Retry-After is honoured but
// clamped, an optional shared budget stops retry storms, and nested calls never multiply attempts.
//
// # Policy
//
// A zero [Policy] is ready to use. Its zero fields mean the defaults:
//
//	MaxAttempts  4      attempts in all, the first included
//	BaseDelay    100ms  first backoff cap
//	MaxDelay     5s     cap on any one wait, Retry-After included
//	Deadline     15s    for retrying, from the moment the first attempt fails
//
// There is no "retry forever": a negative value also means the default.
//
// The wait before retry n (n = 0 after the first attempt) is drawn uniformly from
// [0, min(MaxDelay, BaseDelay·2^n)) ("full jitter"). [Do] stops when MaxAttempts attempts have been made,
// when the context is done (a wait is interrupted at once), when the next wait would end past the deadline
// (Policy.Deadline or the context's, whichever is earlier), when an error is not retryable, or when the retry
// budget is spent. The returned [*Error] says which, and wraps the last attempt's error so that [errors.Is]
// and [errors.As] see it.
//
// The deadline bounds when attempts may start, not how long one runs: bound a single attempt with
// Policy.AttemptTimeout or with the context. It starts when the first attempt fails, so that a call that
// succeeds at once reads no clock and allocates nothing (with context.Background or an already marked
// context; any other context costs one 16-byte allocation for the one-layer mark).
//
// # Classification
//
// [Do] stops at once for an error made by [Permanent] and when its own context is done. Every other error is
// passed to Policy.Retryable, or to [DefaultRetryable] when that is nil. [DefaultRetryable] retries everything
// [Classify] does not call [ClassPermanent]: an unknown error is retried, because calling Do says that the
// operation is safe to repeat. To retry only errors known to be transient, set
//
//	Retryable: func(err error) bool { return retry.Classify(err) == retry.ClassTransient }
//
// # Server pushback
//
// An operation may return [Pushback](err, wait) for a server's instruction on when to retry (gRPC's
// grpc-retry-pushback-ms): when err is retried, wait replaces the jittered backoff (clamped to MaxDelay) and
// the backoff restarts after it; a negative wait stops the retries. runtime/grpcretry returns it.
//
// # One layer
//
// Do marks the context it passes to the operation. A Do (or a [NewTransport] round trip) that is given a
// marked context makes a single attempt, so retries happen at the outermost layer only and never multiply
// (three layers of four attempts would otherwise make 64 calls). Set Policy.AllowNested on an inner layer to
// let it retry anyway. [InRetry] reports whether a context is marked.
//
// # Circuit breaker
//
// A [Breaker] (Policy.Breaker, one per destination) opens when the failures among the last Window calls
// reach FailureRatio (once MinCalls calls are in the window); while open, [Do] and the transport fail fast
// with an error matching [ErrCircuitOpen] that says when it probes again; after OpenFor, a few probes
// decide whether it closes or opens again. It counts the same failures as the [Budget]: 4xx statuses,
// permanent errors and the caller's own cancellation are not failures. The zero [BreakerConfig] gives the
// defaults (100 calls, 20 minimum, 50%, 10s, 3 probes).
//
// # HTTP
//
// [NewTransport] wraps an [http.RoundTripper]. It retries idempotent methods, and POST and PATCH under an
// Idempotency-Key header that it adds once per request when the caller did not; it rewinds the body,
// drains discarded responses, and honours Retry-After. Each attempt carries the time left before its
// context's deadline in [DeadlineHeader] (milliseconds); [HonorDeadline] is the server middleware that turns
// it back into the request context's deadline. See docs/runtime-retry.md for the full contract.
package retry
