package retryscope

import (
	"go/types"
	"slices"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// Request pipelines: an SDK's pipeline hands every request of its clients,
// of any method, to each policy's Do, which sends it on through the rest
// of the pipeline (azcore's policy.Request, whose Next sends it, Clone
// copies it and Raw is its *http.Request). A policy that calls Next again
// re-sends the request, whatever its method.

// pipeline is one SDK's request pipeline: the package and name of its
// request type and the names of the request's methods.
type pipeline struct {
	path, request string
	send, copy    string // (*Request).Next, (*Request).Clone
	raw           string // (*Request).Raw: its *http.Request
	// statusIn are the SDK's functions reporting whether a response's
	// status is one of the codes given after it: F(resp, codes...)
	statusIn []string
}

var pipelines = []pipeline{
	{path: "github.com/Azure/azure-sdk-for-go/sdk/azcore/internal/exported", request: "Request", send: "Next", copy: "Clone", raw: "Raw",
		statusIn: []string{"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime.HasStatusCode", "github.com/Azure/azure-sdk-for-go/sdk/azcore/internal/exported.HasStatusCode"}},
}

// PipelineStatusIn reports whether fn is an SDK's test that a response's
// status is one of the codes given after it (azcore's
// runtime.HasStatusCode(resp, codes...)).
func PipelineStatusIn(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	for _, p := range pipelines {
		if slices.Contains(p.statusIn, fn.FullName()) {
			return true
		}
	}
	return false
}

// pipelineOf returns the pipeline whose request type t is (a pointer to).
func pipelineOf(t types.Type) *pipeline {
	for i, p := range pipelines {
		if astq.IsPointerTo(t, p.path, p.request) {
			return &pipelines[i]
		}
	}
	return nil
}

// pipelineMethod returns the pipeline of fn's receiver when fn is a method
// of a pipeline's request type.
func pipelineMethod(fn *types.Func) *pipeline {
	if fn == nil {
		return nil
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return nil
	}
	return pipelineOf(recv.Type())
}

// PipelineRequest reports whether t is a pipeline's request (*Request).
func PipelineRequest(t types.Type) bool { return pipelineOf(t) != nil }

// PipelineSend reports whether fn sends its receiver, a pipeline's
// request, through the rest of the pipeline ((*Request).Next).
func PipelineSend(fn *types.Func) bool {
	p := pipelineMethod(fn)
	return p != nil && fn.Name() == p.send
}

// PipelineCopy reports whether fn returns a copy of its receiver, a
// pipeline's request, method and headers included ((*Request).Clone).
func PipelineCopy(fn *types.Func) bool {
	p := pipelineMethod(fn)
	return p != nil && fn.Name() == p.copy
}

// PipelineRaw reports whether fn returns the *http.Request of its
// receiver, a pipeline's request ((*Request).Raw): its header is the
// request's.
func PipelineRaw(fn *types.Func) bool {
	p := pipelineMethod(fn)
	return p != nil && fn.Name() == p.raw
}

// PipelinePolicy reports whether fn is a policy's Do: a method Do taking
// one pipeline request and returning (*http.Response, error). The pipeline
// hands it every request of the SDK's clients.
func PipelinePolicy(fn *types.Func) bool {
	if fn == nil || fn.Name() != "Do" || fn.Signature().Recv() == nil {
		return false
	}
	sig := fn.Signature()
	return sig.Params().Len() == 1 && PipelineRequest(sig.Params().At(0).Type()) && sig.Results().Len() == 2 &&
		astq.IsPointerTo(sig.Results().At(0).Type(), "net/http", "Response") && astq.IsError(sig.Results().At(1).Type())
}
