package idempotency

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"
)

// Errors returned by stores. Stores wrap them with %w, so test with errors.Is.
var (
	// ErrLeaseLost means the attempt no longer owns the key: its lease
	// expired and another attempt took the key over (its fence token is
	// newer), or the key was released or expired. The attempt's work must
	// not be committed.
	ErrLeaseLost = errors.New("idempotency: lease lost to a newer owner")
	// ErrNotFound means Lookup found no live record for the key.
	ErrNotFound = errors.New("idempotency: key not found")
	// ErrStoreFull means a bounded store has no room for a new key: every
	// entry is live (in progress, or completed within its TTL). The store
	// refuses the claim rather than forget a live key; Middleware answers
	// 503 with Retry-After and ProblemStoreFull.
	ErrStoreFull = errors.New("idempotency: store full")
	// ErrStoreUnavailable is wrapped by store errors that are transient:
	// the store could not be reached or is short of resources. Retrying
	// later may succeed; Middleware answers 503 with Retry-After. Stores
	// may also return unclassified errors, which Middleware treats the
	// same way (fail closed).
	ErrStoreUnavailable = errors.New("idempotency: store unavailable")
	// ErrStoreRejected is wrapped by store errors caused by the request's
	// own data (a value the store cannot hold): retrying the same request
	// cannot succeed. Middleware answers without Retry-After: 400 with
	// ProblemStoreRejected when the claim is rejected, 500 with
	// ProblemResponseUnstorable when the completion is.
	ErrStoreRejected = errors.New("idempotency: store rejected the request")
)

// RetryAfter returns the delay a store error asks for before a retry, when
// it carries one (an error in its chain has a method RetryAfter()
// time.Duration returning a positive value), and false otherwise.
func RetryAfter(err error) (time.Duration, bool) {
	var ra interface{ RetryAfter() time.Duration }
	if errors.As(err, &ra) {
		if d := ra.RetryAfter(); d > 0 {
			return d, true
		}
	}
	return 0, false
}

// Outcome is the result of a claim.
type Outcome int

const (
	// Acquired means the caller now owns the key and must run the request,
	// then complete or release the key.
	Acquired Outcome = iota + 1
	// TakenOver means the caller owns a key whose previous owner's lease
	// expired before it completed (a crash or a timeout). The previous
	// owner's recorded steps are in ClaimResult.Steps.
	TakenOver
	// Completed means the key holds the final response of the same request;
	// it is in ClaimResult.Response and must be replayed.
	Completed
	// InProgress means another attempt owns the key and its lease is valid.
	InProgress
	// Mismatch means the key was used for a different request (another
	// fingerprint).
	Mismatch
)

// String returns the outcome's name.
func (o Outcome) String() string {
	switch o {
	case Acquired:
		return "acquired"
	case TakenOver:
		return "taken-over"
	case Completed:
		return "completed"
	case InProgress:
		return "in-progress"
	case Mismatch:
		return "mismatch"
	}
	return "unknown"
}

// ClaimRequest asks a store for ownership of one key.
type ClaimRequest struct {
	// Tenant is the key's scope: keys of different tenants never meet.
	Tenant string
	// Key is the client's idempotency key (1 to 255 printable ASCII bytes).
	Key string
	// Fingerprint identifies the request (see Fingerprint). The store may
	// keep the slice: do not modify it after the call.
	Fingerprint []byte
	// LeaseTTL is how long the claim stays exclusive without completion;
	// after it another attempt may take the key over.
	LeaseTTL time.Duration
	// TTL is how long the key lives from its creation; after it the key is
	// treated as absent and a new request may reuse it.
	TTL time.Duration
}

// Lease identifies one attempt's ownership of a key. Fence is a token that
// grows with every claim or takeover, so a stale owner's writes are
// rejected.
type Lease struct {
	// Tenant and Key name the key.
	Tenant, Key string
	// Fence is the attempt's fence token: stores accept its completion,
	// steps and release only while it is the key's current fence.
	Fence int64
}

// ClaimResult is what Claim found or did.
type ClaimResult struct {
	// Outcome says what happened.
	Outcome Outcome
	// Lease is valid when Outcome is Acquired or TakenOver.
	Lease Lease
	// Response is set when Outcome is Completed.
	Response *Response
	// RetryAfter is the remaining lease when Outcome is InProgress.
	RetryAfter time.Duration
	// Steps holds the recovery points recorded by earlier attempts of the
	// same request (set when Outcome is TakenOver).
	Steps map[string]json.RawMessage
}

// Response is a stored final response.
type Response struct {
	// Status is the HTTP status code.
	Status int
	// Header holds the allow-listed headers (see WithReplayHeaders).
	Header http.Header
	// Body is the whole response body.
	Body []byte
}

// Record is a key's stored state, as returned by Lookup.
type Record struct {
	// Tenant and Key name the key.
	Tenant, Key string
	// Fingerprint is the fingerprint of the request that claimed the key.
	Fingerprint []byte
	// Completed is true once the final response is stored.
	Completed bool
	// Fence is the current fence token.
	Fence int64
	// Response is the final response; nil until completed.
	Response *Response
	// Steps holds the recorded recovery points and their results.
	Steps map[string]json.RawMessage
	// ExpiresAt is when the key expires (the store's clock).
	ExpiresAt time.Time
}

// Work is one attempt's unit of work, begun by Store.Begin after a
// successful claim. Exactly one of Complete or Abort must be called.
type Work interface {
	// Context returns ctx carrying what the handler needs to join the unit
	// of work (for runtime/pgstore, the *sql.Tx returned by Tx).
	Context(ctx context.Context) context.Context
	// Complete stores resp as the key's final response, only if the lease's
	// fence is still current, atomically with the handler's writes. It
	// returns an error wrapping ErrLeaseLost when a newer owner holds the
	// key; the handler's writes are then discarded.
	Complete(ctx context.Context, resp *Response) error
	// Abort discards the handler's writes. It does not release the key.
	Abort(ctx context.Context) error
}

// Store keeps idempotency keys: it claims a key with a lease and a fence
// token, completes it with the final response, releases it for a clean
// retry, and looks it up. Implementations must be safe for concurrent use.
type Store interface {
	// Claim inserts the key as in progress, or reports what holds it.
	// An expired key is treated as absent; an in-progress key whose lease
	// expired is taken over with a new fence when the fingerprint matches.
	Claim(ctx context.Context, req ClaimRequest) (ClaimResult, error)
	// Begin starts the unit of work of the attempt holding l.
	Begin(ctx context.Context, l Lease) (Work, error)
	// Release gives up l's claim so that a retry starts clean. When steps
	// were recorded the key is kept with its steps and its lease ended, so
	// the retry resumes them. Releasing a lease lost to a newer owner is a
	// no-op.
	Release(ctx context.Context, l Lease) error
	// SaveStep records a completed step (a recovery point) with its result,
	// durably and outside the unit of work, if l is still current.
	SaveStep(ctx context.Context, l Lease, step string, result json.RawMessage) error
	// Lookup returns the live (unexpired) record of a key, or an error
	// wrapping ErrNotFound.
	Lookup(ctx context.Context, tenant, key string) (*Record, error)
}

// ClaimBeginner is implemented by stores that claim a key and begin the
// attempt's unit of work together, more cheaply than Claim then Begin
// (runtime/pgstore: in one round trip). Middleware uses it when the store
// has it.
type ClaimBeginner interface {
	// ClaimBegin is Claim followed, when the outcome is Acquired or
	// TakenOver, by Begin of the claim's lease: work is then not nil. On
	// error the caller holds nothing (a claim whose unit of work could not
	// begin is released).
	ClaimBegin(ctx context.Context, req ClaimRequest) (ClaimResult, Work, error)
}
