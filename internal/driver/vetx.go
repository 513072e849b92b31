package driver

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"go/types"
	"io"
	"os"
	"reflect"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/objectpath"
)

// The facts file of the vet-tool protocol, as x/tools v0.52.0's
// go/analysis/unitchecker writes and reads it (writeVetxFile,
// readVetxFile): "vetx", the lengths of the two parts as little-endian
// uint32s, the package's types (gcimporter.IExportData, which is
// gcexportdata.Write without its leading 'i'), then its facts
// (internal/facts: a gob of []gobFact, nothing when there are none). The
// facts part holds the package's own facts and those of its imports that
// are on methods, fields and types (a fact on another package or on
// another package's package-level function, variable or constant reaches
// direct importers only). Keep it in step with x/tools when go.mod
// updates it: the vet route's e2e test in check mode compares these
// files with unitchecker's byte for byte.

const vetxMagic = "vetx"

type vetxEntry struct {
	types, facts []byte
}

func readVetxFile(name string) (*vetxEntry, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	e, err := parseVetx(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return e, nil
}

func parseVetx(data []byte) (*vetxEntry, error) {
	if len(data) < 12 || string(data[:4]) != vetxMagic {
		return nil, fmt.Errorf("not a vetx file")
	}
	typesLen := binary.LittleEndian.Uint32(data[4:8])
	factsLen := binary.LittleEndian.Uint32(data[8:12])
	if uint64(12)+uint64(typesLen)+uint64(factsLen) > uint64(len(data)) {
		return nil, fmt.Errorf("invalid vetx file lengths")
	}
	return &vetxEntry{types: data[12 : 12+typesLen], facts: data[12+typesLen : 12+typesLen+factsLen]}, nil
}

func encodeVetx(typesData, factsData []byte) []byte {
	data := make([]byte, 12, 12+len(typesData)+len(factsData))
	copy(data, vetxMagic)
	binary.LittleEndian.PutUint32(data[4:8], uint32(len(typesData)))
	binary.LittleEndian.PutUint32(data[8:12], uint32(len(factsData)))
	data = append(data, typesData...)
	return append(data, factsData...)
}

// gobFact is internal/facts' serialized fact, field for field (gob
// matches fields by name).
type gobFact struct {
	PkgPath string          // path of package
	Object  objectpath.Path // optional path of object relative to package itself
	Fact    analysis.Fact   // type and value of user-defined Fact
}

func decodeFacts(data []byte) ([]gobFact, error) {
	if len(data) == 0 {
		return nil, nil
	}
	var facts []gobFact
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&facts); err != nil {
		return nil, fmt.Errorf("decoding facts: %v", err)
	}
	return facts, nil
}

// lookupFact returns the object a fact of an import is on, among the
// packages that m (importMap) holds; nil when it is not there, as
// internal/facts' Decoder discards it.
func lookupFact(m map[string]*types.Package, f gobFact) types.Object {
	pkg := m[f.PkgPath]
	if pkg == nil || f.Object == "" {
		return nil
	}
	obj, err := objectpath.Object(pkg, f.Object)
	if err != nil {
		return nil
	}
	return obj
}

// forwardFacts returns the facts part that unitchecker writes for pkg when
// pkg exports no fact of its own: its imports' facts decoded against pkg
// (facts.Decoder.Decode) and encoded again (facts.Set.Encode), which keeps
// those on methods, fields and types. lookup resolves a fact among the
// packages the types of the imports reach (a superset of importMap's,
// with the same *types.Package for a path), closure returns importMap of
// the imports (it may be a cached one): it is only asked for when a fact
// to pass on is of a package that is not a direct import (which importMap
// always holds), since the walk of every object of the imports costs.
func forwardFacts(pkg *types.Package, read func(path string) ([]gobFact, error), lookup func(gobFact) types.Object,
	closure func(imports []*types.Package) (map[string]*types.Package, error)) ([]byte, error) {
	type key struct {
		obj types.Object
		t   reflect.Type
	}
	var all [][]gobFact
	for _, imp := range pkg.Imports() {
		if imp.Path() == "unsafe" {
			continue
		}
		facts, err := read(imp.Path())
		if err != nil {
			return nil, err
		}
		if len(facts) > 0 {
			all = append(all, facts)
		}
	}
	if len(all) == 0 {
		return nil, nil // no import has a fact to pass on
	}
	var m map[string]*types.Package // importMap, when needed
	inImportMap := func(path string) (bool, error) {
		for _, imp := range pkg.Imports() {
			if imp.Path() == path {
				return true, nil
			}
		}
		if m == nil {
			var err error
			if m, err = closure(pkg.Imports()); err != nil {
				return false, err
			}
		}
		return m[path] != nil, nil
	}
	kept := make(map[key]analysis.Fact)
	for _, facts := range all {
		for _, f := range facts {
			if f.Object == "" {
				continue // a package fact: never passed on
			}
			obj := lookup(f)
			if obj == nil {
				continue
			}
			if _, isType := obj.(*types.TypeName); !isType && obj.Parent() == obj.Pkg().Scope() {
				continue // imported fact about package-level non-type object
			}
			if ok, err := inImportMap(f.PkgPath); err != nil {
				return nil, err
			} else if !ok {
				continue // unitchecker does not decode it
			}
			kept[key{obj, reflect.TypeOf(f.Fact)}] = f.Fact
		}
	}
	encoder := new(objectpath.Encoder)
	var out []gobFact
	for k, fact := range kept {
		path, err := encoder.For(k.obj)
		if err != nil {
			continue
		}
		out = append(out, gobFact{PkgPath: k.obj.Pkg().Path(), Object: path, Fact: fact})
	}
	if len(out) == 0 {
		return nil, nil
	}
	sort.Slice(out, func(i, j int) bool {
		x, y := out[i], out[j]
		if x.PkgPath != y.PkgPath {
			return x.PkgPath < y.PkgPath
		}
		if x.Object != y.Object {
			return x.Object < y.Object
		}
		return reflect.TypeOf(x.Fact).String() < reflect.TypeOf(y.Fact).String()
	})
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(out); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func sortedPackages(m map[string]*types.Package) []*types.Package {
	var pkgs []*types.Package
	for _, pkg := range m {
		pkgs = append(pkgs, pkg)
	}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].Path() < pkgs[j].Path() })
	return pkgs
}

// importMap returns every package that the types of imports reach, by
// path: internal/facts' importMap, the packages whose facts a package
// importing them can decode.
func importMap(imports []*types.Package) map[string]*types.Package {
	objects := make(map[types.Object]bool)
	typs := make(map[types.Type]bool) // Named, Alias and TypeParam
	packages := make(map[string]*types.Package)

	var addObj func(obj types.Object)
	var addType func(T types.Type)
	addObj = func(obj types.Object) {
		if !objects[obj] {
			objects[obj] = true
			addType(obj.Type())
			if pkg := obj.Pkg(); pkg != nil {
				packages[pkg.Path()] = pkg
			}
		}
	}
	addNamed := func(targs *types.TypeList, origin types.Type, obj *types.TypeName, tparams *types.TypeParamList) bool {
		for t := range targs.Types() {
			addType(t)
		}
		if typs[origin] {
			return false
		}
		typs[origin] = true
		addObj(obj)
		for tparam := range tparams.TypeParams() {
			addType(tparam)
		}
		return true
	}
	addType = func(T types.Type) {
		switch T := T.(type) {
		case *types.Basic:
		case *types.Alias:
			o := T.Origin()
			if addNamed(T.TypeArgs(), o, o.Obj(), o.TypeParams()) {
				addType(o.Rhs())
			}
		case *types.Named:
			o := T.Origin()
			if addNamed(T.TypeArgs(), o, o.Obj(), o.TypeParams()) {
				addType(o.Underlying())
				for method := range o.Methods() {
					addObj(method)
				}
			}
		case *types.Pointer:
			addType(T.Elem())
		case *types.Slice:
			addType(T.Elem())
		case *types.Array:
			addType(T.Elem())
		case *types.Chan:
			addType(T.Elem())
		case *types.Map:
			addType(T.Key())
			addType(T.Elem())
		case *types.Signature:
			addType(T.Params())
			addType(T.Results())
			for tparam := range T.TypeParams().TypeParams() {
				addType(tparam)
			}
		case *types.Struct:
			for field := range T.Fields() {
				addObj(field)
			}
		case *types.Tuple:
			for v := range T.Variables() {
				addObj(v)
			}
		case *types.Interface:
			for method := range T.Methods() {
				addObj(method)
			}
			for etyp := range T.EmbeddedTypes() {
				addType(etyp)
			}
		case *types.Union:
			for term := range T.Terms() {
				addType(term.Type())
			}
		case *types.TypeParam:
			if !typs[T] {
				typs[T] = true
				addObj(T.Obj())
				addType(T.Constraint())
			}
		}
	}
	for _, imp := range imports {
		packages[imp.Path()] = imp
		scope := imp.Scope()
		for _, name := range scope.Names() {
			addObj(scope.Lookup(name))
		}
	}
	return packages
}

// exportPaths returns the paths of the packages that the types part of
// path's facts file names (the manifest of the indexed export format,
// x/tools v0.52.0's gcimporter.iimportCommon): the packages that
// gcexportdata.Read enters in its package map when it reads the part,
// without decoding a declaration. The manifest follows the version, the
// lengths of the string and declaration sections and the sections
// themselves; each entry is the offsets of the path ("" for path itself)
// and name in the string section, the height, and the index of the
// package's objects (a count, then name offset and declaration offset
// pairs). An error means a format this reader does not know: the caller
// reads the types instead.
func exportPaths(data []byte, path string) ([]string, error) {
	r := bytes.NewReader(data)
	uvarint := func() uint64 {
		v, err := binary.ReadUvarint(r)
		if err != nil {
			panic(errBadManifest)
		}
		return v
	}
	var paths []string
	err := func() (err error) {
		defer func() {
			if e := recover(); e != nil {
				if e != errBadManifest {
					panic(e)
				}
				err = errBadManifest
			}
		}()
		switch uvarint() {
		case 0, 1, 2, 3: // iexportVersionGo1_11 to iexportVersionGenericMethods
		default:
			return errBadManifest
		}
		sLen, dLen := uvarint(), uvarint()
		start := uint64(len(data) - r.Len())
		if sLen > uint64(len(data)) || dLen > uint64(len(data)) || start+sLen+dLen > uint64(len(data)) {
			return errBadManifest
		}
		strs := data[start : start+sLen]
		if _, err := r.Seek(int64(start+sLen+dLen), io.SeekStart); err != nil {
			return errBadManifest
		}
		stringAt := func(off uint64) string {
			if off >= uint64(len(strs)) {
				panic(errBadManifest)
			}
			n, k := binary.Uvarint(strs[off:])
			if k <= 0 || n > uint64(len(strs))-off-uint64(k) {
				panic(errBadManifest)
			}
			return string(strs[off+uint64(k) : off+uint64(k)+n])
		}
		n := uvarint()
		if n > uint64(len(data)) {
			return errBadManifest
		}
		for range n {
			p := stringAt(uvarint())
			if p == "" {
				p = path
			}
			paths = append(paths, p)
			uvarint() // name
			uvarint() // height
			syms := uvarint()
			if syms > uint64(len(data)) {
				return errBadManifest
			}
			for range 2 * syms {
				uvarint()
			}
		}
		return nil
	}()
	return paths, err
}

var errBadManifest = errors.New("unknown export data manifest")
