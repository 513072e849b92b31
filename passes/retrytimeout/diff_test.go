package retrytimeout_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/retrytimeout"
)

// TestDiffDump writes every finding of the check (position, message,
// related information, fixes) over every check's testdata and the
// look-alike corpus to $RTDIFF: the differential of the move onto
// flow/value. Throwaway.
func TestDiffDump(t *testing.T) {
	out := os.Getenv("RTDIFF")
	if out == "" {
		t.Skip("RTDIFF unset")
	}
	trees := append(testgopath.Trees(t), filepath.Join("..", "..", "testdata", "lookalikes"))
	if extra := os.Getenv("RTTREE"); extra != "" {
		trees = []string{extra}
	}
	var lines []string
	for _, tree := range trees {
		abs, _ := filepath.Abs(tree)
		gopath := testgopath.Dir(t, abs)
		pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: filepath.Join(gopath, "src"), Env: testgopath.Env(gopath), Tests: true}, "./...")
		if err != nil {
			t.Fatal(err)
		}
		graph, err := checker.Analyze([]*analysis.Analyzer{retrytimeout.Analyzer}, pkgs, nil)
		if err != nil {
			t.Fatal(err)
		}
		for act := range graph.All() {
			if !act.IsRoot || act.Analyzer != retrytimeout.Analyzer {
				continue
			}
			if act.Err != nil {
				lines = append(lines, fmt.Sprintf("%s ERROR %s: %v", filepath.Base(filepath.Dir(abs)), act.Package.PkgPath, act.Err))
				continue
			}
			fset := act.Package.Fset
			rel := func(p string) string {
				if i := strings.Index(p, "/src/"); i >= 0 {
					return p[i+5:]
				}
				return p
			}
			for _, d := range act.Diagnostics {
				posn, end := fset.Position(d.Pos), fset.Position(d.End)
				s := fmt.Sprintf("%s [%s] %s:%d:%d-%d:%d %s", filepath.Base(filepath.Dir(abs)), act.Package.ID, rel(posn.Filename), posn.Line, posn.Column, end.Line, end.Column, d.Message)
				for _, r := range d.Related {
					rp, re := fset.Position(r.Pos), fset.Position(r.End)
					s += fmt.Sprintf("\n\trelated %s:%d:%d-%d:%d %s", rel(rp.Filename), rp.Line, rp.Column, re.Line, re.Column, r.Message)
				}
				for _, f := range d.SuggestedFixes {
					s += "\n\tfix " + f.Message
					for _, e := range f.TextEdits {
						ep := fset.Position(e.Pos)
						s += fmt.Sprintf(" {%s:%d:%d +%d %q}", rel(ep.Filename), ep.Line, ep.Column, e.End-e.Pos, e.NewText)
					}
				}
				lines = append(lines, s)
			}
		}
	}
	sort.Strings(lines)
	lines = dedup(lines)
	if err := os.WriteFile(out, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d findings", len(lines))
}

func dedup(xs []string) []string {
	var out []string
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// TestSSADump prints the SSA form of the functions named $RTSSAFN (a
// substring) of the testdata package $RTSSA. Throwaway.
func TestSSADump(t *testing.T) {
	pat := os.Getenv("RTSSA")
	if pat == "" {
		t.Skip("RTSSA unset")
	}
	tree, _ := filepath.Abs(os.Getenv("RTSSATREE"))
	if os.Getenv("RTSSATREE") == "" {
		tree, _ = filepath.Abs("testdata")
	}
	gopath := testgopath.Dir(t, tree)
	pkgs := testgopath.Load(t, gopath, packages.LoadAllSyntax, pat)
	prog, spkgs := ssautil.Packages(pkgs, ssa.BuilderMode(0))
	prog.Build()
	for _, sp := range spkgs {
		for fn := range ssautil.AllFunctions(prog) {
			if fn.Pkg == sp && strings.Contains(fn.String(), os.Getenv("RTSSAFN")) {
				var b strings.Builder
				fn.WriteTo(&b)
				fmt.Println(b.String())
			}
		}
	}
}

// TestTreeWants runs the check with analysistest over $RTSSATREE's
// package $RTSSA. Throwaway.
func TestTreeWants(t *testing.T) {
	tree := os.Getenv("RTSSATREE")
	if tree == "" {
		t.Skip("RTSSATREE unset")
	}
	analysistest.Run(t, testgopath.Dir(t, tree), retrytimeout.Analyzer, os.Getenv("RTSSA"))
}
