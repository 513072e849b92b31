package driver

import (
	"go/token"
	"go/types"
	"os"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/idemlint/idemlint/internal/prefilter"
)

// PrefilterEnv is the environment variable that sets the prefilter mode:
// "off" analyses every dependency that an analyzer with facts needs;
// "check" analyses them all too, and fails the run when a package that a
// prefilter ruled out exports a fact (the soundness test of make soak);
// anything else skips the packages the prefilters rule out.
const PrefilterEnv = "IDEMLINT_PREFILTER"

type prefilterMode int

const (
	prefilterOn prefilterMode = iota
	prefilterOff
	prefilterCheck
)

func prefilterModeFromEnv() prefilterMode {
	switch os.Getenv(PrefilterEnv) {
	case "off":
		return prefilterOff
	case "check":
		return prefilterCheck
	}
	return prefilterOn
}

// mayRuleOut reports whether s is a package the prefilters may skip: a
// dependency that no root needs analysed, that compiled (its importers
// read it from export data, and it has no errors to report), and whose
// imports did too.
func (e *engine) mayRuleOut(s *pkgState) bool {
	p := s.pkg
	if s.root || p.ExportFile == "" || p.PkgPath == "unsafe" || len(p.Errors) > 0 {
		return false
	}
	for _, imp := range p.Imports {
		if e.illTyped(imp) {
			return false
		}
	}
	return true
}

// wantsFacts returns the analyzers with facts that run on s and may
// export a fact there (those with no prefilter, and those whose prefilter
// says so), and the others, which it rules out; none wanted when the
// prefilters rule out every one. The package's other actions are there
// only for those analyzers (s is no root): process runs the wanted ones
// and what they require.
func (e *engine) wantsFacts(s *pkgState) (wanted, ruledOut []*analysis.Analyzer) {
	pp := e.prefilterPackage(s)
	for _, act := range s.actions {
		if len(act.a.FactTypes) == 0 {
			continue
		}
		if f := prefilter.Lookup(act.a); f == nil || f(pp) {
			wanted = append(wanted, act.a)
		} else {
			ruledOut = append(ruledOut, act.a)
		}
	}
	return wanted, ruledOut
}

// required returns the analyzers of as and those they require, directly
// or not.
func required(as []*analysis.Analyzer) map[*analysis.Analyzer]bool {
	need := make(map[*analysis.Analyzer]bool)
	for _, a := range withRequired(as) {
		need[a] = true
	}
	return need
}

// withRequired returns the analyzers of as and those they require,
// directly or not, each once and after those it requires.
func withRequired(as []*analysis.Analyzer) []*analysis.Analyzer {
	var out []*analysis.Analyzer
	seen := make(map[*analysis.Analyzer]bool)
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		for _, r := range a.Requires {
			visit(r)
		}
		out = append(out, a)
	}
	for _, a := range as {
		visit(a)
	}
	return out
}

// prefilterPackage is what the prefilters see of s's package; the facts
// of its transitive imports are those of the analysed ones, all done
// (they are processed first).
func (e *engine) prefilterPackage(s *pkgState) *prefilter.Package {
	return prefilter.FromPackages(s.pkg, func(q *packages.Package) ([]prefilter.FactName, []reflect.Type) {
		if qs := e.states[q]; qs != nil {
			return qs.factNames, qs.pkgFacts
		}
		return nil, nil
	}, e.exportTypes)
}

// exportTypes returns q's types from its export data, read once per run
// (prefilters ask for few packages, and many times).
func (e *engine) exportTypes(q *packages.Package) (*types.Package, error) {
	e.typesMu.Lock()
	defer e.typesMu.Unlock()
	if r, ok := e.types[q]; ok {
		return r.pkg, r.err
	}
	// A file set and package map of its own: the workers' are theirs.
	tp, err := e.readExport(&typed{fset: token.NewFileSet(), universe: make(map[string]*types.Package)}, q)
	if e.types == nil {
		e.types = make(map[*packages.Package]typesResult)
	}
	e.types[q] = typesResult{tp, err}
	return tp, err
}

type typesResult struct {
	pkg *types.Package
	err error
}
