package retryscope

import (
	"go/types"
	"slices"
)

// everyMethodPolicies lists, per client library, its stock retry policies
// that decide on the error and the status alone, the same for every
// request method: retryablehttp's DefaultRetryPolicy and
// ErrorPropagatedRetryPolicy retry connection errors, 429 and 5xx, POST
// as well as GET.
var everyMethodPolicies = map[string][]string{
	retryable: {"DefaultRetryPolicy", "ErrorPropagatedRetryPolicy"},
}

// EveryMethodPolicy reports whether fn is a stock retry policy of a client
// library that retries every request method alike (everyMethodPolicies).
func EveryMethodPolicy(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || fn.Signature().Recv() != nil {
		return false
	}
	return slices.Contains(everyMethodPolicies[fn.Pkg().Path()], fn.Name())
}
