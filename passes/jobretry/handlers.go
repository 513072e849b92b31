package jobretry

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/passes/internal/keys"
	"github.com/idemlint/idemlint/passes/retryscope"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// framework is a job queue that retries its handlers by itself.
type framework = retryscope.Framework

// frameworkText is what a message says of a framework: how often it
// retries by default (asynq 25 times, river up to 25 attempts, Temporal's
// default policy without limit), and the job's stable id the fix keys
// with, as the code gets it (Temporal's is activity.GetInfo(ctx)'s
// WorkflowExecution.ID and ActivityID). Other frameworks take the zero
// entry's words.
var frameworkText = map[framework]struct{ retries, id string }{
	retryscope.Asynq: {"25 retries", "asynq.GetTaskID(ctx)"},
	retryscope.River: {"25 attempts", "job.ID"},
}

// retries says how often the framework retries by default.
func retries(f framework) string {
	if t, ok := frameworkText[f]; ok {
		return t.retries
	}
	return "unlimited retries"
}

// id names the job's stable id the fix keys with.
func id(f framework) string {
	if t, ok := frameworkText[f]; ok {
		return t.id
	}
	return "the activity id"
}

// handler is one job handler: the body a framework runs and retries, from
// the retry model's JobHandler scope.
type handler struct {
	fw     framework
	kind   string              // the scope's Entry: "asynq handler", ...
	name   string              // the handler's name
	body   *ast.BlockStmt      // the handler's body
	params map[*types.Var]bool // parameters that carry the job's id (river's job)
	inbox  bool                // inside an idempotency.Inbox's Consume handler
}

func handlerOf(s *retryscope.Scope) *handler {
	h := &handler{fw: s.Job.Framework, kind: s.Entry, name: s.Job.Name, body: s.Body, params: make(map[*types.Var]bool)}
	for _, v := range s.Job.JobParams {
		h.params[v] = true
	}
	return h
}

type checker struct {
	pass     *analysis.Pass
	res      *retryscope.Result
	info     *types.Info
	names    *keys.Names
	files    []*ast.File // not generated
	decls    map[*types.Func]*ast.FuncDecl
	funcs    []*types.Func // the package's functions and methods, in declaration order
	reported map[reportKey]bool

	store        *storage      // see storage.go
	ifaceMethods []*types.Func // the interface methods with effects, in the order found
}

type reportKey struct {
	pos  int
	what string
}

func (c *checker) callee(call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(c.info, call).(*types.Func)
	return fn
}

func isContext(t types.Type) bool { return astq.IsNamed(t, "context", "Context") }
