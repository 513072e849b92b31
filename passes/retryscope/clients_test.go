package retryscope_test

import (
	"go/token"
	"go/types"
	"testing"

	"github.com/idemlint/idemlint/passes/retryscope"
)

func TestEveryMethodPolicy(t *testing.T) {
	sig := types.NewSignatureType(nil, nil, nil, nil, nil, false)
	retryable := types.NewPackage("github.com/hashicorp/go-retryablehttp", "retryablehttp")
	other := types.NewPackage("example.com/policies", "policies")
	recv := types.NewVar(token.NoPos, retryable, "c", types.NewPointer(types.NewNamed(types.NewTypeName(token.NoPos, retryable, "Client", nil), types.NewStruct(nil, nil), nil)))
	for _, tc := range []struct {
		fn   *types.Func
		want bool
	}{
		{types.NewFunc(token.NoPos, retryable, "DefaultRetryPolicy", sig), true},
		{types.NewFunc(token.NoPos, retryable, "ErrorPropagatedRetryPolicy", sig), true},
		{types.NewFunc(token.NoPos, retryable, "DefaultBackoff", sig), false},
		{types.NewFunc(token.NoPos, other, "DefaultRetryPolicy", sig), false},
		{types.NewFunc(token.NoPos, retryable, "DefaultRetryPolicy", types.NewSignatureType(recv, nil, nil, nil, nil, false)), false},
		{nil, false},
	} {
		name := "<nil>"
		if tc.fn != nil {
			name = tc.fn.FullName()
		}
		if got := retryscope.EveryMethodPolicy(tc.fn); got != tc.want {
			t.Errorf("EveryMethodPolicy(%s) = %v, want %v", name, got, tc.want)
		}
	}
}
