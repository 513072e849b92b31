package keys

import (
	"go/types"
	"strings"
)

// Fresh reports whether fn returns a fresh value on every call: a key or
// id generator (uuid, ksuid, xid, ulid, idempotency.NewKey,
// retry.NewIdempotencyKey, stripe.NewIdempotencyKey), the clock, or a
// random number. A key made by one inside a retried scope is new on every
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
	case "github.com/idemlint/idemlint/runtime/idempotency":
		return name == "NewKey"
	case "github.com/idemlint/idemlint/runtime/retry":
		return name == "NewIdempotencyKey"
	default:
		if strings.HasPrefix(path, "github.com/stripe/stripe-go/") && name == "NewIdempotencyKey" {
			return true
		}
	}
	return false
}
