package retryscope_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/idemlint/idemlint/internal/prefilter"
	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// TestPrefilterSound checks the syntax-only answers of the model, over
// every check's test packages and the library stubs: each retry loop that
// waits passes LoopFilter.MayWait and LexiconMayWait, and each library call
// passes LibraryCalls and is in the lexicon's calls. A driver skips a
// dependency on their word (see nestedretry): a false "no" loses findings.
func TestPrefilterSound(t *testing.T) {
	trees, err := filepath.Glob("../*/testdata")
	if err != nil || len(trees) < 5 {
		t.Fatalf("test data trees: %v, %v", trees, err)
	}
	loops, calls := 0, 0
	for _, tree := range trees {
		abs, err := filepath.Abs(tree)
		if err != nil {
			t.Fatal(err)
		}
		gopath := testgopath.Dir(t, abs)
		conf := &packages.Config{
			Mode: packages.LoadAllSyntax,
			Env:  append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOFLAGS=", "GOWORK=off"),
			Dir:  filepath.Join(gopath, "src"),
		}
		pkgs, err := packages.Load(conf, "./...")
		if err != nil {
			t.Fatal(err)
		}
		check := &analysis.Analyzer{
			Name:       "prefiltersound",
			Doc:        "prefiltersound: check the model's prefilter answers against its scopes",
			Requires:   []*analysis.Analyzer{retryscope.Analyzer},
			ResultType: reflect.TypeFor[int](),
			Run: func(pass *analysis.Pass) (any, error) {
				res := pass.ResultOf[retryscope.Analyzer].(*retryscope.Result)
				var srcs [][]byte
				for _, f := range pass.Files {
					src, err := os.ReadFile(pass.Fset.File(f.Pos()).Name())
					if err != nil {
						return nil, err
					}
					srcs = append(srcs, src)
				}
				lex := prefilter.Scan(srcs)
				lf := retryscope.NewLoopFilter(pass.Files)
				lib := retryscope.LibraryCalls(retryscope.Analyzer, fromTypes(pass.Pkg))
				for _, s := range res.Scopes() {
					where := pass.Fset.Position(s.Pos)
					switch n := s.Node.(type) {
					case *ast.ForStmt, *ast.RangeStmt:
						waits := false
						for _, w := range s.Waits {
							waits = waits || w.Kind != retryscope.WaitNone
						}
						if !waits {
							continue
						}
						loops++
						if !lf.MayWait(n.(ast.Stmt)) {
							t.Errorf("%s: LoopFilter.MayWait rules out a retry loop that waits", where)
						}
						if !retryscope.LexiconMayWait(lex) {
							t.Errorf("%s: LexiconMayWait rules out the package of a retry loop that waits", where)
						}
					case *ast.CallExpr:
						if s.Kind != retryscope.LibraryCall && s.Kind != retryscope.Client {
							continue
						}
						calls++
						name := prefilter.CallName(n)
						if lib == nil || !lib(name) {
							t.Errorf("%s: LibraryCalls rules out the library call %s", where, s.Entry)
						}
						if !lex.Calls[name] {
							t.Errorf("%s: the lexicon lacks the library call %s", where, name)
						}
					}
				}
				return 0, nil
			},
		}
		if _, err := checker.Analyze([]*analysis.Analyzer{check}, pkgs, nil); err != nil {
			t.Fatal(err)
		}
	}
	if loops < 20 || calls < 20 {
		t.Errorf("vacuous: %d waiting loops, %d library calls", loops, calls)
	}
	t.Logf("%d waiting loops, %d library calls checked", loops, calls)
}

// fromTypes is what a prefilter sees of a type-checked package's imports.
func fromTypes(pkg *types.Package) *prefilter.Package {
	p := &prefilter.Package{Path: pkg.Path()}
	for _, imp := range pkg.Imports() {
		p.Imports = append(p.Imports, imp.Path())
	}
	p.DependsOn = func(match func(string) bool) bool {
		seen := make(map[*types.Package]bool)
		var visit func(*types.Package) bool
		visit = func(q *types.Package) bool {
			if seen[q] {
				return false
			}
			seen[q] = true
			if match(q.Path()) {
				return true
			}
			for _, imp := range q.Imports() {
				if visit(imp) {
					return true
				}
			}
			return false
		}
		return visit(pkg)
	}
	return p
}

// TestLoopFilter checks the loops LoopFilter rules out, none of which the
// model takes for a retry that waits: it is what lets a driver skip most
// dependencies.
func TestLoopFilter(t *testing.T) {
	const src = `package p

import "time"

func op() error { return nil }
func next() (int, error) { return 0, nil }
type Delay int

func f(items []int, rows interface{ Next() bool; Scan() error }) error {
	for _, it := range items { // a range with a value variable
		if op() == nil { time.Sleep(time.Duration(it)) }
	}
	for rows.Next() { // an exit on every error
		err := rows.Scan()
		if err != nil {
			return err
		}
		time.Sleep(time.Second)
	}
	for i := 0; i < 3; i++ { // the same, in the if's init
		if _, err := next(); err != nil {
			return err
		}
		time.Sleep(time.Second)
	}
	for { // no comparison with nil
		op()
		time.Sleep(time.Second)
	}
	for i := 0; i < 3; i++ { // no wait: a conversion is no call of a function
		if err := op(); err == nil {
			return nil
		}
		_ = Delay(i)
	}
	for { // builtins and conversions are no attempts
		m := make(map[int]int)
		b := []byte("x")
		if m == nil || b == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return nil
}
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	lf := retryscope.NewLoopFilter([]*ast.File{f})
	n := 0
	ast.Inspect(f, func(node ast.Node) bool {
		switch l := node.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			n++
			if lf.MayWait(l.(ast.Stmt)) {
				t.Errorf("loop %d: MayWait = true, want false", n)
			}
		}
		return true
	})
	if n != 6 {
		t.Fatalf("%d loops, want 6", n)
	}
}
