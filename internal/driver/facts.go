package driver

import (
	"bytes"
	"cmp"
	"encoding/gob"
	"fmt"
	"go/types"
	"log"
	"reflect"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/objectpath"

	"github.com/idemlint/idemlint/internal/prefilter"
)

// registerFact registers a fact type with gob, so that facts travel as
// interface values.
func registerFact(f analysis.Fact) { gob.Register(f) }

// A factEntry is one serialized fact: on an object of the package, named
// by its object path, or on the package itself (Object "").
type factEntry struct {
	Object objectpath.Path
	Fact   analysis.Fact
}

type objectKey struct {
	obj types.Object
	typ reflect.Type
}

// decoded is one dependency's facts decoded against the types.Package that
// the importing package sees (from export data, so with other object
// identities than the dependency's own source types).
type decoded struct {
	objects  map[objectKey]analysis.Fact
	packages map[reflect.Type]analysis.Fact
}

// A factSet holds the facts one package's passes see: those they export,
// and their dependencies', decoded on demand.
type factSet struct {
	e        *engine
	s        *pkgState
	t        *typed
	objects  map[objectKey]analysis.Fact
	packages map[reflect.Type]analysis.Fact
	closure  map[string]*pkgState // analysed dependencies by package path
	direct   map[*pkgState]bool
	cache    map[*pkgState]*decoded
}

func newFactSet(e *engine, s *pkgState, t *typed) *factSet {
	return &factSet{e: e, s: s, t: t, objects: make(map[objectKey]analysis.Fact), packages: make(map[reflect.Type]analysis.Fact)}
}

func (fs *factSet) bind(pass *analysis.Pass) {
	pass.ImportObjectFact = func(obj types.Object, ptr analysis.Fact) bool { return fs.importObject(pass, obj, ptr) }
	pass.ExportObjectFact = func(obj types.Object, fact analysis.Fact) { fs.exportObject(pass, obj, fact) }
	pass.ImportPackageFact = func(pkg *types.Package, ptr analysis.Fact) bool { return fs.importPackage(pass, pkg, ptr) }
	pass.ExportPackageFact = func(fact analysis.Fact) { fs.exportPackage(pass, fact) }
	pass.AllObjectFacts = func() []analysis.ObjectFact { return fs.allObjects(pass) }
	pass.AllPackageFacts = func() []analysis.PackageFact { return fs.allPackages(pass) }
}

func factType(fact analysis.Fact) reflect.Type {
	t := reflect.TypeOf(fact)
	if t.Kind() != reflect.Pointer {
		log.Fatalf("invalid Fact type: got %T, want pointer", fact)
	}
	return t
}

func (fs *factSet) exportObject(pass *analysis.Pass, obj types.Object, fact analysis.Fact) {
	if pass.ExportObjectFact == nil {
		log.Panicf("%s@%s: Pass.ExportObjectFact(%s, %T) called after Run", pass.Analyzer, fs.s.pkg, obj, fact)
	}
	if obj.Pkg() != pass.Pkg {
		log.Panicf("internal error: in analysis %s of package %s: Fact.Set(%s, %T): can't set facts on objects belonging another package",
			pass.Analyzer, fs.s.pkg, obj, fact)
	}
	fs.objects[objectKey{obj, factType(fact)}] = fact
	if w := fs.e.factLog; w != nil {
		fmt.Fprintf(w, "%s: object %s has fact %s\n", pass.Fset.Position(obj.Pos()), types.ObjectString(obj, (*types.Package).Name), fact)
	}
}

func (fs *factSet) exportPackage(pass *analysis.Pass, fact analysis.Fact) {
	if pass.ExportPackageFact == nil {
		log.Panicf("%s@%s: Pass.ExportPackageFact(%T) called after Run", pass.Analyzer, fs.s.pkg, fact)
	}
	fs.packages[factType(fact)] = fact
	if w := fs.e.factLog; w != nil && len(pass.Files) > 0 {
		fmt.Fprintf(w, "%s: package %s has fact %s\n", pass.Fset.Position(pass.Files[0].Pos()), pass.Pkg.Path(), fact)
	}
}

func copyFact(dst, src analysis.Fact) {
	reflect.ValueOf(dst).Elem().Set(reflect.ValueOf(src).Elem())
}

func (fs *factSet) importObject(pass *analysis.Pass, obj types.Object, ptr analysis.Fact) bool {
	if obj == nil {
		panic("nil object")
	}
	key := objectKey{obj, factType(ptr)}
	if obj.Pkg() == pass.Pkg {
		if f, ok := fs.objects[key]; ok {
			copyFact(ptr, f)
			return true
		}
		return false
	}
	if obj.Pkg() == nil {
		return false
	}
	dep := fs.dependency(obj.Pkg().Path())
	if dep == nil {
		return false
	}
	f, ok := fs.decode(dep, obj.Pkg()).objects[key]
	if !ok || !fs.visible(obj, dep) {
		return false
	}
	copyFact(ptr, f)
	return true
}

func (fs *factSet) importPackage(pass *analysis.Pass, pkg *types.Package, ptr analysis.Fact) bool {
	if pkg == nil {
		panic("nil package")
	}
	typ := factType(ptr)
	if pkg == pass.Pkg {
		if f, ok := fs.packages[typ]; ok {
			copyFact(ptr, f)
			return true
		}
		return false
	}
	dep := fs.dependency(pkg.Path())
	if dep == nil {
		return false
	}
	if f, ok := fs.decode(dep, pkg).packages[typ]; ok {
		copyFact(ptr, f)
		return true
	}
	return false
}

// allObjects returns every object fact the pass can see, as the
// multichecker would: the package's own, and those of its dependencies on
// objects the importing package can name.
func (fs *factSet) allObjects(pass *analysis.Pass) []analysis.ObjectFact {
	var out []analysis.ObjectFact
	for k, f := range fs.objects {
		out = append(out, analysis.ObjectFact{Object: k.obj, Fact: f})
	}
	fs.withFacts(false, func(_ *types.Package, dep *pkgState, d *decoded) {
		for k, f := range d.objects {
			if fs.visible(k.obj, dep) {
				out = append(out, analysis.ObjectFact{Object: k.obj, Fact: f})
			}
		}
	})
	return out
}

func (fs *factSet) allPackages(pass *analysis.Pass) []analysis.PackageFact {
	var out []analysis.PackageFact
	for _, f := range fs.packages {
		out = append(out, analysis.PackageFact{Package: pass.Pkg, Fact: f})
	}
	fs.withFacts(true, func(tp *types.Package, _ *pkgState, d *decoded) {
		for _, f := range d.packages {
			out = append(out, analysis.PackageFact{Package: tp, Fact: f})
		}
	})
	return out
}

// withFacts calls f with each analysed dependency that has facts, its
// package as the importing package sees it and its facts decoded against
// that. A dependency the importing package does not see (its types were
// not imported) is skipped, or, with standIn, given a package of its path
// and name that holds no object.
func (fs *factSet) withFacts(standIn bool, f func(tp *types.Package, dep *pkgState, d *decoded)) {
	fs.dependency("")
	for path, dep := range fs.closure {
		if dep.facts == nil {
			continue
		}
		tp := fs.t.universe[path]
		if tp == nil && !standIn {
			continue
		}
		if tp == nil {
			tp = types.NewPackage(path, dep.pkg.Name)
		}
		f(tp, dep, fs.decode(dep, tp))
	}
}

// dependency returns the analysed package that path names among the
// package's dependencies (the test variant, in a test's graph).
func (fs *factSet) dependency(path string) *pkgState {
	if fs.closure == nil {
		fs.closure = make(map[string]*pkgState)
		fs.direct = make(map[*pkgState]bool)
		seen := make(map[*packages.Package]bool)
		var visit func(p *packages.Package)
		visit = func(p *packages.Package) {
			for _, imp := range p.Imports {
				if seen[imp] {
					continue
				}
				seen[imp] = true
				if s := fs.e.states[imp]; s != nil {
					fs.closure[imp.PkgPath] = s
				}
				visit(imp)
			}
		}
		visit(fs.s.pkg)
		for _, imp := range fs.s.pkg.Imports {
			if s := fs.e.states[imp]; s != nil {
				fs.direct[s] = true
			}
		}
	}
	return fs.closure[path]
}

// visible reports whether a fact on obj, an object of dep, reaches the
// importing package in the multichecker, which passes facts one import
// edge at a time and keeps, at each edge, those on objects that the
// imported package's export data may mention.
func (fs *factSet) visible(obj types.Object, dep *pkgState) bool {
	if !exportedFrom(obj, obj.Pkg()) {
		return false
	}
	if fs.direct[dep] {
		return true
	}
	// Through an intermediate package, whose export data mentions only
	// methods, fields, types and constants of other packages.
	switch obj := obj.(type) {
	case *types.Func:
		return obj.Signature().Recv() != nil
	case *types.Var:
		return obj.IsField()
	case *types.TypeName, *types.Const:
		return true
	}
	return false
}

// exportedFrom reports whether obj may be visible to a package that
// imports pkg (the multichecker's rule).
func exportedFrom(obj types.Object, pkg *types.Package) bool {
	switch obj := obj.(type) {
	case *types.Func:
		return obj.Exported() && obj.Pkg() == pkg || obj.Signature().Recv() != nil
	case *types.Var:
		return obj.IsField() || obj.Pkg() == pkg
	case *types.TypeName, *types.Const:
		return true
	}
	return false
}

// decode decodes dep's facts against tp, dep's package as the importing
// package sees it. Objects that tp does not hold (not in the export data)
// are dropped: the importing package cannot name them.
func (fs *factSet) decode(dep *pkgState, tp *types.Package) *decoded {
	if fs.cache == nil {
		fs.cache = make(map[*pkgState]*decoded)
	}
	if d := fs.cache[dep]; d != nil {
		return d
	}
	d := &decoded{objects: make(map[objectKey]analysis.Fact), packages: make(map[reflect.Type]analysis.Fact)}
	fs.cache[dep] = d
	if dep.facts == nil {
		return d
	}
	var entries []factEntry
	if err := gob.NewDecoder(bytes.NewReader(dep.facts)).Decode(&entries); err != nil {
		log.Panicf("internal error: decoding facts of %s: %v", dep.pkg.ID, err)
	}
	for _, en := range entries {
		if en.Object == "" {
			d.packages[factType(en.Fact)] = en.Fact
			continue
		}
		obj, err := objectpath.Object(tp, en.Object)
		if err != nil {
			continue
		}
		d.objects[objectKey{obj, factType(en.Fact)}] = en.Fact
	}
	return d
}

// namesOf returns, for each of as that has facts that importers see (as
// encode keeps them) on the package's objects or on the package, the
// sorted names of those objects ("package" for a package fact).
func (fs *factSet) namesOf(as []*analysis.Analyzer) map[*analysis.Analyzer][]string {
	out := make(map[*analysis.Analyzer][]string)
	var enc objectpath.Encoder
	for _, a := range as {
		types := make(map[reflect.Type]bool)
		for _, f := range a.FactTypes {
			types[factType(f)] = true
		}
		var names []string
		for k := range fs.objects {
			if _, err := enc.For(k.obj); err == nil && types[k.typ] {
				names = append(names, k.obj.Name())
			}
		}
		for t := range fs.packages {
			if types[t] {
				names = append(names, "package")
			}
		}
		if len(names) > 0 {
			slices.Sort(names)
			out[a] = slices.Compact(names)
		}
	}
	return out
}

// encode serializes the package's own facts: object facts on objects that
// other packages can name (those with an object path), and package facts.
// It also returns the objects those facts are on, sorted, and the types of
// its package facts, for the prefilters of its importers.
func (fs *factSet) encode() (data []byte, names []prefilter.FactName, packageFacts []reflect.Type) {
	if len(fs.objects) == 0 && len(fs.packages) == 0 {
		return nil, nil, nil
	}
	var entries []factEntry
	var enc objectpath.Encoder
	for k, f := range fs.objects {
		path, err := enc.For(k.obj)
		if err != nil {
			continue
		}
		entries = append(entries, factEntry{Object: path, Fact: f})
		names = append(names, prefilter.FactName{Name: k.obj.Name(), Type: k.typ})
	}
	for t, f := range fs.packages {
		entries = append(entries, factEntry{Fact: f})
		packageFacts = append(packageFacts, t)
	}
	if len(entries) == 0 {
		return nil, nil, nil
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(entries); err != nil {
		log.Panicf("internal error: encoding facts of %s: %v", fs.s.pkg.ID, err)
	}
	slices.SortFunc(names, func(a, b prefilter.FactName) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Type.String(), b.Type.String()))
	})
	return buf.Bytes(), slices.Compact(names), packageFacts
}
