// Package check builds the analyzer of a check that reads the retry model:
// what every passes/<check>.New shares.
package check

import (
	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/internal/checkdoc"
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
	// Doc is the check's documentation: its name and its analyzer's Doc.
	Doc *checkdoc.Doc
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
		Name:      s.Doc.Name,
		Doc:       s.Doc.AnalyzerDoc(),
		URL:       "https://github.com/idemlint/idemlint/blob/main/docs/" + s.Doc.Name + ".md",
		Requires:  []*analysis.Analyzer{scope, suppress.Analyzer},
		FactTypes: s.FactTypes,
		Run: func(pass *analysis.Pass) (any, error) {
			s.Run(pass, pass.ResultOf[scope].(*retryscope.Result))
			return nil, nil
		},
	}
}

// Define returns the analyzer with the default configuration and the
// constructor of a check that has no options besides the model it reads.
func Define(doc *checkdoc.Doc, run func(*analysis.Pass, *retryscope.Result), facts ...analysis.Fact) (*analysis.Analyzer, func(*Config) *analysis.Analyzer) {
	build := func(cfg *Config) *analysis.Analyzer {
		return New(Spec{Doc: doc, Scope: cfg.Scope, FactTypes: facts, Run: run})
	}
	return build(&Config{}), build
}

// KeyFlags gives a the -key-headers and, when fields is not nil, the
// -key-fields flag, which fill the check's extra key names.
func KeyFlags(a *analysis.Analyzer, headers, fields *[]string) {
	a.Flags.Var(keys.List{P: headers}, "key-headers", "comma-separated extra request headers that carry an idempotency key")
	if fields != nil {
		a.Flags.Var(keys.List{P: fields}, "key-fields", "comma-separated extra struct fields that carry an idempotency key")
	}
}
