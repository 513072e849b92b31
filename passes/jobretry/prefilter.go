package jobretry

import (
	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/internal/prefilter"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// Prefilter returns the check's prefilter (mayExport). The suite registers
// it for the analyzer it builds (analyzers.New); the analyzer New returns
// has none by itself.
func Prefilter(*analysis.Analyzer) prefilter.Func { return mayExport }

// mayExport is the check's prefilter: whether it may export a fact in the
// dependency p. Every fact stems from a database/sql call (an INSERT, a
// Prepare, a Tx's Stmt) or from a fact of a dependency that does, so the
// run exports facts only in a package that depends on database/sql and is
// not in the standard library (see facts), which is what this asks.
func mayExport(p *prefilter.Package) bool {
	if len(p.Files) > 0 && retryscope.IsStd(p.Path, p.Files[0]) {
		return false
	}
	return p.DependsOn(func(path string) bool { return path == "database/sql" })
}
