package driver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/build"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/gcexportdata"

	"github.com/idemlint/idemlint/internal/prefilter"
)

// VetSkipLogEnv names a file to which the vet-tool protocol appends the
// path of each package run only for its facts that the prefilters rule
// out (skipped, or in check mode analysed anyway), one a line: for tests.
const VetSkipLogEnv = "IDEMLINT_VET_SKIPLOG"

// vetConfig is what the facts-only path reads of the .cfg file that go vet
// passes a vet tool (x/tools go/analysis/unitchecker.Config).
type vetConfig struct {
	ID          string
	ImportPath  string
	GoVersion   string
	GoFiles     []string
	ImportMap   map[string]string
	PackageVetx map[string]string
	VetxOnly    bool
	VetxOutput  string
}

// VetFactsOnly runs the vet-tool protocol for a package that go vet needs
// only for its facts (VetxOnly in the .cfg file cfgFile): when the
// prefilter of every analyzer with facts in suite (and what it requires)
// rules facts out, it writes the facts file without analysing the
// package, the package's types from a type-check without function bodies
// and the facts of its imports that unitchecker would pass on, and
// reports handled. Otherwise (a package to report on, a prefilter that
// says maybe, a package or an import that does not type-check, and with
// IDEMLINT_PREFILTER=off) it does nothing and the caller runs unitchecker.
// With IDEMLINT_PREFILTER=check, a package ruled out is analysed by
// unitchecker in a child process anyway, and the run fails when it
// exported a fact or when its facts file differs from the one written
// without the analysis.
func VetFactsOnly(cfgFile string, suite []*analysis.Analyzer) (code int, handled bool) {
	mode := prefilterModeFromEnv()
	if mode == prefilterOff {
		return 0, false
	}
	data, err := os.ReadFile(cfgFile)
	if err != nil {
		return 0, false
	}
	cfg := new(vetConfig)
	if err := json.Unmarshal(data, cfg); err != nil || !cfg.VetxOnly || cfg.VetxOutput == "" || len(cfg.GoFiles) == 0 {
		return 0, false
	}
	u := newVetUnit(cfg, factAnalyzers(suite))
	if !u.ruledOut() {
		return 0, false
	}
	vetx, err := u.vetx()
	if err != nil {
		return 0, false // unitchecker says why
	}
	logSkipped(cfg.ImportPath)
	if mode == prefilterCheck {
		if code := u.checkExportPaths(); code != 0 {
			return code, true
		}
		return u.check(vetx), true
	}
	if err := os.WriteFile(cfg.VetxOutput, vetx, 0o666); err != nil {
		fmt.Fprintf(os.Stderr, "idemlint: %v\n", err)
		return 1, true
	}
	return 0, true
}

// IsVetxOnly reports whether the vet tool's .cfg file cfgFile asks for a
// package's facts only (go vet reports nothing of it).
func IsVetxOnly(cfgFile string) bool {
	data, err := os.ReadFile(cfgFile)
	if err != nil {
		return false
	}
	cfg := new(vetConfig)
	return json.Unmarshal(data, cfg) == nil && cfg.VetxOnly
}

// FactsOnly makes every analyzer of suite that neither has facts nor is
// required by one that has (a check that only reports) do nothing, for a
// run that is only for the facts: its findings would be dropped anyway.
func FactsOnly(suite []*analysis.Analyzer) {
	needed := make(map[*analysis.Analyzer]bool)
	var require func(a *analysis.Analyzer)
	require = func(a *analysis.Analyzer) {
		if !needed[a] {
			needed[a] = true
			for _, req := range a.Requires {
				require(req)
			}
		}
	}
	for _, a := range factAnalyzers(suite) {
		require(a)
	}
	for _, a := range suite {
		if !needed[a] {
			a.Run = func(*analysis.Pass) (any, error) { return nil, nil }
		}
	}
}

// factAnalyzers returns the analyzers with facts among suite and what
// they require, each after those it requires (the model's prefilter, which
// reads syntax only, before nestedretry's, which may read types), with their fact types registered with gob (as unitchecker
// registers them) to read the facts of the imports.
func factAnalyzers(suite []*analysis.Analyzer) []*analysis.Analyzer {
	var out []*analysis.Analyzer
	for _, a := range withRequired(suite) {
		if len(a.FactTypes) > 0 {
			out = append(out, a)
			for _, f := range a.FactTypes {
				registerFact(f)
			}
		}
	}
	return out
}

func logSkipped(path string) {
	name := os.Getenv(VetSkipLogEnv)
	if name == "" {
		return
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
	if err != nil {
		return
	}
	f.WriteString(path + "\n") // one write: concurrent vet actions append whole lines
	f.Close()
}

// A vetUnit is one package of the vet-tool protocol, with the types of its
// direct imports read from their facts files (as unitchecker reads them,
// into one file set and one package map).
type vetUnit struct {
	cfg       *vetConfig
	analyzers []*analysis.Analyzer
	fset      *token.FileSet
	imports   func() (map[string]*types.Package, error) // direct imports by package path
	packages  map[string]*types.Package                 // every package their types reach
	entries   map[string]*vetxEntry
	decoded   map[string][]gobFact       // the facts of entries, decoded once
	objects   map[[2]string]types.Object // lookup's answers, by PkgPath and Object
	// closure returns importMap's packages for the direct imports, computed
	// once: FactNames and the facts file both resolve the imports' facts
	// in them.
	closure func() (map[string]*types.Package, error)
	pp      *prefilter.Package
}

func newVetUnit(cfg *vetConfig, analyzers []*analysis.Analyzer) *vetUnit {
	u := &vetUnit{cfg: cfg, analyzers: analyzers, fset: token.NewFileSet(), packages: make(map[string]*types.Package),
		entries: make(map[string]*vetxEntry), decoded: make(map[string][]gobFact), objects: make(map[[2]string]types.Object)}
	u.imports = sync.OnceValues(u.loadImports)
	imports := u.importPaths()
	// The packages the types of the direct imports reach: every package
	// their export data names, which the importer put in u.packages (a
	// superset of importMap's, which walks their objects, at no cost
	// beyond reading the imports, which the facts file needs anyway).
	reached := func() (map[string]*types.Package, error) {
		if _, err := u.imports(); err != nil {
			return nil, err
		}
		return u.packages, nil
	}
	// importMap's packages, whose facts unitchecker decodes: only needed
	// when an import has facts.
	u.closure = sync.OnceValues(func() (map[string]*types.Package, error) {
		direct, err := u.imports()
		if err != nil {
			return nil, err
		}
		return importMap(sortedPackages(direct)), nil
	})
	closure := u.closure
	// The paths of those packages, from the manifests of the imports'
	// export data, without reading their types (most prefilters ask
	// DependsOn only; a package kept for a call they find is read again
	// by unitchecker), or from the types once they are read.
	reachedPaths := sync.OnceValue(func() []string {
		paths, err := u.exportPaths(imports)
		if err != nil {
			m, err := reached()
			if err != nil {
				return nil
			}
			paths = paths[:0]
			for path := range m {
				paths = append(paths, path)
			}
		}
		return paths
	})
	dependsOn := func(match func(string) bool) bool {
		if match(cfg.ImportPath) {
			return true
		}
		paths := reachedPaths()
		if paths == nil {
			return true // the analysis will not run: nothing to promise
		}
		return slices.ContainsFunc(paths, match)
	}
	factNames := func(of ...analysis.Fact) (map[string]bool, bool) {
		wants := prefilter.Wants(of)
		names := make(map[string]bool)
		var all [][]gobFact
		for _, path := range imports {
			facts, err := u.facts(path)
			if err != nil {
				return nil, true
			}
			if len(facts) > 0 {
				all = append(all, facts)
			}
		}
		if len(all) == 0 {
			return names, false // no import has a fact
		}
		m, err := reached()
		if err != nil {
			return nil, true
		}
		// The names resolve in every package the imports' types reach,
		// a superset of importMap's, which costs a walk of every object
		// of the imports: a name more keeps a package more, a name fewer
		// would lose a fact. A package fact is one unitchecker decodes
		// when its package is in importMap: surely so for a direct import;
		// for another, importMap says.
		pkgFacts := false
		for _, facts := range all {
			for _, f := range facts {
				if !wants(reflect.TypeOf(f.Fact)) {
					continue
				}
				if f.Object == "" {
					if !pkgFacts && m[f.PkgPath] != nil {
						if slices.Contains(imports, f.PkgPath) {
							pkgFacts = true
						} else if cm, err := closure(); err != nil || cm[f.PkgPath] != nil {
							pkgFacts = true
						}
					}
					continue
				}
				if obj := u.lookup(f); obj != nil {
					names[obj.Name()] = true
				}
			}
		}
		return names, pkgFacts
	}
	typesOf := func(path string) (*types.Package, error) {
		m, err := reached()
		if err != nil {
			return nil, err
		}
		if pkg := m[path]; pkg != nil {
			return pkg, nil
		}
		return nil, fmt.Errorf("prefilter: %s does not import %s", cfg.ImportPath, path)
	}
	u.pp = prefilter.New(cfg.ImportPath, cfg.GoFiles, imports, dependsOn, factNames, typesOf, u.fset)
	return u
}

// exportPaths returns the paths of the packages the export data of the
// direct imports names (exportPaths), the keys of the package map that
// reading their types fills, each once.
func (u *vetUnit) exportPaths(imports []string) ([]string, error) {
	seen := make(map[string]bool)
	var out []string
	for _, path := range imports {
		e, err := u.entry(path)
		if err != nil {
			return nil, err
		}
		paths, err := exportPaths(e.types, path)
		if err != nil {
			return nil, err
		}
		for _, p := range paths {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	if len(imports) == 0 {
		out = []string{} // not nil: the answer is "none"
	}
	return out, nil
}

// importPaths returns the paths of the package's direct imports, as the
// facts files name them, sorted, without unsafe and cgo's C (which the
// files that cgo wrote do not import).
func (u *vetUnit) importPaths() []string {
	var paths []string
	for _, path := range u.cfg.ImportMap {
		if path != "unsafe" && path != "C" && !slices.Contains(paths, path) {
			paths = append(paths, path)
		}
	}
	sort.Strings(paths)
	return paths
}

// ruledOut reports whether every analyzer with facts has a prefilter and
// each rules facts out, with every import's facts file at hand.
func (u *vetUnit) ruledOut() bool {
	for _, path := range u.importPaths() {
		if u.cfg.PackageVetx[path] == "" {
			return false // an import that failed: unitchecker reports it
		}
	}
	for _, a := range u.analyzers {
		f := prefilter.Lookup(a)
		if f == nil || f(u.pp) {
			return false
		}
	}
	return true
}

func (u *vetUnit) entry(path string) (*vetxEntry, error) {
	if e := u.entries[path]; e != nil {
		return e, nil
	}
	file := u.cfg.PackageVetx[path]
	if file == "" {
		return nil, fmt.Errorf("no facts file for %s", path)
	}
	e, err := readVetxFile(file)
	if err != nil {
		return nil, err
	}
	u.entries[path] = e
	return e, nil
}

// facts returns the facts of the import path, decoded from its facts
// file once (the prefilters' FactNames and the facts file both read them;
// neither changes them).
func (u *vetUnit) facts(path string) ([]gobFact, error) {
	if facts, ok := u.decoded[path]; ok {
		return facts, nil
	}
	e, err := u.entry(path)
	if err != nil {
		return nil, err
	}
	facts, err := decodeFacts(e.facts)
	if err != nil {
		return nil, err
	}
	u.decoded[path] = facts
	return facts, nil
}

// lookup returns the object a fact of an import is on, among the packages
// the types of the direct imports reach (read), nil when it is not there.
func (u *vetUnit) lookup(f gobFact) types.Object {
	k := [2]string{f.PkgPath, string(f.Object)}
	obj, ok := u.objects[k]
	if !ok {
		obj = lookupFact(u.packages, f)
		u.objects[k] = obj
	}
	return obj
}

// importMapOf returns importMap(imports), the packages whose facts a
// package that imports them decodes: the closure computed for the
// prefilters when imports are the direct imports (and unsafe, which
// holds no fact), as they are for a package that type-checks.
func (u *vetUnit) importMapOf(imports []*types.Package) (map[string]*types.Package, error) {
	direct, err := u.imports()
	if err != nil {
		return nil, err
	}
	n := 0
	for _, imp := range imports {
		if imp.Path() == "unsafe" {
			continue
		}
		if direct[imp.Path()] != imp {
			return importMap(imports), nil
		}
		n++
	}
	if n != len(direct) {
		return importMap(imports), nil
	}
	return u.closure()
}

// loadImports reads the types of the direct imports from their facts
// files, as unitchecker's importer does.
func (u *vetUnit) loadImports() (map[string]*types.Package, error) {
	direct := make(map[string]*types.Package)
	for _, path := range u.importPaths() {
		e, err := u.entry(path)
		if err != nil {
			return nil, err
		}
		pkg, err := gcexportdata.Read(bytes.NewReader(append([]byte{'i'}, e.types...)), u.fset, u.packages, path)
		if err != nil {
			return nil, err
		}
		direct[path] = pkg
	}
	return direct, nil
}

// vetx returns the facts file unitchecker would write for the package when
// it exports no fact: its types, type-checked without function bodies (the
// export data holds none), and the facts of its imports that unitchecker
// passes on (facts.Set.Encode).
func (u *vetUnit) vetx() ([]byte, error) {
	direct, err := u.imports()
	if err != nil {
		return nil, err
	}
	files, err := u.pp.Syntax()
	if err != nil {
		return nil, err
	}
	tc := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			p, ok := u.cfg.ImportMap[path]
			if !ok {
				return nil, fmt.Errorf("can't resolve import %q", path)
			}
			if p == "unsafe" {
				return types.Unsafe, nil
			}
			if pkg := direct[p]; pkg != nil {
				return pkg, nil
			}
			return nil, fmt.Errorf("no package vetx file for %q", p)
		}),
		Sizes:            types.SizesFor("gc", build.Default.GOARCH),
		GoVersion:        u.cfg.GoVersion,
		IgnoreFuncBodies: true,
	}
	pkg, err := tc.Check(u.cfg.ImportPath, u.fset, files, nil)
	if err != nil {
		return nil, err
	}
	var typesData bytes.Buffer
	if err := gcexportdata.Write(&typesData, u.fset, pkg); err != nil {
		return nil, err
	}
	factsData, err := forwardFacts(pkg, u.facts, u.lookup, u.importMapOf)
	if err != nil {
		return nil, err
	}
	return encodeVetx(typesData.Bytes()[1:], factsData), nil // without gcexportdata's 'i'
}

// checkExportPaths holds the packages DependsOn saw, from the manifests of
// the imports' export data, to those that reading their types entered in
// the package map (read by now): in check mode, a difference fails the run.
func (u *vetUnit) checkExportPaths() int {
	paths, err := u.exportPaths(u.importPaths())
	if err != nil {
		return 0 // DependsOn read the types
	}
	var read []string
	for path := range u.packages {
		read = append(read, path)
	}
	slices.Sort(paths)
	slices.Sort(read)
	if !slices.Equal(paths, read) {
		fmt.Fprintf(os.Stderr, "idemlint: %s=check: %s: the export data manifests of the imports name %v, reading their types entered %v\n",
			PrefilterEnv, u.cfg.ID, paths, read)
		return 1
	}
	return 0
}

// check analyses a package the prefilters ruled out, in a child process
// that runs unitchecker (IDEMLINT_PREFILTER=off), and holds its facts file
// to vetx, the one written without the analysis.
func (u *vetUnit) check(vetx []byte) int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(os.Stderr, "idemlint: %v\n", err)
		return 1
	}
	cmd := exec.Command(exe, os.Args[1:]...)
	cmd.Env = append(os.Environ(), PrefilterEnv+"=off")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "idemlint: %s=check: the prefilters ruled out %s, whose analysis failed (%v), but the facts-only path writes facts for it\n",
			PrefilterEnv, u.cfg.ID, err)
		return 1
	}
	got, err := os.ReadFile(u.cfg.VetxOutput)
	if err != nil {
		fmt.Fprintf(os.Stderr, "idemlint: %v\n", err)
		return 1
	}
	e, err := parseVetx(got)
	if err == nil {
		var facts []gobFact
		if facts, err = decodeFacts(e.facts); err == nil {
			var own []string
			for _, f := range facts {
				if f.PkgPath == u.cfg.ImportPath {
					own = append(own, fmt.Sprintf("%T on %q", f.Fact, f.Object))
				}
			}
			if len(own) > 0 {
				fmt.Fprintf(os.Stderr, "idemlint: %s=check: the prefilters ruled out %s, which exports facts: %s\n",
					PrefilterEnv, u.cfg.ID, strings.Join(own, ", "))
				return 1
			}
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "idemlint: %s: %v\n", u.cfg.VetxOutput, err)
		return 1
	}
	if !bytes.Equal(got, vetx) {
		want, _ := parseVetx(vetx)
		part := "types"
		if bytes.Equal(e.types, want.types) {
			part = "facts"
		}
		fmt.Fprintf(os.Stderr, "idemlint: %s=check: %s: the facts file written without analysis differs from unitchecker's (%s)\n",
			PrefilterEnv, u.cfg.ID, part)
		return 1
	}
	return 0
}
