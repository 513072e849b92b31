package analyzers

import (
	"fmt"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/internal/checkdoc"
	"github.com/idemlint/idemlint/internal/suppress"
)

// DirectiveName is the name of the check that reports malformed and unused
// //idemlint:ignore directives.
const DirectiveName = "ignoredirective"

// newDirectiveChecker returns the check of //idemlint:ignore directives
// naming the checks names. It requires the enabled checks so that it runs
// after them and knows which directives silenced a finding.
func newDirectiveChecker(checks []*analysis.Analyzer, names []string, reportUnused bool) *analysis.Analyzer {
	requires := append([]*analysis.Analyzer{suppress.Analyzer}, checks...)
	return &analysis.Analyzer{
		Name:     DirectiveName,
		Doc:      directiveDoc.AnalyzerDoc(),
		URL:      "https://github.com/idemlint/idemlint/blob/main/docs/" + DirectiveName + ".md",
		Requires: requires,
		Run: func(pass *analysis.Pass) (any, error) {
			idx := pass.ResultOf[suppress.Analyzer].(*suppress.Index)
			for _, d := range idx.Directives() {
				var unknown []string
				for _, c := range d.Checks {
					if !slices.Contains(names, c) {
						unknown = append(unknown, c)
					}
				}
				prefix := d.Prefix()
				switch {
				case len(d.Checks) == 0:
					pass.Reportf(d.Pos, "%s names no check; write %s <check>[,<check>] <reason>", prefix, prefix)
				case len(unknown) > 0:
					pass.Reportf(d.Pos, "%s names unknown check %s; the checks are %s", prefix, strings.Join(unknown, ", "), strings.Join(names, ", "))
				case d.Reason == "":
					pass.Reportf(d.Pos, "%s has no reason, so it silences nothing; add why the finding does not apply after the check names", prefix)
				case reportUnused && !idx.Used(d) && enabledAll(checks, d.Checks):
					pass.Reportf(d.Pos, "%s %s silences nothing; remove it", prefix, strings.Join(d.Checks, ","))
				}
			}
			return nil, nil
		},
	}
}

// enabledAll reports whether every named check runs, so that an unused
// directive is really unused and not merely about a disabled check.
func enabledAll(checks []*analysis.Analyzer, names []string) bool {
	for _, n := range names {
		if !slices.ContainsFunc(checks, func(a *analysis.Analyzer) bool { return a.Name == n }) {
			return false
		}
	}
	return true
}

// directiveDoc is the check's structured documentation, its one source.
var directiveDoc = &checkdoc.Doc{
	Name:   DirectiveName,
	Source: "analyzers/directive.go",
	Title:  "//idemlint:ignore and //idemlint:file-ignore directives that are malformed or silence nothing",
	Since:  "v0.1.0",
	Text: fmt.Sprintf(`
A finding is silenced with a directive on its line or on the line above it:

`+"```go"+`
//idemlint:ignore nojitter one client only, behind a queue that spreads the load
time.Sleep(time.Second)
`+"```"+`

Several checks are separated by commas (`+"`//idemlint:ignore unboundedretry,nojitter reason`"+`).
`+"`//idemlint:file-ignore <check>[,<check>] <reason>`"+` anywhere in a file (by convention above the package
clause) silences the named checks in the whole file. The reason is
required: a directive without one silences nothing and is reported, so that every silenced finding says why. The
directive works the same in every driver (standalone, go vet, golangci-lint) because the checks report through it;
in golangci-lint, `+"`//nolint:idemlint`"+` keeps working as usual.

This check reports directives with no check name, with an unknown check name, or with no reason, and, with
`+"`-report-unused-ignores`"+`, directives that silence no finding (stale ones, left after the code was fixed).
Checks: %s.`, "`unboundedretry`, `nojitter`, and the others listed in the README"),
	Options: []checkdoc.Option{{
		Flag: "-report-unused-ignores", Setting: "report-unused-ignores", Default: "false",
		Text: "also report directives that silence nothing",
	}},
}
