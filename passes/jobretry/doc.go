// Package jobretry defines an Analyzer that reports job handlers that
// perform a non-idempotent side effect with no key.
//
// # Analyzer jobretry
//
// jobretry: report job handlers whose side effect repeats when the job queue retries them
//
// The reference rule: every non-idempotent operation exposed to retries needs
// an idempotency key or natural idempotence. A job queue retries a failed job
// by itself: asynq 25 times, river up to 25 attempts, Temporal activities
// without limit under the default retry policy. An effect the failed attempt
// already applied is applied again.
//
// The retry model finds the job handlers of a package as retry scopes (asynq handler functions,
// ProcessTask methods and functions registered with ServeMux.HandleFunc or
// Handle; river Work methods and river.WorkFunc; Temporal activities
// registered with RegisterActivity) and follows them through calls into
// functions of the same package. It reports, at the effect: a POST or PATCH
// with no idempotency-key header; a key header or key field set to a fresh
// value (a new key per run keys nothing); a stripe-go payment call whose
// params carry no key (stripe-go then makes a fresh one per call); and an SQL
// INSERT through database/sql or pgx with no ON CONFLICT whose table has no
// natural key visible in the package.
//
// Not reported: handlers of tasks enqueued in the package with retries
// disabled (asynq.MaxRetry(0), river MaxAttempts 1, Temporal MaximumAttempts
// 1), effects keyed by the job's own id (asynq task id, river job id,
// Temporal activity id), and idempotent writes.
//
// The fix is to key the effect with the job id through
// github.com/idemlint/idemlint/runtime/idempotency.Derive.
package jobretry
