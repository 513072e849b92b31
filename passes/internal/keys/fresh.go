package keys

import (
	"go/types"
	"strings"

	"github.com/idemlint/idemlint/passes/internal/names"
)

// Fresh reports whether fn returns a fresh value on every call: a key or
// id generator (uuid, ksuid, xid, ulid, idempotency.NewKey,
// retry.NewIdempotencyKey, stripe.NewIdempotencyKey, matrix-org/util's
// RandomString), the clock, or a random number. A key made by one inside a retried scope is new on every
// attempt.
func Fresh(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return false
	}
	name := fn.Name()
	recv := fn.Signature().Recv() != nil
	switch path := fn.Pkg().Path(); path {
	case "github.com/google/uuid":
		switch name {
		case "New", "NewString", "NewRandom", "NewRandomFromReader", "NewV7", "NewV7FromReader", "NewV6", "NewUUID":
			return !recv
		}
	case "github.com/gofrs/uuid", "github.com/gofrs/uuid/v5":
		switch name {
		case "NewV1", "NewV4", "NewV6", "NewV7":
			return true
		}
	case "github.com/segmentio/ksuid":
		switch name {
		case "New", "NewRandom", "NewRandomWithTime":
			return !recv
		}
	case "github.com/rs/xid":
		switch name {
		case "New", "NewWithTime":
			return !recv
		}
	case "github.com/oklog/ulid/v2", "github.com/oklog/ulid":
		switch name {
		case "Make", "New", "MustNew", "MustNewDefault":
			return !recv
		}
	case "crypto/rand":
		switch name {
		case "Text", "Int", "Prime":
			return true
		}
	case "math/rand", "math/rand/v2":
		switch {
		case strings.HasPrefix(name, "Int"), strings.HasPrefix(name, "Uint"), strings.HasPrefix(name, "Float"),
			name == "N", name == "ExpFloat64", name == "NormFloat64":
			return true
		}
	case "time":
		return name == "Now"
	case RuntimePath:
		return name == "NewKey"
	case "github.com/idemlint/idemlint/runtime/retry":
		return name == "NewIdempotencyKey"
	case "github.com/matrix-org/util":
		return name == "RandomString" // math/rand letters: Matrix's transaction and message ids
	default:
		if KeyedAPI(fn) && name == "NewIdempotencyKey" {
			return true
		}
	}
	return false
}

// RuntimePath is the import path of idemlint's runtime package of
// idempotency keys, whose NewKey the fixes call.
const RuntimePath = "github.com/idemlint/idemlint/runtime/idempotency"

// Incoming reports whether fn reads the key of the request being served:
// the runtime Middleware's lease (idempotency.LeaseOf) or a step's key
// (idempotency.StepKey).
func Incoming(fn *types.Func) bool {
	return names.IsFull(fn, RuntimePath+".LeaseOf", RuntimePath+".StepKey")
}

// KeyedAPI reports whether fn is of a payment API whose calls take an
// idempotency key in their params (stripe-go, any major version).
func KeyedAPI(fn *types.Func) bool {
	return fn.Pkg() != nil && strings.HasPrefix(fn.Pkg().Path(), "github.com/stripe/stripe-go/")
}

// KeySetter reports whether fn's one argument is the idempotency key of a
// call: stripe-go's SetIdempotencyKey on a KeyedAPI call's params, and
// asynq's TaskID option, the id asynq dedupes enqueues on (an enqueue of a
// task id that exists fails with ErrTaskIDConflict).
func KeySetter(fn *types.Func) bool {
	return KeyedAPI(fn) && fn.Name() == "SetIdempotencyKey" || names.IsFull(fn, "github.com/hibiken/asynq.TaskID")
}

// PassThrough reports whether fn returns its key argument as it is
// (uuid.Must): a key it wraps is as fresh as the argument.
func PassThrough(fn *types.Func) bool {
	return names.IsFull(fn, "github.com/google/uuid.Must", "github.com/gofrs/uuid.Must", "github.com/gofrs/uuid/v5.Must")
}
