package driver

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/idemlint/idemlint/analyzers"
)

// panicky returns a check, guarded as the suite guards its own, that
// panics on the package at path (a write to a nil map) and reports
// nothing elsewhere.
func panicky(path string) *analysis.Analyzer {
	return analyzers.Guard(&analysis.Analyzer{
		Name: "panicky",
		Doc:  "panicky: panic on one package",
		Run: func(pass *analysis.Pass) (any, error) {
			if pass.Pkg.Path() == path {
				var counts map[string]int
				counts[path]++
			}
			return nil, nil
		},
	})
}

// checkPanicError checks that err is the guard's error for panicky on
// example.com/crosspkg/pay: the check, the package, the panic's value, a stack
// and where to report it.
func checkPanicError(t *testing.T, err string) {
	t.Helper()
	for _, want := range []string{
		"idemlint: panicky panicked on example.com/crosspkg/pay: assignment to entry in nil map\n",
		"\ngoroutine ", "guard_test.go", // the stack, down to the panic
		"\nplease report this at " + analyzers.IssuesURL,
	} {
		if !strings.Contains(err, want) {
			t.Errorf("error does not contain %q:\n%s", want, err)
		}
	}
}

// TestPanicIsPackageError runs the suite and a check that panics on
// package pay of testdata/crosspkg: the panic is an error on pay, every
// other finding (on lib, and the other checks' on pay) still prints, and the
// exit code is 1. It checks the same of go/analysis's own checker, which
// the multichecker and go vet -vettool use.
func TestPanicIsPackageError(t *testing.T) {
	t.Chdir(crossPkg(t))
	suite := append(analyzers.New(&analyzers.Config{}), panicky("example.com/crosspkg/pay"))
	// nojitter on lib and pay, nestedretry on pay
	findings := []string{"lib/lib.go:20:4: constant wait", "pay/pay.go:20:3: constant wait", "pay/pay.go:14:16: lib.Sync reaches"}

	initial, err := load([]string{"./..."}, false)
	if err != nil {
		t.Fatal(err)
	}
	g := analyze(suite, initial, 2, nil, prefilterOn, nil)
	var out bytes.Buffer
	if err := g.printText(&out, -1); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, f := range findings {
		if !strings.Contains(text, f) {
			t.Errorf("standalone driver: no finding %q in:\n%s", f, text)
		}
	}
	if n := strings.Count(text, "panicky: idemlint: panicky panicked on "); n != 1 {
		t.Errorf("standalone driver: %d panic errors, want 1 (on pay):\n%s", n, text)
	}
	checkPanicError(t, text)
	if code := g.exitCode(); code != 1 {
		t.Errorf("standalone driver: exit code %d, want 1", code)
	}

	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	cg, err := checker.Analyze(suite, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var errs []string
	var msgs []string
	for act := range cg.All() {
		if !act.IsRoot {
			continue
		}
		if act.Err != nil {
			if act.Analyzer.Name == "panicky" {
				errs = append(errs, act.Package.PkgPath+": "+act.Err.Error())
			}
			continue
		}
		for _, d := range act.Diagnostics {
			msgs = append(msgs, cg.Roots[0].Package.Fset.Position(d.Pos).String()+": "+d.Message)
		}
	}
	if len(errs) != 1 || !strings.HasPrefix(errs[0], "example.com/crosspkg/pay: ") {
		t.Fatalf("checker: panic errors %q, want one on example.com/crosspkg/pay", errs)
	}
	checkPanicError(t, errs[0])
	all := strings.Join(msgs, "\n")
	for _, f := range findings {
		if !strings.Contains(all, f) {
			t.Errorf("checker: no finding %q in:\n%s", f, all)
		}
	}
}
