// Package check builds the analyzer of a check that reads the retry model:
// what every passes/<check>.New shares.
package check

import (
	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/internal/suppress"
	"github.com/idemlint/idemlint/passes/internal/keys"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// Config configures a check that has no options of its own.
type Config struct {
	// Scope is the retry model pass to read; nil means retryscope.Analyzer.
	Scope *analysis.Analyzer
}

// Spec describes a check.
type Spec struct {
	Name string
	Doc  string
	// Scope is the retry model pass to read; nil means retryscope.Analyzer.
	Scope     *analysis.Analyzer
	FactTypes []analysis.Fact
	// Run reports on pass, given the model's result for it.
	Run func(pass *analysis.Pass, res *retryscope.Result)
}

// New returns the check's analyzer: it requires the model and the
// suppression pass and is documented at docs/<name>.md.
func New(s Spec) *analysis.Analyzer {
	scope := s.Scope
	if scope == nil {
		scope = retryscope.Analyzer
	}
	return &analysis.Analyzer{
		Name:      s.Name,
		Doc:       s.Doc,
		URL:       "https://github.com/idemlint/idemlint/blob/main/docs/" + s.Name + ".md",
		Requires:  []*analysis.Analyzer{scope, suppress.Analyzer},
		FactTypes: s.FactTypes,
		Run: func(pass *analysis.Pass) (any, error) {
			s.Run(pass, pass.ResultOf[scope].(*retryscope.Result))
			return nil, nil
		},
	}
}

// KeyFlags gives a the -key-headers and, when fields is not nil, the
// -key-fields flag, which fill the check's extra key names.
func KeyFlags(a *analysis.Analyzer, headers, fields *[]string) {
	a.Flags.Var(keys.List{P: headers}, "key-headers", "comma-separated extra request headers that carry an idempotency key")
	if fields != nil {
		a.Flags.Var(keys.List{P: fields}, "key-fields", "comma-separated extra struct fields that carry an idempotency key")
	}
}
