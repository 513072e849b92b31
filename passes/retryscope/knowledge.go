package retryscope

import (
	"go/ast"
	"go/types"

	"github.com/idemlint/idemlint/passes/internal/flow/policy"
)

// waitFunc is a call of the standard library or of a library that waits
// between attempts: the model's one table of them (waitCall reads it, and
// the flow engine's policies through Knowledge).
type waitFunc struct {
	// dur is the index of the duration argument, arity the call's.
	dur, arity int
	// timer is set on a call that makes or resets a timer, which waits
	// only where its channel is received from.
	timer bool
	// channel is set on a call that returns a channel to receive from
	// (time.After, time.Tick): the call waits where it is received, and
	// a receive in place (<-time.After(d)) is the usual use.
	channel bool
}

var waitFuncs = map[string]waitFunc{
	"time.Sleep":                            {dur: 0, arity: 1},
	"time.After":                            {dur: 0, arity: 1, channel: true},
	"time.Tick":                             {dur: 0, arity: 1, channel: true},
	"time.NewTimer":                         {dur: 0, arity: 1, timer: true},
	"(*time.Timer).Reset":                   {dur: 0, arity: 1, timer: true},
	"github.com/googleapis/gax-go/v2.Sleep": {dur: 1, arity: 2},
}

// Knowledge is what the flow engine's policies (passes/internal/flow/policy)
// are told of the model's tables and of this package's scopes: the calls
// that wait (the table of waitCall: a call that sleeps, or returns a
// timer's channel once, time.After; not a timer made or reset, nor a
// ticker, which the policies read at their receives; and the functions
// whose wait summary waits, Result.Waits), the response type
// (*net/http.Response, as the model's loop walk reads results), and the
// loops the model treats as a consumer's job scope.
func (r *Result) Knowledge() policy.Knowledge {
	var jobs []ast.Node
	for _, s := range r.Scopes() {
		if s.Kind == JobHandler && s.Node != nil && s.Job != nil && s.Job.Framework.Consumer() {
			jobs = append(jobs, s.Node)
		}
	}
	return policy.Knowledge{
		Waits: func(fn *types.Func) bool {
			if w, ok := waitFuncs[fn.FullName()]; ok {
				return !w.timer && (!w.channel || fn.Name() == "After")
			}
			return r.Waits(fn) // the package's and its dependencies' wait summaries
		},
		Response: isResponse,
		JobScope: func(n ast.Node) bool {
			for _, j := range jobs {
				if j.Pos() <= n.Pos() && n.End() <= j.End() {
					return true
				}
			}
			return false
		},
	}
}
