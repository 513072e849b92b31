package keyprop

import (
	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/internal/prefilter"
	"github.com/idemlint/idemlint/passes/internal/keys"
)

// Prefilter returns the check's prefilter (mayExport); the suite registers
// it for the analyzer it builds (analyzers.New). scope is unused: the
// check's facts do not depend on the retry model.
func Prefilter(scope *analysis.Analyzer) prefilter.Func {
	return mayExport
}

// mayExport is the check's prefilter: whether it may export a publishFact
// (or the package's publishersFact) in the dependency p, read from p's
// import list and tokens. A function has one only when it calls a
// JetStream publish method (in a package that imports nats.go) or a
// function that has one (of a transitive import, by name; such an import
// has a package fact, publishersFact, the one package fact of the suite).
func mayExport(p *prefilter.Package) bool {
	lex, err := p.Lexicon()
	if err != nil {
		return true
	}
	for _, imp := range p.Imports {
		if keys.NATSPackage(imp) {
			for _, name := range []string{"Publish", "PublishMsg", "PublishAsync", "PublishMsgAsync"} {
				if lex.Calls[name] {
					return true
				}
			}
		}
	}
	names, packageFacts := p.FactNames(new(publishFact), new(publishersFact))
	if !packageFacts {
		return false // no import has a function with a publishFact (publishersFact)
	}
	for name := range lex.Calls {
		if names[name] {
			return true
		}
	}
	return false
}
