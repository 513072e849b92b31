package driver

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"io"
	"log"
	"net/url"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/packages"

	"github.com/idemlint/idemlint/internal/prefilter"
)

// An action is one analyzer applied to one package. The actions form the
// same graph as the multichecker's (go/analysis/checker): an action
// depends on its analyzer's Requires on the same package and, when its
// analyzer has facts, on the same analyzer applied to each import. The
// graph decides what runs where and the order of the output; an action
// keeps only its outcome once its package is done.
type action struct {
	a      *analysis.Analyzer
	pkg    *packages.Package
	isRoot bool
	deps   []*action
	err    error
	// illTyped: err says only that the package does not type-check (the
	// analyzer does not run despite errors, or such a prerequisite failed);
	// the package's own errors, printed first, say why.
	illTyped bool
	diags    []diagnostic // roots only
}

func (act *action) String() string { return act.a.Name + "@" + act.pkg.ID }

// A pkgState is a package that some action analyses, and what is kept of it
// once it is done.
type pkgState struct {
	pkg        *packages.Package
	actions    []*action
	root       bool // some action is a root: the package is analysed whatever the prefilters say
	waits      int  // imports not yet done
	dependents []*pkgState
	illTyped   bool
	skipped    bool                 // the prefilters ruled out facts: not loaded, no action run
	cached     bool                 // the outcome (skipped, ruledOut, facts) was read from the dependency cache
	rejected   bool                 // prefilterCheck: the prefilters ruled out facts, but it was analysed
	ruledOut   []*analysis.Analyzer // analyzers whose prefilter ruled out facts while another's did not
	facts      []byte               // the package's own facts, gob-encoded
	factNames  []prefilter.FactName // the objects its facts are on
	pkgFacts   []reflect.Type       // the types of its package facts
	srcTypes   *types.Package       // types from source, kept only when there is no export data
}

type engine struct {
	states    map[*packages.Package]*pkgState
	ill       map[*packages.Package]bool // ill-typed packages that are not analysed
	factLog   io.Writer
	prefilter prefilterMode

	violationMu sync.Mutex
	violations  []string // prefilterCheck: packages a prefilter rejected that export facts

	typesMu sync.Mutex
	types   map[*packages.Package]typesResult // for prefilters: export data read once

	variantMu sync.Mutex
	variants  map[*packages.Package]bool

	cache     *depCache // nil: none
	keys      cacheKeys
	factTypes map[string]reflect.Type // by name, for the cache's entries
}

type graph struct {
	roots []*action
	// violations lists, in prefilterCheck mode, the packages whose facts a
	// prefilter wrongly ruled out.
	violations []string
	// analysed and skipped list the packages analysed and those the
	// prefilters skipped, by ID (those whose outcome the cache gave among
	// them, and in cached too); withFacts, those with facts, and
	// rejected, in prefilterCheck mode, those the prefilters ruled out;
	// partial, those where some analyzers' prefilters ruled out facts and
	// others' did not.
	analysed, skipped, withFacts, rejected, partial, cached []string
}

// analyze runs analyzers over the initial packages, in dependency order,
// with at most workers packages in memory at a time. Dependencies that
// are analysed only for facts are skipped when the prefilters of the
// analyzers with facts rule them out (mode); with a cache (not nil, mode
// prefilterOn, and no fact log: a dependency read from the cache would log
// none), the outcome of such a dependency is read from it when an earlier
// run kept it, and kept for the next run otherwise.
func analyze(analyzers []*analysis.Analyzer, initial []*packages.Package, workers int, factLog io.Writer, mode prefilterMode,
	cache *depCache) *graph {
	e := &engine{states: make(map[*packages.Package]*pkgState), ill: make(map[*packages.Package]bool), factLog: factLog,
		prefilter: mode, variants: make(map[*packages.Package]bool)}
	if cache != nil && mode == prefilterOn && factLog == nil {
		e.cache, e.factTypes = cache, factTypesOf(analyzers)
	}

	type key struct {
		a   *analysis.Analyzer
		pkg *packages.Package
	}
	actions := make(map[key]*action)
	var mkAction func(a *analysis.Analyzer, pkg *packages.Package) *action
	mkAction = func(a *analysis.Analyzer, pkg *packages.Package) *action {
		k := key{a, pkg}
		act, ok := actions[k]
		if ok {
			return act
		}
		act = &action{a: a, pkg: pkg}
		for _, req := range a.Requires {
			act.deps = append(act.deps, mkAction(req, pkg))
		}
		if len(a.FactTypes) > 0 {
			paths := make([]string, 0, len(pkg.Imports))
			for path := range pkg.Imports {
				paths = append(paths, path)
			}
			sort.Strings(paths)
			for _, path := range paths {
				act.deps = append(act.deps, mkAction(a, pkg.Imports[path]))
			}
		}
		actions[k] = act
		s := e.states[pkg]
		if s == nil {
			s = &pkgState{pkg: pkg}
			e.states[pkg] = s
		}
		s.actions = append(s.actions, act)
		return act
	}
	g := new(graph)
	for _, a := range analyzers {
		for _, pkg := range initial {
			root := mkAction(a, pkg)
			root.isRoot = true
			e.states[pkg].root = true
			g.roots = append(g.roots, root)
		}
	}
	registerFacts(analyzers)

	// Packages that are not analysed are imported from export data; they
	// are ill-typed when it is missing.
	var visit func(p *packages.Package) bool
	seen := make(map[*packages.Package]bool)
	visit = func(p *packages.Package) bool {
		if seen[p] {
			return e.ill[p]
		}
		seen[p] = true
		ill := p.PkgPath != "unsafe" && p.ExportFile == ""
		for _, imp := range p.Imports {
			if visit(imp) {
				ill = true
			}
		}
		if _, analysed := e.states[p]; !analysed {
			e.ill[p] = ill
		}
		return ill
	}
	for _, p := range initial {
		visit(p)
	}

	// Schedule: a package waits for the analysed packages it imports (their
	// facts, and whether they are ill-typed).
	for _, s := range e.states {
		for _, imp := range s.pkg.Imports {
			if is := e.states[imp]; is != nil {
				s.waits++
				is.dependents = append(is.dependents, s)
			}
		}
	}
	ready := make(chan *pkgState, len(e.states))
	for p := range packages.Postorder(initial) { // deterministic start
		if s := e.states[p]; s != nil && s.waits == 0 {
			ready <- s
		}
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	wg.Add(len(e.states))
	for range max(workers, 1) {
		go func() {
			w := new(worker)
			for s := range ready {
				e.process(s, w)
				mu.Lock()
				for _, d := range s.dependents {
					if d.waits--; d.waits == 0 {
						ready <- d
					}
				}
				mu.Unlock()
				wg.Done()
			}
		}()
	}
	wg.Wait()
	close(ready)
	g.violations = e.violations
	sort.Strings(g.violations)
	for _, s := range e.states {
		if s.skipped {
			g.skipped = append(g.skipped, s.pkg.ID)
		} else {
			g.analysed = append(g.analysed, s.pkg.ID)
		}
		if s.facts != nil {
			g.withFacts = append(g.withFacts, s.pkg.ID)
		}
		if s.rejected {
			g.rejected = append(g.rejected, s.pkg.ID)
		}
		if len(s.ruledOut) > 0 {
			g.partial = append(g.partial, s.pkg.ID)
		}
		if s.cached {
			g.cached = append(g.cached, s.pkg.ID)
		}
	}
	for _, ids := range [][]string{g.analysed, g.skipped, g.withFacts, g.rejected, g.partial, g.cached} {
		sort.Strings(ids)
	}
	return g
}

func registerFacts(analyzers []*analysis.Analyzer) {
	for _, a := range withRequired(analyzers) {
		for _, f := range a.FactTypes {
			registerFact(f)
		}
	}
}

// NewInfo returns the types.Info a pass gets: every map the type-checker
// fills.
func NewInfo() *types.Info {
	return &types.Info{
		Types:        make(map[ast.Expr]types.TypeAndValue),
		Defs:         make(map[*ast.Ident]types.Object),
		Uses:         make(map[*ast.Ident]types.Object),
		Implicits:    make(map[ast.Node]types.Object),
		Instances:    make(map[*ast.Ident]types.Instance),
		Scopes:       make(map[ast.Node]*types.Scope),
		Selections:   make(map[*ast.SelectorExpr]*types.Selection),
		FileVersions: make(map[*ast.File]string),
	}
}

// typed is one package parsed and type-checked: everything the passes
// see, dropped when the package is done.
type typed struct {
	fset     *token.FileSet
	files    []*ast.File
	pkg      *types.Package
	info     *types.Info
	errs     []types.Error
	universe map[string]*types.Package // the packages the type-checker imported, by path
}

func (e *engine) illTyped(p *packages.Package) bool {
	if s := e.states[p]; s != nil {
		return s.illTyped
	}
	return e.ill[p]
}

// load parses and type-checks s's package as go/packages does, importing
// its dependencies from export data, and records its errors in the
// package's Errors.
func (e *engine) load(s *pkgState, w *worker) *typed {
	p := s.pkg
	t := &typed{fset: token.NewFileSet(), universe: make(map[string]*types.Package)}
	if !e.variant(p) {
		w.reset(false)
		t.fset, t.universe = w.fset, w.universe
	}
	if p.PkgPath == "unsafe" {
		t.pkg, t.files, t.info = types.Unsafe, []*ast.File{}, NewInfo()
		return t
	}
	appendError := func(err error) {
		switch err := err.(type) {
		case packages.Error:
			p.Errors = append(p.Errors, err)
		case *os.PathError:
			p.Errors = append(p.Errors, packages.Error{Pos: err.Path + ":1", Msg: err.Err.Error(), Kind: packages.ParseError})
		case scanner.ErrorList:
			for _, err := range err {
				p.Errors = append(p.Errors, packages.Error{Pos: err.Pos.String(), Msg: err.Msg, Kind: packages.ParseError})
			}
		case types.Error:
			t.errs = append(t.errs, err)
			p.Errors = append(p.Errors, packages.Error{Pos: err.Fset.Position(err.Pos).String(), Msg: err.Msg, Kind: packages.TypeError})
		default:
			p.Errors = append(p.Errors, packages.Error{Pos: "-", Msg: err.Error(), Kind: packages.UnknownError})
			log.Printf("internal error: error %q (%T) without position", err, err)
		}
	}
	if len(p.CompiledGoFiles) == 0 && p.ExportFile != "" {
		appendError(packages.Error{Pos: "-", Msg: fmt.Sprintf("sources missing for package %s", p.ID), Kind: packages.ParseError})
		t.pkg, _ = e.readExport(t, p)
		return t
	}
	for _, name := range p.CompiledGoFiles {
		src, err := os.ReadFile(name)
		if err != nil {
			appendError(err)
			continue
		}
		f, err := parser.ParseFile(t.fset, name, src, parser.AllErrors|parser.ParseComments)
		if err != nil {
			appendError(err)
		}
		if f != nil {
			t.files = append(t.files, f)
		}
	}
	t.info = NewInfo()
	t.pkg = types.NewPackage(p.PkgPath, p.Name)
	conf := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) { return e.importPath(t, p, path) }),
		Error:    appendError,
		Sizes:    p.TypesSizes,
	}
	if p.Module != nil && p.Module.GoVersion != "" {
		conf.GoVersion = "go" + p.Module.GoVersion
	}
	typErr := types.NewChecker(conf, t.fset, t.pkg, t.info).Files(t.files)
	if typErr != nil && len(p.Errors) == 0 && len(t.files) > 0 {
		if msg := typErr.Error(); strings.HasPrefix(msg, "package requires newer Go version") {
			appendError(types.Error{Fset: t.fset, Pos: t.files[0].Package, Msg: msg})
		}
	}
	if typErr != nil && len(p.Errors) == 0 {
		appendError(typErr)
	}
	return t
}

// A worker is one goroutine that analyses packages one at a time. It
// keeps the packages it imported from export data, and the file set that
// holds their positions, from one package to the next, so that a
// dependency's export data is decoded once per worker rather than once
// per importing package; it starts afresh when they grow large. Packages
// in a test's graph, where a path can name two variants of a package (p
// and p [p.test]), use their own.
type worker struct {
	fset     *token.FileSet
	universe map[string]*types.Package
}

// Past this many imported packages a worker forgets them.
const maxUniverse = 400

// reset starts a new file set and universe if there is none or, when
// ifLarge, if the universe has grown past maxUniverse.
func (w *worker) reset(ifLarge bool) {
	if w.fset != nil && (!ifLarge || len(w.universe) <= maxUniverse) {
		return
	}
	w.fset, w.universe = token.NewFileSet(), make(map[string]*types.Package)
}

// variant reports whether p's graph holds a test variant of a package.
func (e *engine) variant(p *packages.Package) bool {
	e.variantMu.Lock()
	defer e.variantMu.Unlock()
	return e.variantLocked(p)
}

func (e *engine) variantLocked(p *packages.Package) bool {
	if v, ok := e.variants[p]; ok {
		return v
	}
	e.variants[p] = false // no cycles, but be safe
	v := p.ID != p.PkgPath
	for _, imp := range p.Imports {
		if e.variantLocked(imp) {
			v = true
		}
	}
	e.variants[p] = v
	return v
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

func (e *engine) importPath(t *typed, p *packages.Package, path string) (*types.Package, error) {
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	ip := p.Imports[path]
	if ip == nil {
		return nil, fmt.Errorf("no metadata for %s", path)
	}
	if tp := t.universe[ip.PkgPath]; tp != nil && tp.Complete() {
		return tp, nil
	}
	if ip.ExportFile == "" {
		// The package did not compile; the multichecker would type-check
		// it from source, and so did this driver if it analysed it.
		if s := e.states[ip]; s != nil && s.srcTypes != nil {
			return s.srcTypes, nil
		}
		return nil, fmt.Errorf("no export data for %s", ip.ID)
	}
	return e.readExport(t, ip)
}

func (e *engine) readExport(t *typed, ip *packages.Package) (*types.Package, error) {
	f, err := os.Open(ip.ExportFile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := gcexportdata.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %v", ip.ExportFile, err)
	}
	tp, err := gcexportdata.Read(r, t.fset, t.universe, ip.PkgPath)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %v", ip.ExportFile, err)
	}
	return tp, nil
}

// process analyses one package: parse, type-check, run its actions in
// order, then keep only their outcomes and the package's facts.
func (e *engine) process(s *pkgState, w *worker) {
	p := s.pkg
	if e.cache != nil {
		key, ok := e.cache.depKey(p, e.keys.get)
		if ok {
			e.keys.set(p, key)
		}
		if ok && e.mayRuleOut(s) {
			if en, hit := e.cache.get(key); hit && en.restore(s, e.factTypes) {
				return
			}
			defer func() {
				if en := entryOf(s); en != nil {
					e.cache.put(key, en)
				}
			}()
		}
	}
	var run map[*analysis.Analyzer]bool // nil: every action
	if e.prefilter != prefilterOff && e.mayRuleOut(s) {
		wanted, ruledOut := e.wantsFacts(s)
		switch {
		case len(wanted) == 0 && e.prefilter == prefilterOn:
			s.skipped = true
			return
		case len(wanted) == 0:
			s.rejected = true
		case len(ruledOut) > 0:
			// Only the analyzers that may export facts run, with what they
			// require; the others export none here, as if the package were
			// skipped for them.
			s.ruledOut = ruledOut
			if e.prefilter == prefilterOn {
				run = required(wanted)
			}
		}
	}
	t := e.load(s, w)
	defer func() {
		if t.fset == w.fset {
			// Keep only the positions of the imported packages.
			for _, f := range t.files {
				t.fset.RemoveFile(t.fset.File(f.FileStart))
			}
		}
		w.reset(true)
	}()
	ill := len(p.Errors) > 0
	for _, imp := range p.Imports {
		if e.illTyped(imp) {
			ill = true
		}
	}
	if p.PkgPath == "unsafe" {
		ill = false
	}
	s.illTyped = ill

	module := &analysis.Module{}
	if p.Module != nil {
		module = convertModule(p.Module)
	}
	facts := newFactSet(e, s, t)

	// Run the package's actions, each after its prerequisites.
	results := make(map[*analysis.Analyzer]any)
	done := make(map[*action]bool)
	var exec func(act *action)
	exec = func(act *action) {
		if done[act] {
			return
		}
		done[act] = true
		for _, dep := range act.deps {
			if dep.pkg == p {
				exec(dep)
			}
		}
		var failed []string
		illTyped := true
		for _, dep := range act.deps {
			if dep.err != nil {
				failed = append(failed, dep.String())
				illTyped = illTyped && dep.illTyped
			}
		}
		if failed != nil {
			sort.Strings(failed)
			act.err = fmt.Errorf("failed prerequisites: %s", strings.Join(failed, ", "))
			act.illTyped = illTyped
			return
		}
		inputs := make(map[*analysis.Analyzer]any)
		for _, dep := range act.deps {
			if dep.pkg == p {
				inputs[dep.a] = results[dep.a]
			}
		}
		var diags []analysis.Diagnostic
		pass := &analysis.Pass{
			Analyzer:     act.a,
			Fset:         t.fset,
			Files:        t.files,
			OtherFiles:   p.OtherFiles,
			IgnoredFiles: p.IgnoredFiles,
			Pkg:          t.pkg,
			TypesInfo:    t.info,
			TypesSizes:   p.TypesSizes,
			TypeErrors:   t.errs,
			Module:       module,
			ResultOf:     inputs,
			Report:       func(d analysis.Diagnostic) { diags = append(diags, d) },
		}
		facts.bind(pass)
		pass.ReadFile = checkedReadFile(pass)
		var result any
		result, act.err = func() (any, error) {
			if ill && !act.a.RunDespiteErrors {
				act.illTyped = true
				return nil, fmt.Errorf("analysis skipped due to errors in package")
			}
			result, err := act.a.Run(pass)
			if err != nil {
				return nil, err
			}
			if got, want := reflect.TypeOf(result), act.a.ResultType; got != want {
				return nil, fmt.Errorf(
					"internal error: on package %s, analyzer %s returned a result of type %v, but declared ResultType %v",
					pass.Pkg.Path(), pass.Analyzer, got, want)
			}
			for _, d := range diags {
				if err := checkURL(act.a, d); err != nil {
					return nil, err
				}
			}
			return result, nil
		}()
		pass.ExportObjectFact = nil
		pass.ExportPackageFact = nil
		results[act.a] = result
		if act.isRoot && act.err == nil {
			act.diags = resolve(t.fset, diags)
		}
	}
	for _, act := range s.actions {
		if run == nil || run[act.a] {
			exec(act)
		}
	}
	s.facts, s.factNames, s.pkgFacts = facts.encode()
	if len(s.ruledOut) > 0 && e.prefilter == prefilterCheck {
		if names := facts.namesOf(s.ruledOut); len(names) > 0 {
			e.violationMu.Lock()
			for _, a := range s.ruledOut {
				if len(names[a]) > 0 {
					e.violations = append(e.violations, fmt.Sprintf("%s: the prefilter of %s ruled out facts, but it has facts on %s",
						p.ID, a.Name, strings.Join(names[a], ", ")))
				}
			}
			e.violationMu.Unlock()
		}
	}
	if s.rejected && s.facts != nil {
		e.violationMu.Lock()
		var names []string
		for _, n := range s.factNames {
			names = append(names, n.Name)
		}
		e.violations = append(e.violations, fmt.Sprintf("%s: the prefilters ruled out facts, but it has facts on %s",
			p.ID, strings.Join(slices.Compact(names), ", ")))
		e.violationMu.Unlock()
	}
	if p.ExportFile == "" && t.pkg != types.Unsafe {
		s.srcTypes = t.pkg
	}
}

// checkURL reports the error the multichecker gives when a diagnostic's
// URL does not resolve against its analyzer's.
func checkURL(a *analysis.Analyzer, d analysis.Diagnostic) error {
	if d.URL == "" && d.Category == "" && a.URL == "" {
		return nil
	}
	raw := d.URL
	if d.URL == "" && d.Category != "" {
		raw = "#" + d.Category
	}
	if _, err := url.Parse(raw); err != nil {
		return fmt.Errorf("invalid Diagnostic.URL %q: %s", raw, err)
	}
	if _, err := url.Parse(a.URL); err != nil {
		return fmt.Errorf("invalid Analyzer.URL %q: %s", a.URL, err)
	}
	return nil
}

// checkedReadFile is Pass.ReadFile: only the package's own files.
func checkedReadFile(pass *analysis.Pass) func(string) ([]byte, error) {
	return func(filename string) ([]byte, error) {
		ok := slices.Contains(pass.OtherFiles, filename) || slices.Contains(pass.IgnoredFiles, filename)
		for _, f := range pass.Files {
			if !ok && pass.Fset.File(f.FileStart).Name() == filename {
				ok = true
			}
		}
		if !ok {
			return nil, fmt.Errorf("Pass.ReadFile: %s is not among OtherFiles, IgnoredFiles, or names of Files", filename)
		}
		return os.ReadFile(filename)
	}
}

func convertModule(m *packages.Module) *analysis.Module {
	if m == nil {
		return nil
	}
	out := &analysis.Module{
		Path:      m.Path,
		Version:   m.Version,
		Replace:   convertModule(m.Replace),
		Time:      m.Time,
		Main:      m.Main,
		Indirect:  m.Indirect,
		Dir:       m.Dir,
		GoMod:     m.GoMod,
		GoVersion: m.GoVersion,
	}
	if m.Error != nil {
		out.Error = &analysis.ModuleError{Err: m.Error.Err}
	}
	return out
}
