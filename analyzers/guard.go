package analyzers

import (
	"fmt"
	"runtime/debug"

	"golang.org/x/tools/go/analysis"
)

// IssuesURL is where a panic in a check asks to be reported.
const IssuesURL = "https://github.com/idemlint/idemlint/issues"

// Guard makes a's Run return an error instead of panicking, and returns a.
// A panic in a check is a bug in idemlint, not in the analysed code: it
// becomes an error on the package being analysed ("idemlint: <check>
// panicked on <package>: <value>", the stack, and a request to report
// it), which every driver prints while it goes on with the other
// packages; the checks that require a failed pass fail on that package
// only. New guards every analyzer it builds; guard an analyzer once.
//
// Guard changes a in place rather than copying it, so that a stays the
// analyzer other analyzers require and prefilters are registered for.
func Guard(a *analysis.Analyzer) *analysis.Analyzer {
	run := a.Run
	a.Run = func(pass *analysis.Pass) (result any, err error) {
		defer func() {
			if v := recover(); v != nil {
				pkg := "a package"
				if pass.Pkg != nil {
					pkg = pass.Pkg.Path()
				}
				result = nil
				err = fmt.Errorf("idemlint: %s panicked on %s: %v\n%s\nplease report this at %s",
					a.Name, pkg, v, debug.Stack(), IssuesURL)
			}
		}()
		return run(pass)
	}
	return a
}
