package driver

import (
	"go/token"
	"go/types"
	"os"
	"reflect"

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

// wantsFacts reports whether some analyzer with facts that runs on s may
// export a fact there: one of them has no prefilter, or its prefilter
// says so. The package's other actions are there only for those
// analyzers (s is no root).
func (e *engine) wantsFacts(s *pkgState) bool {
	pp := e.prefilterPackage(s)
	for _, act := range s.actions {
		if len(act.a.FactTypes) == 0 {
			continue
		}
		f := prefilter.Lookup(act.a)
		if f == nil || f(pp) {
			return true
		}
	}
	return false
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
