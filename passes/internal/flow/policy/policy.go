// Package policy holds the precision filters of the retry model as small
// named policies over the flow engine's answer: a loop (or call-graph
// cycle) and its attempts (flow.Loop.Attempts). The engine says which
// calls' results decide whether a pass goes on to the next one; a policy
// says when such a decision is not a retry: a loop that repeats on
// success, a predicate loop that does not wait, a failure skipped for the
// next item, a ticker's period, a restarted system call, a consumer the
// model treats as a job, a loop nested in another retry of the same call.
//
// What the policies know of libraries (which calls wait, which loops are
// job scopes) they are given (Knowledge): the model keeps that knowledge
// in its tables, once.
package policy

import (
	"go/ast"
	"go/types"

	"github.com/idemlint/idemlint/passes/internal/flow"
)

// Knowledge is what the policies are told of libraries and of the model.
type Knowledge struct {
	// Waits reports whether a call of fn waits: time.Sleep, time.After, a
	// library's sleep, or a function of the analysed code whose wait
	// summary says it waits (the model's, retryscope.Result.Waits: a
	// helper that waits through others to any depth, here or in another
	// package).
	Waits func(fn *types.Func) bool
	// Response reports whether t is a response type: a reply whose
	// content can say the request failed (*http.Response); nil for none.
	Response func(t types.Type) bool
	// JobScope reports whether the model treats the loop statement n as
	// a job scope (a consumer's delivery loop); nil for none.
	JobScope func(n ast.Node) bool
}

// A Policy turns down an attempt of a loop that is no retry.
type Policy struct {
	Name string
	// Reject reports whether attempt a of loop l is no retry.
	Reject func(c *Context, l *flow.Loop, a *flow.Attempt) bool
}

// Context is one package's engine answer and the knowledge the policies
// read, with the summaries they compute on first use.
type Context struct {
	Pkg  *flow.Package
	Know Knowledge

	verdicts map[*flow.Loop]*Verdict
}

// NewContext returns the policies' context for p.
func NewContext(p *flow.Package, k Knowledge) *Context { return &Context{Pkg: p, Know: k} }

// All returns the model's precision filters, in the order they are
// tried; the first that rejects an attempt names why.
func All() []Policy {
	return []Policy{
		{"repeats-on-success", RepeatsOnSuccess},
		{"context-query", ContextQuery},
		{"poller", Poller},
		{"takes-next-item", TakesNextItem},
		{"job-scope", JobScope},
		{"ticker", Ticker},
		{"eintr", EINTR},
		{"next-item", NextItem},
		{"reads-input", ReadsInput},
		{"poll-for-state", PollForState},
		{"predicate-must-wait", PredicateMustWait},
		{"predicate-in-scope", PredicateInScope},
		{"status-in-place", StatusInPlace},
		{"waits-or-counts", WaitsOrCounts},
		{"failure-leaves-pass", FailureLeavesPass},
		{"failure-rejoins", FailureRejoins},
		{"nested", Nested},
	}
}

// A Verdict is what the policies make of one loop.
type Verdict struct {
	Loop *flow.Loop
	// All are the loop's attempts, in block order.
	All []*flow.Attempt
	// Kept are the attempts no policy rejects: the loop is a retry scope
	// when there is one.
	Kept []*flow.Attempt
	// Rejected names, for each attempt turned down, the policy that did.
	Rejected map[*flow.Attempt]string
}

// Judge applies the policies to each attempt of l, once per loop.
func (c *Context) Judge(l *flow.Loop) *Verdict {
	if v, ok := c.verdicts[l]; ok {
		return v
	}
	if c.verdicts == nil {
		c.verdicts = make(map[*flow.Loop]*Verdict)
	}
	v := &Verdict{Loop: l, Rejected: make(map[*flow.Attempt]string)}
	c.verdicts[l] = v
	v.All = l.Attempts()
	for _, a := range v.All {
		if why := c.reject(l, a); why != "" {
			v.Rejected[a] = why
		} else {
			v.Kept = append(v.Kept, a)
		}
	}
	return v
}

func (c *Context) reject(l *flow.Loop, a *flow.Attempt) string {
	for _, p := range All() {
		if p.Reject(c, l, a) {
			return p.Name
		}
	}
	return ""
}
