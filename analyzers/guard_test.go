package analyzers_test

import (
	"errors"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/analyzers"
)

// TestSuiteGuarded runs every analyzer New builds, and the retry model
// they share, on a pass without the results of its prerequisites: each
// panics (a type assertion on a missing result), and the guard must turn
// that into the error on the package.
func TestSuiteGuarded(t *testing.T) {
	suite := analyzers.New(&analyzers.Config{})
	as := append([]*analysis.Analyzer{}, suite...)
	for _, req := range suite[0].Requires {
		if req.Name == "idemlint_retryscope" {
			as = append(as, req)
		}
	}
	if len(as) != len(suite)+1 {
		t.Fatalf("no retry model among %s's prerequisites", suite[0].Name)
	}
	for _, a := range as {
		pass := &analysis.Pass{Analyzer: a, Pkg: types.NewPackage("example.com/p", "p"), ResultOf: map[*analysis.Analyzer]any{}}
		_, err := a.Run(pass)
		if err == nil {
			t.Errorf("%s: no error", a.Name)
			continue
		}
		msg := err.Error()
		if want := "idemlint: " + a.Name + " panicked on example.com/p: "; !strings.HasPrefix(msg, want) {
			t.Errorf("%s: error does not start with %q:\n%s", a.Name, want, msg)
		}
		if !strings.Contains(msg, "\ngoroutine ") || !strings.HasSuffix(msg, "\nplease report this at "+analyzers.IssuesURL) {
			t.Errorf("%s: error has no stack or no request to report it:\n%s", a.Name, msg)
		}
	}
}

// TestGuardPassesThrough checks that a guarded Run that does not panic
// returns what it returned.
func TestGuardPassesThrough(t *testing.T) {
	want := errors.New("not a panic")
	a := analyzers.Guard(&analysis.Analyzer{Name: "fine", Run: func(*analysis.Pass) (any, error) { return 42, want }})
	if got, err := a.Run(&analysis.Pass{}); got != 42 || err != want {
		t.Errorf("Run = %v, %v; want 42, %v", got, err, want)
	}
}
