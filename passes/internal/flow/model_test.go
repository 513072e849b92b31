package flow_test

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/internal/flow"
	"github.com/idemlint/idemlint/passes/internal/flow/policy"
	"github.com/idemlint/idemlint/passes/internal/names"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// TestModelLoops is the differential of the retry model and the engine
// over every test package of passes/retryscope. For each package it
// compares the model's loop scopes with the engine's loops and call-graph
// cycles (Loop.Attempts, Package.Cycles) that the policies keep
// (policy.Context.Judge), matched by position, and lists each difference
// with its file:line and the reason: for a model scope the engine misses,
// the engine loop's attempts and the policy that rejected each, or that it
// has none; for an engine loop the model has no scope of, its kept
// attempts. It fails when a loop scope of the model that is a for or
// range statement has no engine loop mapped to that statement, when a
// model scope has no kept engine loop, and when an engine loop the
// policies keep is not among the reviewed differences (reviewedEngineOnly).
// go test -v -run ModelLoops prints the differences and the figures.
func TestModelLoops(t *testing.T) {
	t.Parallel() // each loads its packages from source: the loads overlap
	tree, err := filepath.Abs(filepath.Join("..", "..", "retryscope", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Join(tree, "src"))
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	for _, e := range entries {
		if e.IsDir() {
			pkgs = append(pkgs, e.Name())
		}
	}
	loaded := testgopath.Load(t, testgopath.Dir(t, tree), packages.LoadAllSyntax, pkgs...)
	seenReviewed := make(map[string]bool)
	var scopes, raw, both, modelOnly, engineOnly, rawModelOnly, rawEngineOnly, mapped int
	var lines []string
	rejections := make(map[string]int)
	var mu sync.Mutex // the checker runs the packages' actions in parallel
	testgopath.Probe(t, retryscope.Analyzer, loaded, func(pass *analysis.Pass, res *retryscope.Result) {
		mu.Lock()
		defer mu.Unlock()
		p := flow.ForPass(pass).Get()
		if p == nil {
			t.Errorf("%s: no SSA: %v", pass.Pkg.Path(), flow.ForPass(pass).Err())
			return
		}
		at := func(pos token.Pos) string {
			posn := pass.Fset.Position(pos)
			return fmt.Sprintf("%s/%s:%d", pass.Pkg.Path(), filepath.Base(posn.Filename), posn.Line)
		}
		model := make(map[token.Pos]*retryscope.Scope)
		var jobs []ast.Node
		for _, s := range res.Scopes() {
			if s.Kind == retryscope.JobHandler && s.Node != nil && s.Job != nil && s.Job.Framework.Consumer() {
				jobs = append(jobs, s.Node)
			}
			if s.Kind != retryscope.Loop {
				continue
			}
			model[s.Pos] = s
			if s.NotFor {
				continue
			}
			if loopAt(p, s.Node) == nil {
				t.Errorf("%s: the model's loop scope has no engine loop at its %T", at(s.Pos), s.Node)
			} else {
				mapped++
			}
		}
		pc := policy.NewContext(p, policy.Knowledge{
			Waits:    func(fn *types.Func) bool { return names.IsFull(fn, testWaits...) || res.Waits(fn) },
			Response: isHTTPResponse,
			JobScope: func(n ast.Node) bool {
				for _, j := range jobs {
					if j.Pos() <= n.Pos() && n.End() <= j.End() {
						return true
					}
				}
				return false
			},
		})
		kept := make(map[token.Pos]*policy.Verdict)
		judged := make(map[token.Pos]*policy.Verdict)
		for _, fn := range p.Funcs {
			loops := append(slices.Clone(p.Loops(fn).Loops), p.Cycles(fn)...)
			for _, l := range loops {
				if l.Syntax == nil {
					continue
				}
				v := pc.Judge(l)
				if len(v.Kept)+len(v.Rejected) == 0 {
					continue
				}
				raw++
				pos := l.Syntax.Pos()
				judged[pos] = v
				if model[pos] == nil {
					rawEngineOnly++
				}
				for _, why := range v.Rejected {
					rejections[why]++
				}
				if len(v.Kept) > 0 {
					kept[pos] = v
				}
			}
		}
		for pos, s := range model {
			scopes++
			if judged[pos] == nil {
				rawModelOnly++
			}
			v := kept[pos]
			if v != nil {
				both++
				continue
			}
			modelOnly++
			why := "no engine loop with an attempt"
			if jv := judged[pos]; jv != nil {
				why = "every attempt rejected: " + attempts(jv)
			}
			line := fmt.Sprintf("%s: model only (cap=%s notfor=%t): %s", at(pos), s.Cap, s.NotFor, why)
			posn := pass.Fset.Position(pos)
			key := fmt.Sprintf("%s/%s %s", pass.Pkg.Path(), filepath.Base(posn.Filename), enclosing(p, pos))
			if reason, ok := pendingModelOnly[key]; ok {
				line += ": pending: " + reason
			} else {
				t.Error(line)
			}
			lines = append(lines, line)
		}
		for pos, v := range kept {
			if model[pos] != nil {
				continue
			}
			engineOnly++
			// reviewed by function, so that an edit above it in the file
			// does not undo the review
			posn := pass.Fset.Position(pos)
			key := fmt.Sprintf("%s/%s %s", pass.Pkg.Path(), filepath.Base(posn.Filename), v.Loop.Fn.Name())
			reason, ok := reviewedEngineOnly[key]
			seenReviewed[key] = true
			if !ok {
				t.Errorf("%s (%s): engine only, not reviewed: %s %s %s", at(pos), key, v.Loop.Kind, stmtKind(v.Loop.Syntax), attempts(v))
				reason = "NOT REVIEWED"
			}
			lines = append(lines, fmt.Sprintf("%s: engine only: %s %s %s: %s", at(pos), v.Loop.Kind, stmtKind(v.Loop.Syntax), attempts(v), reason))
		}
	})
	slices.Sort(lines)
	for _, l := range lines {
		t.Log(l)
	}
	var whys []string
	for why, n := range rejections {
		whys = append(whys, fmt.Sprintf("%s %d", why, n))
	}
	slices.Sort(whys)
	t.Logf("%d packages: %d loop scopes of the model; %d engine loops and cycles with an attempt (model only %d, engine only %d); after the policies %d kept: both %d, model only %d, engine only %d; attempts rejected: %s; %d for/range scopes mapped to an engine loop",
		len(pkgs), scopes, raw, rawModelOnly, rawEngineOnly, both+engineOnly, both, modelOnly, engineOnly, strings.Join(whys, ", "), mapped)
	if mapped == 0 {
		t.Error("no loop scope of the model was mapped to an engine loop")
	}
	for key := range reviewedEngineOnly {
		if !seenReviewed[key] {
			t.Errorf("%s: reviewed as engine only, but it is no longer: drop it from reviewedEngineOnly", key)
		}
	}
}

// testWaits are the calls that wait, for the differential, with the
// model's wait summaries (Result.Waits): the model's table of waits
// (passes/retryscope, waitCall) is what stage 2b gives the policies; the
// test names the standard library's.
var testWaits = []string{"time.Sleep", "time.After"}

// pendingModelOnly are model scopes the policies reject that the model
// itself declines on main, by file and function: the model at this
// branch's base still keeps them. Drop each entry once the model's change
// is merged (there is no staleness check here, so that the test passes
// before and after).
var pendingModelOnly = map[string]string{}

// enclosing returns the name of the function of p whose body holds pos.
func enclosing(p *flow.Package, pos token.Pos) string {
	name := ""
	for _, fn := range p.Funcs {
		if syn := fn.Syntax(); syn != nil && syn.Pos() <= pos && pos < syn.End() {
			name = fn.Name() // literals come after their parents: the innermost wins
		}
	}
	return name
}

// isHTTPResponse reports whether t is *net/http.Response: the response
// type of the differential (the model's tables name the others).
func isHTTPResponse(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := p.Elem().(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "net/http" && n.Obj().Name() == "Response"
}

// reviewedEngineOnly are the engine loops the policies keep that the model
// has no scope of, each reviewed, by file and function: why the engine is
// right, or what stage 2b must settle.
var reviewedEngineOnly = map[string]string{
	// polls that fail on the first error: the model tells them from a
	// retry on a failed result by the status compared, and by the library
	// (a condition func of a poll helper), which stage 2b gives the
	// policies from its tables
	"predicate/predicate.go pollReady": "a poll for status 200, tested in place: the model reads the status compared (stage 2b)",
	"shapes/shapes.go poll":            "a poll of a condition func that gives up on every error (stage 2b)",
	// the rest
	"policies/policies.go PerformRequest": "a loop whose policy never retries by default: the model reads the policy's default types (neverretry.go, stage 2b)",
	"repeats/repeats.go serve":            "the next dispatch waits on a select for another's trigger: a blocking select counts as a wait",
}

// attempts spells a verdict's attempts: callee, test, and the policy
// that rejected it.
func attempts(v *policy.Verdict) string {
	var out []string
	for _, a := range v.All {
		s := callName(a.Call) + ":" + a.Test.String()
		if a.OnSuccess {
			s += ":on-success"
		}
		if why, ok := v.Rejected[a]; ok {
			s += " rejected by " + why
		} else {
			s += " kept"
		}
		out = append(out, s)
	}
	return "[" + strings.Join(out, "; ") + "]"
}

// loopAt returns the engine's loop whose statement is n, in any function.
func loopAt(p *flow.Package, n ast.Node) *flow.Loop {
	for _, fn := range p.Funcs {
		if l := p.Loops(fn).Stmt(n); l != nil {
			return l
		}
	}
	return nil
}

// callName spells a call's callee: its name, or the closure or value
// called.
func callName(c *ssa.Call) string {
	if fn := c.Call.StaticCallee(); fn != nil {
		if obj, ok := fn.Object().(*types.Func); ok && obj != nil {
			return names.Of(obj)
		}
		return fn.Name()
	}
	if c.Call.IsInvoke() {
		return names.Of(c.Call.Method)
	}
	return c.Call.Value.Name()
}
