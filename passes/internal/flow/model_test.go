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
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/internal/flow"
	"github.com/idemlint/idemlint/passes/internal/names"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// TestModelLoops runs the retry model and the engine over every test
// package of passes/retryscope. It fails when a loop scope of the model
// that is a for or range statement has no engine loop mapped to that
// statement (the index from SSA to syntax that stage 2 stands on), and it
// logs (go test -v -run ModelLoops) the model's loop scopes beside the
// engine's loops that hold a repeating call (Loop.RepeatingCalls), matched
// by position, with the agreement figures: what stage 2, the one loop rule,
// is to be compared against scope by scope.
func TestModelLoops(t *testing.T) {
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
	var both, modelOnly, engineOnly, mapped int
	var lines []string
	testgopath.Probe(t, retryscope.Analyzer, loaded, func(pass *analysis.Pass, res *retryscope.Result) {
		p := flow.ForPass(pass).Get()
		if p == nil {
			t.Errorf("%s: no SSA: %v", pass.Pkg.Path(), flow.ForPass(pass).Err())
			return
		}
		at := func(pos token.Pos) string { return pass.Fset.Position(pos).String() }
		model := make(map[token.Pos]*retryscope.Scope)
		for _, s := range res.Scopes() {
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
		engine := make(map[token.Pos]bool)
		for _, fn := range p.Funcs {
			loops := append(slices.Clone(p.Loops(fn).Loops), p.Cycles(fn)...)
			for _, l := range loops {
				attempts := l.Attempts()
				if len(attempts) == 0 || l.Syntax == nil {
					continue
				}
				var cs []string
				for _, a := range attempts {
					c := callName(a.Call) + ":" + a.Test.String()
					if a.OnSuccess {
						c += ":on-success"
					}
					cs = append(cs, c)
				}
				pos := l.Syntax.Pos()
				engine[pos] = true
				if s := model[pos]; s != nil {
					both++
					lines = append(lines, fmt.Sprintf("%s: both: scope cap=%s notfor=%t; engine %s repeats [%s]",
						at(pos), s.Cap, s.NotFor, l.Kind, strings.Join(cs, " ")))
				} else {
					engineOnly++
					lines = append(lines, fmt.Sprintf("%s: engine only: %s %s repeats [%s]",
						at(pos), l.Kind, stmtKind(l.Syntax), strings.Join(cs, " ")))
				}
			}
		}
		for pos, s := range model {
			if !engine[pos] {
				modelOnly++
				lines = append(lines, fmt.Sprintf("%s: model only: scope cap=%s notfor=%t", at(pos), s.Cap, s.NotFor))
			}
		}
	})
	slices.Sort(lines)
	for _, l := range lines {
		t.Log(l)
	}
	t.Logf("%d packages: %d loop scopes of the model, %d engine loops holding a repeating call; both %d, model only %d, engine only %d; %d for/range scopes mapped to an engine loop",
		len(pkgs), both+modelOnly, both+engineOnly, both, modelOnly, engineOnly, mapped)
	if mapped == 0 {
		t.Error("no loop scope of the model was mapped to an engine loop")
	}
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
