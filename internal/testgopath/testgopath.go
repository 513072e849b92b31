// Package testgopath builds the GOPATH trees that the analyzers' tests run
// analysistest over: the library stubs shared by every check
// (testdata/stubs/src at the module root) merged with a check's own
// testdata/src.
package testgopath

import (
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// Dir returns a temporary GOPATH directory whose src holds the shared stubs
// and the packages of own (a check's testdata directory, usually
// analysistest.TestData()). Files of own win over stubs of the same path.
// The packages own's borrow.txt lists (one directory a line, relative to
// own: ../../retryscope/testdata/src/policies) are copied in as src/<base>:
// one check's test package serving another's tests.
func Dir(t testing.TB, own string) string {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, src := range []string{filepath.Join(root, "testdata", "stubs"), own} {
		if err := copyTree(src, dir); err != nil {
			t.Fatalf("testgopath: %v", err)
		}
	}
	borrow, err := os.ReadFile(filepath.Join(own, "borrow.txt"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatalf("testgopath: %v", err)
	}
	for _, pkg := range strings.Fields(string(borrow)) {
		if err := copyTree(filepath.Join(own, pkg), filepath.Join(dir, "src", filepath.Base(pkg))); err != nil {
			t.Fatalf("testgopath: borrow.txt: %v", err)
		}
	}
	return dir
}

// Trees returns the testdata directories of every check and helper pass
// (passes/*/testdata), as absolute paths.
func Trees(t testing.TB) []string {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	trees, err := filepath.Glob(filepath.Join(root, "passes", "*", "testdata"))
	if err != nil || len(trees) == 0 {
		t.Fatalf("testgopath: no test data trees: %v", err)
	}
	return trees
}

// Env is the environment in which the go command sees gopath, a directory
// made by Dir, in GOPATH mode.
func Env(gopath string) []string {
	return append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOFLAGS=", "GOWORK=off")
}

// Load loads the packages that patterns name in gopath (a directory made
// by Dir) with go/packages, in GOPATH mode.
func Load(t testing.TB, gopath string, mode packages.LoadMode, patterns ...string) []*packages.Package {
	t.Helper()
	conf := &packages.Config{Mode: mode, Env: Env(gopath), Dir: filepath.Join(gopath, "src")}
	pkgs, err := packages.Load(conf, patterns...)
	if err != nil {
		t.Fatalf("testgopath: %v", err)
	}
	return pkgs
}

// moduleRoot finds the directory of idemlint's go.mod above the working
// directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "testdata", "stubs", "src")); err == nil {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				return dir, nil
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}

func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
}

// A Diagnostic is a finding of Run with its positions resolved.
type Diagnostic struct {
	Posn    token.Position
	Message string
	Related []Related
}

// A Related is a diagnostic's related location.
type Related struct {
	Posn    token.Position
	Message string
}

// Run runs a over the packages that patterns name in gopath (a directory
// made by Dir) and returns the diagnostics a reports in them, for the tests
// that look at what analysistest does not (related information).
func Run(t testing.TB, gopath string, a *analysis.Analyzer, patterns ...string) []Diagnostic {
	t.Helper()
	pkgs := Load(t, gopath, packages.LoadAllSyntax, patterns...)
	graph, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, nil)
	if err != nil {
		t.Fatalf("testgopath: %v", err)
	}
	var out []Diagnostic
	for act := range graph.All() {
		if !act.IsRoot || act.Analyzer != a {
			continue
		}
		if act.Err != nil {
			t.Fatalf("testgopath: %s: %v", act, act.Err)
		}
		fset := act.Package.Fset
		for _, d := range act.Diagnostics {
			rd := Diagnostic{Posn: fset.Position(d.Pos), Message: d.Message}
			for _, r := range d.Related {
				rd.Related = append(rd.Related, Related{Posn: fset.Position(r.Pos), Message: r.Message})
			}
			out = append(out, rd)
		}
	}
	return out
}

// Check runs a over the packages that patterns name in the check's
// testdata merged with the stubs, and checks its diagnostics against the
// packages' // want comments (see analysistest.Run).
func Check(t *testing.T, a *analysis.Analyzer, patterns ...string) []*analysistest.Result {
	t.Helper()
	return analysistest.Run(t, Dir(t, analysistest.TestData()), a, patterns...)
}

// Fixes runs a and its suggested fixes over the packages that patterns
// name in the check's testdata merged with the stubs (the fixed files must
// match their goldens, see analysistest.RunWithSuggestedFixes) and returns
// how many fixes a suggested.
func Fixes(t *testing.T, a *analysis.Analyzer, patterns ...string) int {
	t.Helper()
	n := 0
	for _, r := range analysistest.RunWithSuggestedFixes(t, Dir(t, analysistest.TestData()), a, patterns...) {
		for _, d := range r.Diagnostics {
			n += len(d.SuggestedFixes)
		}
	}
	return n
}

// Probe runs fn over each of pkgs (loaded with packages.LoadAllSyntax)
// with the package's result of model, an analyzer whose result is an R,
// for the tests that check the model's answers themselves. It fails t if
// the analysis of a package fails.
func Probe[R any](t testing.TB, model *analysis.Analyzer, pkgs []*packages.Package, fn func(pass *analysis.Pass, res R)) {
	t.Helper()
	probe := &analysis.Analyzer{
		Name:       "probe",
		Doc:        "probe: run a test's function over the result of " + model.Name,
		Requires:   []*analysis.Analyzer{model},
		ResultType: reflect.TypeFor[int](),
		Run: func(pass *analysis.Pass) (any, error) {
			fn(pass, pass.ResultOf[model].(R))
			return 0, nil
		},
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{probe}, pkgs, nil)
	if err != nil {
		t.Fatalf("testgopath: %v", err)
	}
	for _, act := range graph.Roots {
		if act.Err != nil {
			t.Fatalf("testgopath: %s: %v", act, act.Err)
		}
	}
}

// ProbeTrees runs fn, as Probe does, over every package of every check's
// and helper pass's test data (Trees), each merged with the stubs: the
// tests that check an answer of the model holds wherever it is asked.
func ProbeTrees[R any](t testing.TB, model *analysis.Analyzer, fn func(pass *analysis.Pass, res R)) {
	t.Helper()
	for _, tree := range Trees(t) {
		Probe(t, model, Load(t, Dir(t, tree), packages.LoadAllSyntax, "./..."), fn)
	}
}

// WriteTree writes files (relative names to contents) into a temporary
// directory, removed when the test ends, and returns the directory.
func WriteTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Packages returns the names of the test packages of tree (the
// directories of tree/src), failing t when it cannot read them.
func Packages(t testing.TB, tree string) []string {
	t.Helper()
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
	return pkgs
}
