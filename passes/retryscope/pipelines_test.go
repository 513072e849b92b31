package retryscope_test

import (
	"go/token"
	"go/types"
	"testing"

	"github.com/idemlint/idemlint/passes/retryscope"
)

func TestPipelines(t *testing.T) {
	exported := types.NewPackage("github.com/Azure/azure-sdk-for-go/sdk/azcore/internal/exported", "exported")
	other := types.NewPackage("example.com/pipeline", "pipeline")
	nethttp := types.NewPackage("net/http", "http")
	named := func(pkg *types.Package, name string) *types.Named {
		return types.NewNamed(types.NewTypeName(token.NoPos, pkg, name, nil), types.NewStruct(nil, nil), nil)
	}
	req, otherReq := types.NewPointer(named(exported, "Request")), types.NewPointer(named(other, "Request"))
	resp := types.NewPointer(named(nethttp, "Response"))
	errType := types.Universe.Lookup("error").Type()
	v := func(t types.Type) *types.Var { return types.NewVar(token.NoPos, nil, "", t) }
	method := func(recv types.Type, name string, params, results []*types.Var) *types.Func {
		return types.NewFunc(token.NoPos, exported, name, types.NewSignatureType(v(recv), nil, nil, types.NewTuple(params...), types.NewTuple(results...), false))
	}
	policy := types.NewPointer(named(other, "retryPolicy"))
	doSig := func(p types.Type) *types.Func {
		return method(policy, "Do", []*types.Var{v(p)}, []*types.Var{v(resp), v(errType)})
	}
	for _, tc := range []struct {
		name string
		got  bool
		want bool
	}{
		{"Next sends", retryscope.PipelineSend(method(req, "Next", nil, []*types.Var{v(resp), v(errType)})), true},
		{"Next of another Request", retryscope.PipelineSend(method(otherReq, "Next", nil, nil)), false},
		{"Clone copies", retryscope.PipelineCopy(method(req, "Clone", nil, []*types.Var{v(req)})), true},
		{"Raw is the request", retryscope.PipelineRaw(method(req, "Raw", nil, nil)), true},
		{"Body is not", retryscope.PipelineRaw(method(req, "Body", nil, nil)), false},
		{"a policy's Do", retryscope.PipelinePolicy(doSig(req)), true},
		{"a Do of another request", retryscope.PipelinePolicy(doSig(otherReq)), false},
		{"request type", retryscope.PipelineRequest(req), true},
		{"nil", retryscope.PipelineSend(nil) || retryscope.PipelinePolicy(nil), false},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}
