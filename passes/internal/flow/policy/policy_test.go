package policy_test

import (
	"go/ast"
	"go/types"
	"reflect"
	"slices"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/passes/internal/flow"
	"github.com/idemlint/idemlint/passes/internal/flow/policy"
	"github.com/idemlint/idemlint/passes/internal/names"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// built is what the policies read of the testdata package: the flow
// engine's package and the model's answer (its wait summaries).
type built struct {
	pkg   *flow.Package
	model *retryscope.Result
}

var build = &analysis.Analyzer{
	Name:       "policybuild",
	Doc:        "build the flow engine's package and the model for the policy tests",
	Requires:   []*analysis.Analyzer{flow.Analyzer, retryscope.Analyzer},
	ResultType: reflect.TypeFor[*built](),
	Run: func(pass *analysis.Pass) (any, error) {
		return &built{pass.ResultOf[flow.Analyzer].(*flow.Handle).Get(), pass.ResultOf[retryscope.Analyzer].(*retryscope.Result)}, nil
	},
}

var (
	once  sync.Once
	pkg   *flow.Package
	model *retryscope.Result
)

// context returns the policies' context on the testdata package: waits
// are time.Sleep and time.After and the functions the model's wait
// summaries say wait, the response type the package's response, the job
// scope is function delivery.
func context(t *testing.T) *policy.Context {
	t.Helper()
	once.Do(func() {
		results := analysistest.Run(t, analysistest.TestData(), build, "policies")
		if len(results) > 0 {
			if b, _ := results[0].Result.(*built); b != nil {
				pkg, model = b.pkg, b.model
			}
		}
	})
	if pkg == nil || model == nil {
		t.Fatal("no package")
	}
	var delivery ast.Node
	for _, fn := range pkg.Funcs {
		if fn.Name() == "delivery" {
			delivery = fn.Syntax()
		}
	}
	return policy.NewContext(pkg, policy.Knowledge{
		Waits: func(fn *types.Func) bool { return names.IsFull(fn, "time.Sleep", "time.After") || model.Waits(fn) },
		Response: func(t types.Type) bool {
			p, ok := t.(*types.Pointer)
			if !ok {
				return false
			}
			n, ok := p.Elem().(*types.Named)
			return ok && n.Obj().Name() == "response" && n.Obj().Pkg() == pkg.SSA.Pkg
		},
		JobScope: func(n ast.Node) bool {
			return delivery != nil && delivery.Pos() <= n.Pos() && n.End() <= delivery.End()
		},
	})
}

// loopOf returns the call-graph cycle of function name, or else its
// innermost loop with an attempt (its outermost when outer), with the
// attempts.
func loopOf(t *testing.T, c *policy.Context, name string, outer bool) (*flow.Loop, []*flow.Attempt) {
	t.Helper()
	for _, fn := range c.Pkg.Funcs {
		if fn.Name() != name {
			continue
		}
		loops := slices.Clone(c.Pkg.Loops(fn).Loops)
		if !outer {
			slices.Reverse(loops)
		}
		for _, l := range append(c.Pkg.Cycles(fn), loops...) {
			if as := l.Attempts(); len(as) > 0 {
				return l, as
			}
		}
	}
	t.Fatalf("%s: no loop with an attempt", name)
	return nil, nil
}

// check asserts what p says of every attempt of each function's loop (its
// innermost loop with an attempt).
func check(t *testing.T, p func(*policy.Context, *flow.Loop, *flow.Attempt) bool, want map[string]bool) {
	t.Helper()
	checkLoops(t, p, false, want)
}

// checkOuter is check on each function's outermost loop with an attempt.
func checkOuter(t *testing.T, p func(*policy.Context, *flow.Loop, *flow.Attempt) bool, want map[string]bool) {
	t.Helper()
	checkLoops(t, p, true, want)
}

func checkLoops(t *testing.T, p func(*policy.Context, *flow.Loop, *flow.Attempt) bool, outer bool, want map[string]bool) {
	t.Helper()
	c := context(t)
	for name, rejected := range want {
		l, as := loopOf(t, c, name, outer)
		for _, a := range as {
			if got := p(c, l, a); got != rejected {
				t.Errorf("%s: rejected = %t, want %t", name, got, rejected)
			}
		}
	}
}

func TestRepeatsOnSuccess(t *testing.T) {
	check(t, policy.RepeatsOnSuccess, map[string]bool{"onSuccess": true, "retry": false})
}

func TestContextQuery(t *testing.T) {
	check(t, policy.ContextQuery, map[string]bool{"contextQuery": true, "contextOp": false})
}

func TestPoller(t *testing.T) {
	check(t, policy.Poller, map[string]bool{"poller": true, "reconnect": false, "retry": false})
}

func TestJobScope(t *testing.T) {
	check(t, policy.JobScope, map[string]bool{"delivery": true, "retry": false})
}

func TestTicker(t *testing.T) {
	check(t, policy.Ticker, map[string]bool{"ticker": true, "retry": false})
}

func TestEINTR(t *testing.T) {
	check(t, policy.EINTR, map[string]bool{"eintr": true, "sentinel": false})
}

func TestNextItem(t *testing.T) {
	check(t, policy.NextItem, map[string]bool{"nextItem": true, "selectItem": true, "attemptNumber": false, "retry": false,
		"nextFunc": true, "itemInSlice": true, "sameSlice": false, "requestPerItem": true, "requestAgain": false, "serve": true, "resend": false, "watchEvents": true,
	})
}

func TestReadsInput(t *testing.T) {
	check(t, policy.ReadsInput, map[string]bool{"readFrames": true, "acceptLoop": true, "dialLoop": false, "retry": false,
		"readPartitions": false, "readLines": true, "setDeadline": true,
	})
}

func TestTakesNextItem(t *testing.T) {
	check(t, policy.TakesNextItem, map[string]bool{"worker": true, "untilFlag": false, "reconnect": false, "retry": false})
	// an attempt that opens what the pass serves is not a take
	checkOuter(t, policy.TakesNextItem, map[string]bool{"streamLoop": false})
}

func TestPollForState(t *testing.T) {
	check(t, policy.PollForState, map[string]bool{"pollState": true, "predicateWaits": false, "failureReply": false, "retry": false,
		"replyError": false, "replyErrorNil": false, "statePredicate": true,
	})
}

func TestStatusInPlace(t *testing.T) {
	check(t, policy.StatusInPlace, map[string]bool{
		"statusInPlace": true, "statusHelper": true, "statusInCondition": true, "statusThenPredicate": false, "predicateWaits": false, "statusAndFailure": false, "retry": false,
	})
}

func TestPredicateMustWait(t *testing.T) {
	check(t, policy.PredicateMustWait, map[string]bool{"predicateNoWait": true, "predicateWaits": false, "counts": false})
}

func TestPredicateInScope(t *testing.T) {
	check(t, policy.PredicateInScope, map[string]bool{"pollInRetry": true, "pollAlone": false})
}

func TestWaitsOrCounts(t *testing.T) {
	check(t, policy.WaitsOrCounts, map[string]bool{
		"neitherWaitsNorCounts": true, "resetOnly": true, "counts": false, "retry": false, "timerHelper": false,
		"resultWaits": false, "resultHot": true, "countedRecursion": false, "uncountedRecursion": true,
	})
}

func TestFailureLeavesPass(t *testing.T) {
	check(t, policy.FailureLeavesPass, map[string]bool{"rejoin": true, "refresh": false})
}

func TestNested(t *testing.T) {
	check(t, policy.Nested, map[string]bool{"nested": true, "retry": false, "nestedRetry": false})
	// the outer loop's attempt is not nested
	checkOuter(t, policy.Nested, map[string]bool{"nested": false, "nestedRetry": false})
}

// TestJudge checks that Judge keeps the retries and names the first
// policy that rejects each look-alike.
func TestJudge(t *testing.T) {
	c := context(t)
	for name, want := range map[string]string{
		"retry": "", "refresh": "", "counts": "", "predicateWaits": "", "reconnect": "",
		"onSuccess": "repeats-on-success", "poller": "poller", "eintr": "eintr",
		"nextItem": "next-item", "neitherWaitsNorCounts": "waits-or-counts", "pollState": "poll-for-state",
		"predicateNoWait": "predicate-must-wait", "failureReply": "",
		"readFrames": "reads-input", "dialLoop": "", "worker": "takes-next-item", "untilFlag": "",
		"replyError": "", "replyErrorNil": "", "statePredicate": "poll-for-state", "readPartitions": "", "readLines": "reads-input",
		"setDeadline":   "reads-input",
		"statusInPlace": "status-in-place", "statusHelper": "status-in-place", "statusAndFailure": "",
		"nestedRetry": "", "resultWaits": "", "resultHot": "waits-or-counts",
		"pollDone": "poll-for-state", "againWhileAsked": "",
		"autoSync": "failure-rejoins", "countedFailures": "failure-rejoins", "countedStatus": "", "modelSteps": "failure-rejoins", "lockPoll": "poll-for-state", "lockTries": "", "watchBackoff": "", "dispatchLoop": "", "logThenStatus": "", "subscriber": "takes-next-item",
	} {
		l, _ := loopOf(t, c, name, false)
		v := c.Judge(l)
		if len(v.All) == 0 {
			t.Errorf("%s: no attempt", name)
			continue
		}
		for _, a := range v.All {
			if got := v.Rejected[a]; got != want {
				t.Errorf("%s: rejected by %q, want %q", name, got, want)
			}
		}
		if (len(v.Kept) > 0) != (want == "") {
			t.Errorf("%s: kept %d attempts", name, len(v.Kept))
		}
	}
	if len(policy.All()) != 17 {
		t.Errorf("%d policies; each needs a test here", len(policy.All()))
	}
}

// TestPartLoop checks that a loop reading the next part of its input with
// a function given a reader and a buffer keeps no attempt, the read
// rejected by reads-input.
func TestPartLoop(t *testing.T) {
	c := context(t)
	l, _ := loopOf(t, c, "partLoop", false)
	v := c.Judge(l)
	read := false
	for _, a := range v.All {
		if !a.Call.Call.IsInvoke() && a.Call.Call.StaticCallee() == nil {
			read = v.Rejected[a] == "reads-input"
		}
	}
	if len(v.Kept) > 0 || !read {
		t.Errorf("partLoop: kept %d attempts, readFull rejected by reads-input: %t", len(v.Kept), read)
	}
}
