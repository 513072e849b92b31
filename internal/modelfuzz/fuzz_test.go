// Package modelfuzz fuzzes the retry model and every check over generated
// retry shapes: loops of every form, library calls with options made by
// calls through func values, method values, generic instantiations,
// conversions and builtins. A panic anywhere in the suite fails the
// fuzzer; the seeds and testdata/fuzz run in every go test.
package modelfuzz

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// stubImporter type-checks the shared library stubs (testdata/stubs/src)
// from source and takes everything else (the standard library) from
// export data, one instance per process so that every package sees the
// same types.
type stubImporter struct {
	fset *token.FileSet
	root string
	std  types.ImporterFrom
	mu   sync.Mutex
	pkgs map[string]*types.Package
}

func newStubImporter(fset *token.FileSet) (*stubImporter, error) {
	root, err := filepath.Abs(filepath.Join("..", "..", "testdata", "stubs", "src"))
	if err != nil {
		return nil, err
	}
	return &stubImporter{fset: fset, root: root, std: importer.ForCompiler(fset, "gc", nil).(types.ImporterFrom), pkgs: map[string]*types.Package{}}, nil
}

func (im *stubImporter) Import(path string) (*types.Package, error) {
	return im.ImportFrom(path, "", 0)
}

func (im *stubImporter) ImportFrom(path, dir string, mode types.ImportMode) (*types.Package, error) {
	im.mu.Lock()
	p, ok := im.pkgs[path]
	im.mu.Unlock()
	if ok {
		return p, nil
	}
	pdir := filepath.Join(im.root, filepath.FromSlash(path))
	if st, err := os.Stat(pdir); err != nil || !st.IsDir() {
		return im.std.ImportFrom(path, dir, mode)
	}
	ents, err := os.ReadDir(pdir)
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(im.fset, filepath.Join(pdir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	conf := types.Config{Importer: im, IgnoreFuncBodies: true}
	p, err = conf.Check(path, im.fset, files, nil)
	if err != nil {
		return nil, fmt.Errorf("stub %s: %v", path, err)
	}
	im.mu.Lock()
	im.pkgs[path] = p
	im.mu.Unlock()
	return p, nil
}

// checked is a generated file, parsed and type-checked.
type checked struct {
	fset  *token.FileSet
	files []*ast.File
	pkg   *types.Package
	info  *types.Info
}

var (
	sharedOnce sync.Once
	sharedFset *token.FileSet
	sharedImp  *stubImporter
	sharedErr  error
)

// typeCheck parses and type-checks src as package p; an error means the
// generator made code that does not compile.
func typeCheck(src string) (*checked, error) {
	sharedOnce.Do(func() {
		sharedFset = token.NewFileSet()
		sharedImp, sharedErr = newStubImporter(sharedFset)
	})
	if sharedErr != nil {
		return nil, sharedErr
	}
	f, err := parser.ParseFile(sharedFset, "p.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	info := &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Instances:    map[*ast.Ident]types.Instance{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		Scopes:       map[ast.Node]*types.Scope{},
		FileVersions: map[*ast.File]string{},
	}
	conf := types.Config{Importer: sharedImp, GoVersion: "go1.26"}
	pkg, err := conf.Check("p", sharedFset, []*ast.File{f}, info)
	if err != nil {
		return nil, err
	}
	return &checked{fset: sharedFset, files: []*ast.File{f}, pkg: pkg, info: info}, nil
}

// run runs analyzers and their prerequisites over c as one package, with
// facts kept within the package, and returns the diagnostics. Every fact
// exported must gob-encode, as the drivers store facts so.
func run(t testing.TB, c *checked, as []*analysis.Analyzer) []analysis.Diagnostic {
	type factKey struct {
		obj types.Object
		typ reflect.Type
	}
	facts := map[factKey]analysis.Fact{}
	pkgFacts := map[reflect.Type]analysis.Fact{}
	results := map[*analysis.Analyzer]any{}
	var diags []analysis.Diagnostic
	var exec func(a *analysis.Analyzer) any
	exec = func(a *analysis.Analyzer) any {
		if r, ok := results[a]; ok {
			return r
		}
		resultOf := map[*analysis.Analyzer]any{}
		for _, req := range a.Requires {
			resultOf[req] = exec(req)
		}
		encode := func(f analysis.Fact) {
			if err := gob.NewEncoder(&bytes.Buffer{}).Encode(f); err != nil {
				t.Fatalf("%s: fact %T does not gob-encode: %v", a.Name, f, err)
			}
		}
		pass := &analysis.Pass{
			Analyzer:   a,
			Fset:       c.fset,
			Files:      c.files,
			Pkg:        c.pkg,
			TypesInfo:  c.info,
			TypesSizes: types.SizesFor("gc", "amd64"),
			ResultOf:   resultOf,
			Report:     func(d analysis.Diagnostic) { diags = append(diags, d) },
			ReadFile:   os.ReadFile,
			ImportObjectFact: func(obj types.Object, f analysis.Fact) bool {
				v, ok := facts[factKey{obj, reflect.TypeOf(f)}]
				if ok {
					reflect.ValueOf(f).Elem().Set(reflect.ValueOf(v).Elem())
				}
				return ok
			},
			ExportObjectFact: func(obj types.Object, f analysis.Fact) {
				encode(f)
				facts[factKey{obj, reflect.TypeOf(f)}] = f
			},
			ImportPackageFact: func(_ *types.Package, f analysis.Fact) bool {
				v, ok := pkgFacts[reflect.TypeOf(f)]
				if ok {
					reflect.ValueOf(f).Elem().Set(reflect.ValueOf(v).Elem())
				}
				return ok
			},
			ExportPackageFact: func(f analysis.Fact) {
				encode(f)
				pkgFacts[reflect.TypeOf(f)] = f
			},
			AllObjectFacts: func() []analysis.ObjectFact {
				var out []analysis.ObjectFact
				for k, f := range facts {
					out = append(out, analysis.ObjectFact{Object: k.obj, Fact: f})
				}
				return out
			},
			AllPackageFacts: func() []analysis.PackageFact { return nil },
		}
		r, err := a.Run(pass)
		if err != nil {
			t.Fatalf("%s: %v", a.Name, err)
		}
		results[a] = r
		return r
	}
	for _, a := range as {
		exec(a)
	}
	return diags
}

// suite returns the analyzers of every check, and the retry model they share.
func suite() ([]*analysis.Analyzer, *analysis.Analyzer) {
	as := analyzers.New(&analyzers.Config{})
	var scope *analysis.Analyzer
	var walk func(a *analysis.Analyzer)
	walk = func(a *analysis.Analyzer) {
		if a.Name == retryscope.Name {
			scope = a
		}
		for _, r := range a.Requires {
			walk(r)
		}
	}
	for _, a := range as {
		walk(a)
	}
	return as, scope
}

// seeds are inputs the fuzzer starts from: each shape of BODY with its
// first productions, and inputs that once crashed the model.
func seeds() [][]byte {
	var out [][]byte
	for i := range grammar["BODY"] {
		out = append(out, []byte{byte(i)})
		out = append(out, []byte{byte(i), 1, 2, 3, 4, 5, 6, 7})
	}
	return out
}

func FuzzSuite(f *testing.F) {
	for _, s := range seeds() {
		f.Add(s)
	}
	as, _ := suite()
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := typeCheck(Generate(data))
		if err != nil {
			return // not valid Go: TestSeedsTypeCheck holds the seeds to compiling
		}
		run(t, c, as)
	})
}
