package analyzers_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/internal/testgopath"
)

func byName(t *testing.T, as []*analysis.Analyzer, name string) *analysis.Analyzer {
	t.Helper()
	for _, a := range as {
		if a.Name == name {
			return a
		}
	}
	t.Fatalf("no analyzer %s", name)
	return nil
}

// TestIgnoreDirective checks that //idemlint:ignore silences findings on
// its line and the line below, for the checks it names, only with a reason.
func TestIgnoreDirective(t *testing.T) {
	as := analyzers.New(&analyzers.Config{})
	testgopath.Check(t, byName(t, as, "nojitter"), "silenced")
}

// TestDirectiveChecker checks malformed and unused directives are reported.
func TestDirectiveChecker(t *testing.T) {
	as := analyzers.New(&analyzers.Config{ReportUnusedIgnores: true})
	testgopath.Check(t, byName(t, as, analyzers.DirectiveName), "directives")
}
