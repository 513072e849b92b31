package keys

import (
	"go/types"
	"strings"

	"github.com/idemlint/idemlint/passes/internal/names"
)

// PathVar reports whether a route variable of that name carries the
// request's idempotency key: Matrix's transaction id ({txnId} of the
// client-server API's PUT /rooms/{roomId}/send/{eventType}/{txnId} and
// /sendToDevice/{eventType}/{txnId}, which the spec defines as the key the
// server dedupes retries on), or a variable named as a key parameter is
// ({idempotencyKey}).
func PathVar(name string) bool {
	return strings.EqualFold(name, "txnId") || Param(name)
}

// PathMap reports whether fn returns the route variables of a request as
// a map: gorilla/mux's Vars.
func PathMap(fn *types.Func) bool {
	return names.IsFull(fn, "github.com/gorilla/mux.Vars")
}

// PathValue reports whether fn returns one route variable of a request,
// named by its argument: (*net/http.Request).PathValue.
func PathValue(fn *types.Func) bool {
	return names.IsFull(fn, "(*net/http.Request).PathValue")
}

// Decoded returns the index of the argument that a decoding call of fn
// fills (json.Unmarshal's target, (*json.Decoder).Decode's), or -1.
func Decoded(fn *types.Func) int {
	switch {
	case names.IsFull(fn, "encoding/json.Unmarshal"):
		return 1
	case names.IsFull(fn, "(*encoding/json.Decoder).Decode"):
		return 0
	}
	return -1
}

// ProtocolKeyOf returns the field of the struct type t that its protocol
// defines as the key of what it sends (ProtocolKeyField), or nil.
func ProtocolKeyOf(t types.Type) *types.Var {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	for i := range st.NumFields() {
		if f := st.Field(i); ProtocolKeyField(f) {
			return f
		}
	}
	return nil
}
