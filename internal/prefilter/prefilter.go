// Package prefilter lets an analyzer that exports facts tell a driver,
// before a dependency is type-checked, that it cannot export any fact
// there. A driver that must analyse every dependency of the root packages
// for their facts (go/analysis does) can then skip most of them: no
// parsing with comments, no type-checking, no passes.
//
// A prefilter must be sound: it may answer true for a package where the
// analyzer exports nothing, never false for one where it exports a fact.
// Skipping a package changes no finding as long as that holds; the tests
// of each prefilter check it against the analyzer's own facts.
package prefilter

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"reflect"
	"slices"
	"sort"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// A Package is what a prefilter sees of a dependency: its metadata, what
// its transitive imports export, and, on demand, its source and syntax.
type Package struct {
	// Path is the package path.
	Path string
	// Files are the package's compiled Go files, in the order a driver
	// parses them.
	Files []string
	// Imports are the paths of the packages it imports.
	Imports []string
	// DependsOn reports whether match accepts the path of the package or
	// of one of its transitive imports.
	DependsOn func(match func(path string) bool) bool
	// FactNames reports the names of the objects on which the package's
	// transitive imports have facts of one of the types of, and whether
	// one of them has a package fact of one of those types. With no type
	// given, facts of every type count. A prefilter asks for the facts its
	// analyzer can import (its FactTypes) and those its required analyzers
	// can: a fact of another analyzer keeps no package for it.
	FactNames func(of ...analysis.Fact) (names map[string]bool, packageFacts bool)
	// Source returns the contents of Files, read on the first call. An
	// error means a file could not be read: the prefilter must answer
	// true.
	Source func() ([][]byte, error)
	// Lexicon returns what a scan of Source's tokens finds, computed on
	// the first call: cheaper than Syntax, for a first answer. An error
	// means a file could not be read.
	Lexicon func() (*Lexicon, error)
	// Syntax returns the package's files parsed without comments and
	// without object resolution; it parses them on the first call. An
	// error means a file did not parse: the prefilter must answer true.
	Syntax func() ([]*ast.File, error)
	// memo holds what Memo computed, by key.
	memo sync.Map

	// Types returns the types of one of the package's transitive imports,
	// by path, from the compiler's export data. An error means they are
	// not available: the prefilter must answer as if anything were there.
	Types func(path string) (*types.Package, error)
}

// Memo returns what f computes for the package under key, computing it on
// the first call with that key: what several prefilters derive from the
// same syntax (a loop filter) is derived once. Concurrent first calls may
// both compute it; one value is kept.
func (p *Package) Memo(key any, f func() any) any {
	if v, ok := p.memo.Load(key); ok {
		return v
	}
	v, _ := p.memo.LoadOrStore(key, f())
	return v
}

// A Lexicon is what a scan of a package's tokens finds, without parsing.
type Lexicon struct {
	// Calls holds every name that a call expression of the package can
	// call by (CallName): each identifier followed, after any closing
	// parentheses, by an opening parenthesis or bracket. It holds more
	// (conversions, declarations, indexed names), never less.
	Calls map[string]bool
	// For, Nil, Select and Arrow report whether the package has a for
	// keyword, the identifier nil, a select keyword, and the <- operator.
	For, Nil, Select, Arrow bool
	// Files are the lexicons of the package's files, in order (their own
	// Files are nil); the package's is their union. What must stand
	// together in one file (a loop and the call it waits by) is asked of
	// them.
	Files []*Lexicon
}

// Scan reads the lexicon of the sources of a package's files. It is a
// lexer of its own, several times faster than go/scanner: it skips
// comments, strings, runes and numbers, and takes every other word for an
// identifier (keywords too, and any byte above ASCII for a letter), which
// only adds names.
func Scan(srcs [][]byte) *Lexicon {
	lex := &Lexicon{Calls: make(map[string]bool)}
	for _, src := range srcs {
		f := &Lexicon{Calls: make(map[string]bool)}
		scanSource(f, src)
		for name := range f.Calls {
			lex.Calls[name] = true
		}
		lex.For, lex.Nil, lex.Select, lex.Arrow = lex.For || f.For, lex.Nil || f.Nil, lex.Select || f.Select, lex.Arrow || f.Arrow
		lex.Files = append(lex.Files, f)
	}
	return lex
}

func scanSource(lex *Lexicon, src []byte) {
	n := len(src)
	// pending is a word, src[pstart:pend], maybe followed by closing
	// parentheses; empty when pend == pstart.
	pstart, pend := 0, 0
	for i := 0; i < n; {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case c == '/' && i+1 < n && src[i+1] == '/':
			for i < n && src[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < n && src[i+1] == '*':
			i += 2
			for i < n && !(src[i] == '*' && i+1 < n && src[i+1] == '/') {
				i++
			}
			i += 2
			continue
		case c == ')':
			i++
			continue // keeps pending: (f)(x)
		case c == '"':
			for i++; i < n && src[i] != '"' && src[i] != '\n'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
			i++
		case c == '`':
			for i++; i < n && src[i] != '`'; i++ {
			}
			i++
		case c == '\'':
			for i++; i < n && src[i] != '\'' && src[i] != '\n'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
			i++
		case c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80:
			start := i
			for i < n && (src[i] == '_' || 'a' <= src[i] && src[i] <= 'z' || 'A' <= src[i] && src[i] <= 'Z' ||
				'0' <= src[i] && src[i] <= '9' || src[i] >= 0x80) {
				i++
			}
			switch string(src[start:i]) {
			case "for":
				lex.For = true
			case "select":
				lex.Select = true
			case "nil":
				lex.Nil = true
			default:
				pstart, pend = start, i
				continue
			}
		case '0' <= c && c <= '9':
			for i < n && (src[i] == '_' || src[i] == '.' || 'a' <= src[i] && src[i] <= 'z' || 'A' <= src[i] && src[i] <= 'Z' ||
				'0' <= src[i] && src[i] <= '9') {
				i++
			}
		case c == '(' || c == '[':
			if pend > pstart && !lex.Calls[string(src[pstart:pend])] {
				lex.Calls[string(src[pstart:pend])] = true
			}
			i++
		case c == '<' && i+1 < n && src[i+1] == '-':
			lex.Arrow = true
			i += 2
		default:
			i++
		}
		pstart, pend = 0, 0
	}
}

// A Func reports whether an analyzer may export facts for p. A driver
// skips p, and treats it as having no facts, when every analyzer with
// facts that would run on p has a Func and each says false.
type Func func(p *Package) bool

var registry sync.Map // *analysis.Analyzer → Func

// Register sets a's prefilter.
func Register(a *analysis.Analyzer, f Func) { registry.Store(a, f) }

// Lookup returns a's prefilter, or nil.
func Lookup(a *analysis.Analyzer) Func {
	if f, ok := registry.Load(a); ok {
		return f.(Func)
	}
	return nil
}

// CallName returns the name a call expression calls by: the identifier
// or the selected name of its function expression, through parentheses
// and type arguments; "" for other calls (of a function literal, of a
// call's result, of an index into a slice). For a call that statically
// calls a function or method, it is that function's or method's name.
func CallName(call *ast.CallExpr) string {
	f := ast.Unparen(call.Fun)
	for {
		switch x := f.(type) {
		case *ast.IndexExpr:
			f = ast.Unparen(x.X)
			continue
		case *ast.IndexListExpr:
			f = ast.Unparen(x.X)
			continue
		}
		break
	}
	switch x := f.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return x.Sel.Name
	}
	return ""
}

// A FactName is the name of an object that has a fact, and the fact's
// type.
type FactName struct {
	Name string
	Type reflect.Type
}

// Wants returns whether a fact's type is among those of of: a filter of
// FactNames (every type when of is empty).
func Wants(of []analysis.Fact) func(reflect.Type) bool {
	if len(of) == 0 {
		return func(reflect.Type) bool { return true }
	}
	want := make(map[reflect.Type]bool, len(of))
	for _, f := range of {
		want[reflect.TypeOf(f)] = true
	}
	return func(t reflect.Type) bool { return want[t] }
}

// FromPackages returns what a prefilter sees of p, a package that
// go/packages loaded with its files, imports and export data. facts
// reports, for one of p's transitive imports, the objects its facts are
// on and the types of its package facts (nothing for a package not
// analysed); typesOf returns one's types, from its export data.
func FromPackages(p *packages.Package, facts func(*packages.Package) (names []FactName, packageFacts []reflect.Type),
	typesOf func(*packages.Package) (*types.Package, error)) *Package {
	var imports []string
	for path := range p.Imports {
		imports = append(imports, path)
	}
	sort.Strings(imports)
	closure := sync.OnceValue(func() []*packages.Package { return transitiveImports(p) })
	dependsOn := func(match func(string) bool) bool {
		if match(p.PkgPath) {
			return true
		}
		for _, q := range closure() {
			if match(q.PkgPath) {
				return true
			}
		}
		return false
	}
	factNames := func(of ...analysis.Fact) (map[string]bool, bool) {
		wants := Wants(of)
		names := make(map[string]bool)
		pkgFacts := false
		for _, q := range closure() {
			ns, pf := facts(q)
			for _, n := range ns {
				if wants(n.Type) {
					names[n.Name] = true
				}
			}
			pkgFacts = pkgFacts || slices.ContainsFunc(pf, wants)
		}
		return names, pkgFacts
	}
	typesOfPath := func(path string) (*types.Package, error) {
		for _, q := range closure() {
			if q.PkgPath == path {
				return typesOf(q)
			}
		}
		return nil, fmt.Errorf("prefilter: %s does not import %s", p.PkgPath, path)
	}
	return New(p.PkgPath, p.CompiledGoFiles, imports, dependsOn, factNames, typesOfPath, token.NewFileSet())
}

// New returns what a prefilter sees of the package path whose compiled Go
// files are files and whose direct imports are imports, for a driver that
// knows its import graph and its dependencies' facts in its own way:
// dependsOn, factNames and typesOf are the Package's DependsOn, FactNames
// and Types. Source, Lexicon and Syntax read the files on demand; Syntax
// parses them into fset.
func New(path string, files, imports []string, dependsOn func(match func(string) bool) bool,
	factNames func(of ...analysis.Fact) (map[string]bool, bool), typesOf func(string) (*types.Package, error), fset *token.FileSet) *Package {
	pp := &Package{Path: path, Files: files, Imports: imports, DependsOn: dependsOn, FactNames: factNames, Types: typesOf}
	pp.readFiles()
	pp.Syntax = sync.OnceValues(func() ([]*ast.File, error) {
		srcs, err := pp.Source()
		if err != nil {
			return nil, err
		}
		var parsed []*ast.File
		for i, src := range srcs {
			f, err := parser.ParseFile(fset, files[i], src, parser.SkipObjectResolution)
			if err != nil {
				return nil, fmt.Errorf("prefilter: %v", err)
			}
			parsed = append(parsed, f)
		}
		return parsed, nil
	})
	return pp
}

// FromTypes returns what a prefilter sees of a type-checked package's
// imports (Path, Imports, DependsOn and Types), for tests that hold a
// prefilter to an analyzer's own results.
func FromTypes(pkg *types.Package) *Package {
	closure := make(map[string]*types.Package)
	var visit func(*types.Package)
	visit = func(q *types.Package) {
		if closure[q.Path()] != nil {
			return
		}
		closure[q.Path()] = q
		for _, imp := range q.Imports() {
			visit(imp)
		}
	}
	visit(pkg)
	p := &Package{Path: pkg.Path()}
	for _, imp := range pkg.Imports() {
		p.Imports = append(p.Imports, imp.Path())
	}
	p.DependsOn = func(match func(string) bool) bool {
		for path := range closure {
			if match(path) {
				return true
			}
		}
		return false
	}
	p.Types = func(path string) (*types.Package, error) {
		if q := closure[path]; q != nil && q != pkg {
			return q, nil
		}
		return nil, fmt.Errorf("prefilter: %s does not import %s", pkg.Path(), path)
	}
	return p
}

// readFiles sets Source and Lexicon, which read Files on their first call.
func (p *Package) readFiles() {
	p.Source = sync.OnceValues(func() ([][]byte, error) {
		var srcs [][]byte
		for _, name := range p.Files {
			src, err := os.ReadFile(name)
			if err != nil {
				return nil, fmt.Errorf("prefilter: %v", err)
			}
			srcs = append(srcs, src)
		}
		return srcs, nil
	})
	p.Lexicon = sync.OnceValues(func() (*Lexicon, error) {
		srcs, err := p.Source()
		if err != nil {
			return nil, err
		}
		return Scan(srcs), nil
	})
}

// FromPass returns FromTypes(pkg) with the package's own files: those of
// files, parsed into fset, whose sources Source, Lexicon and Syntax give;
// for tests that hold a prefilter to an analyzer's pass.
func FromPass(pkg *types.Package, fset *token.FileSet, files []*ast.File) *Package {
	p := FromTypes(pkg)
	for _, f := range files {
		p.Files = append(p.Files, fset.File(f.Pos()).Name())
	}
	p.readFiles()
	p.Syntax = func() ([]*ast.File, error) { return files, nil }
	return p
}

// transitiveImports returns the packages p imports, directly or not.
func transitiveImports(p *packages.Package) []*packages.Package {
	seen := map[*packages.Package]bool{p: true}
	var out []*packages.Package
	stack := []*packages.Package{p}
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, imp := range q.Imports {
			if !seen[imp] {
				seen[imp] = true
				out = append(out, imp)
				stack = append(stack, imp)
			}
		}
	}
	return out
}
