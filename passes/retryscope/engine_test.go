package retryscope

import (
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/internal/flow"
	"github.com/idemlint/idemlint/passes/internal/flow/policy"
)

// TestEngineLoops is the differential of the walk's loop scopes (loops.go,
// jumps.go) and the engine's (engine.go) over every test package of
// passes/retryscope: matched by position, each field compared (the scope
// itself, NotFor, the cap's kind and count, the deadline's kind, each
// wait's kind and position, the trigger), each difference printed with its file:line.
// It fails on a difference that is not among the reviewed ones
// (reviewedEngineDiffs, by file, function and field), and on a reviewed
// one that no longer differs.
// go test -v -run EngineLoops prints the differences and the figures.
func TestEngineLoops(t *testing.T) {
	tree, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	loaded := testgopath.Load(t, testgopath.Dir(t, tree), packages.LoadAllSyntax, testgopath.Packages(t, tree)...)
	engineDiff(t, [][]*packages.Package{loaded}, reviewedEngineDiffs)
}

// TestEngineLoopsChecks is TestEngineLoops over the test packages of
// every check and helper pass but retryscope (testgopath.Trees), each
// difference reviewed in reviewedCheckDiffs.
func TestEngineLoopsChecks(t *testing.T) {
	var all [][]*packages.Package
	for _, tree := range testgopath.Trees(t) {
		if filepath.Base(filepath.Dir(tree)) == "retryscope" {
			continue
		}
		all = append(all, testgopath.Load(t, testgopath.Dir(t, tree), packages.LoadAllSyntax, "./..."))
	}
	engineDiff(t, all, reviewedCheckDiffs)
}

// engineDiff compares the walk's loop scopes and the engine's over each
// set of loaded packages, against the reviewed differences.
func engineDiff(t *testing.T, sets [][]*packages.Package, reviewed map[string]string) {
	var mu sync.Mutex // the checker runs the packages' actions in parallel
	var lines []string
	seen := map[string]bool{}
	var scopes, engine, same, fields int
	var pkgs int
	for _, loaded := range sets {
		pkgs += len(loaded)
		testgopath.Probe(t, Analyzer, loaded, func(pass *analysis.Pass, res *Result) {
			p := flow.ForPass(pass).Get()
			if p == nil {
				mu.Lock()
				t.Errorf("%s: no SSA: %v", pass.Pkg.Path(), flow.ForPass(pass).Err())
				mu.Unlock()
				return
			}
			news := res.model.engineScopes(p)
			mu.Lock()
			defer mu.Unlock()
			old := map[token.Pos]*Scope{}
			for _, s := range res.Scopes() {
				if s.Kind == Loop {
					old[s.Pos] = s
					scopes++
				}
			}
			nw := map[token.Pos]*Scope{}
			for _, s := range news {
				nw[s.Pos] = s
				engine++
			}
			at := func(pos token.Pos) string {
				posn := pass.Fset.Position(pos)
				return fmt.Sprintf("%s/%s:%d", pass.Pkg.Path(), filepath.Base(posn.Filename), posn.Line)
			}
			report := func(pos token.Pos, field, diff string) {
				posn := pass.Fset.Position(pos)
				key := fmt.Sprintf("%s/%s %s %s", pass.Pkg.Path(), filepath.Base(posn.Filename), funcName(res, pos), field)
				seen[key] = true
				line := fmt.Sprintf("%s: %s (%s)", at(pos), diff, key)
				if why, ok := reviewed[key]; ok {
					line += ": reviewed: " + why
				} else {
					t.Errorf("%s: not reviewed", line)
				}
				lines = append(lines, line)
			}
			var all []token.Pos
			for pos := range old {
				all = append(all, pos)
			}
			for pos := range nw {
				if old[pos] == nil {
					all = append(all, pos)
				}
			}
			slices.Sort(all)
			for _, pos := range all {
				o, n := old[pos], nw[pos]
				switch {
				case n == nil:
					report(pos, "scope", fmt.Sprintf("walk only (cap=%s notfor=%t): %s", o.Cap, o.NotFor, verdictAt(p, res, o.Node)))
					continue
				case o == nil:
					report(pos, "scope", fmt.Sprintf("engine only (cap=%s notfor=%t)", n.Cap, n.NotFor))
					continue
				}
				diffs := 0
				cmp := func(field, a, b string) {
					fields++
					if a != b {
						diffs++
						report(pos, field, fmt.Sprintf("%s: walk %s, engine %s", field, a, b))
					}
				}
				cmp("notfor", fmt.Sprint(o.NotFor), fmt.Sprint(n.NotFor))
				cmp("cap", o.Cap.String(), n.Cap.String())
				cmp("deadline", o.Deadline.Kind.String(), n.Deadline.Kind.String())
				cmp("waits", waitsString(pass.Fset, o.Waits), waitsString(pass.Fset, n.Waits))
				cmp("trigger", fmt.Sprint(o.Trigger), fmt.Sprint(n.Trigger))
				if diffs == 0 {
					same++
				}
			}
		})
	}
	slices.Sort(lines)
	for _, l := range lines {
		t.Log(l)
	}
	t.Logf("%d packages: %d loop scopes of the walk, %d of the engine; %d alike in every field; %d fields compared; %d differences",
		pkgs, scopes, engine, same, fields, len(lines))
	if scopes == 0 || engine == 0 {
		t.Error("no loop scope to compare")
	}
	for key := range reviewed {
		if !seen[key] {
			t.Errorf("%s: reviewed as a difference, but there is none: drop it from reviewedEngineDiffs", key)
		}
	}
}

// waitsString spells waits as kind@line:column, in order.
func waitsString(fset *token.FileSet, waits []Wait) string {
	var out []string
	for _, w := range waits {
		posn := fset.Position(w.Pos)
		out = append(out, fmt.Sprintf("%s@%d:%d", w.Kind, posn.Line, posn.Column))
	}
	return "[" + strings.Join(out, " ") + "]"
}

// funcName returns the name of the innermost function declaration of the
// package that holds pos, so that a review survives edits above it.
func funcName(res *Result, pos token.Pos) string {
	name := "?"
	for _, f := range res.files {
		ast.Inspect(f, func(n ast.Node) bool {
			if fd, ok := n.(*ast.FuncDecl); ok && fd.Pos() <= pos && pos < fd.End() {
				name = fd.Name.Name
			}
			return true
		})
	}
	return name
}

// reviewedEngineDiffs are the differences between the walk's loop scopes
// and the engine's over retryscope's test packages, each reviewed, by
// file, function and field: why the engine is right, or what is left to
// do.
var reviewedEngineDiffs = map[string]string{
	// the engine reads better
	"prefilter/prefilter.go labelled deadline": "engine better: a goto back inside a counted for loop is no exit; the walk reads it as a guard it cannot read (unknown), the engine sees nothing that ends the loop in time",
	"shapes/shapes.go classify cap":            "engine better: the switch's default leaves when errors.Is(err, errBusy) is false, a test of the attempt's error, no bound; the walk reads the default clause as a bound it cannot read",
	"shapes/shapes.go classify deadline":       "engine better: as its cap; nothing ends the errBusy retries in time",
	"repeats/repeats.go run cap":               "engine better: kafka-go's ConsumerGroup.run leaves on errClosed (a test of the attempt's error) or when closed (a stop channel of the package's): no cap; the walk reads the switch's default clause as an unknown bound",
	"repeats/repeats.go run deadline":          "engine better: as its cap; <-g.done is a stop channel of a field, no deadline",
	// left for the switch (stage 2b): the engine's reading is conservative
	"notfor/notfor.go tryRefresh deadline": "to do: the recursion's pass holds a for loop over brokers whose condition calls a closure (pastDeadline(0)); the engine reads its exit as a bound it cannot read (unknown), the walk reads only the closure recursion's guards",
	"repeats/success.go watch cap":         "to do: the exit past the failure branch tests a flag (ok) that only the unretried errGone failure clears; the engine, without path conditions, reads the flag as an unknown bound (conservative: no finding), the walk places the exit past the failure branch",
	// engine-only scopes, the same four as the flow differential's
	// reviewedEngineOnly (passes/internal/flow/model_test.go)
	"shapes/shapes.go poll scope":    "to do: a poll of a condition func that gives up on every error; the policies do not yet tell it from a retry on a failed result",
	"repeats/repeats.go serve scope": "to do: the next dispatch waits on a select for another's trigger; the policies count a blocking select as a wait",
}

// reviewedCheckDiffs are reviewedEngineDiffs for the checks' test
// packages.
var reviewedCheckDiffs = map[string]string{
	"defaults/defaults.go run cap":                  "engine better: the switch's default leaves on a test of the attempt's error; the walk reads the default clause as a bound it cannot read (as shapes classify)",
	"defaults/defaults.go run deadline":             "engine better: as its cap",
	"grpccodes/grpccodes.go transientOnly scope":    "engine better: a retry of two gRPC codes (status.Code(err)) whose other codes fall out of the switch to return err: an exit not taken on every error, so a retry by the rule (docs Loops); the walk declines it. After the switch retrystatus reads it as a scope and reports nothing (Unavailable and ResourceExhausted are transient), as its own walk does now",
	"grpccodes/grpccodes.go switchCodes deadline":   "engine better: the switch's default leaves on the attempt's gRPC code; the walk reads the default clause as an unknown bound",
	"jitter/jitter.go unknownWait scope":            "engine better: the only wait is Wait of an anonymous interface (interface{ Wait(context.Context) error }), whose callee no table can name; the walk counts it by its name (waitWords: unknown wait), the policies match waits by identity and reject the loop (waits-or-counts). No finding changes: nojitter reports no unknown wait. (*golang.org/x/time/rate.Limiter).Wait would belong in waitFuncs, but no test package uses it and the table's entries take a duration",
	"loops/helpers.go probe scope":                  "to do: olivere/elastic's probe: next-item now follows the request built from the ranged url (http.NewRequest), so the engine drops the inner range loop as the walk does; left: the outer for !done loop has no attempt of its own (c.Do is the inner loop's; it leaves on a 2xx status, a failed-result decision of the outer round, and waits only at the round's select), as probeStops",
	"loops/helpers.go probeStops scope":             "to do: the attempt c.Get(url) is the inner range loop's (its failure continues with the next url), so the outer for !done loop has no attempt of its own in the engine",
	"loops/loops.go inSwitch deadline":              "engine better: the switch's default leaves on the attempt's status; the walk reads the default clause as an unknown bound",
	"loops/loops.go waitForCreation trigger":        "to do: the scope is kept now (waits-or-counts counts the wait after the 404 test, a failed result: a retry whose transport errors come round at once); engine.go sets TriggerStatus only from an exit's guards, and the 404 test repeats rather than exits: the trigger must also be read off the attempt's failed-result branch (engine.go, left to its owner)",
	"loops/loops.go waitForCreationIgnored trigger": "to do: as waitForCreation",
}

// verdictAt spells what the policies made of the engine's loop at n: each
// attempt and the policy that rejected it.
func verdictAt(p *flow.Package, res *Result, n ast.Node) string {
	pc := policy.NewContext(p, res.Knowledge())
	for _, fn := range p.Funcs {
		if l := p.Loops(fn).Stmt(n); l != nil {
			v := pc.Judge(l)
			var out []string
			for _, a := range v.All {
				out = append(out, fmt.Sprintf("%s:%s %s", a.Call.Call.String(), a.Test, v.Rejected[a]))
			}
			return "engine attempts [" + strings.Join(out, "; ") + "]"
		}
	}
	return "no engine loop"
}
