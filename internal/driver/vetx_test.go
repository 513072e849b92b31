package driver

import (
	"bytes"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"

	"golang.org/x/tools/go/gcexportdata"
)

// exportOf type-checks src as the package path, its imports from pkgs,
// and returns its export data as a facts file holds it (without the 'i').
func exportOf(t *testing.T, fset *token.FileSet, path, src string, pkgs map[string]*types.Package) (*types.Package, []byte) {
	t.Helper()
	f, err := parser.ParseFile(fset, path+".go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	std := importer.ForCompiler(fset, "gc", nil)
	tc := &types.Config{Importer: importerFunc(func(p string) (*types.Package, error) {
		if pkg := pkgs[p]; pkg != nil {
			return pkg, nil
		}
		return std.Import(p)
	})}
	pkg, err := tc.Check(path, fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := gcexportdata.Write(&buf, fset, pkg); err != nil {
		t.Fatal(err)
	}
	return pkg, buf.Bytes()[1:]
}

// TestExportPaths holds the paths that exportPaths reads from the manifest
// of export data to the packages that gcexportdata.Read enters in its
// package map, which DependsOn under go vet stood for before.
func TestExportPaths(t *testing.T) {
	fset := token.NewFileSet()
	pkgs := make(map[string]*types.Package)
	a, _ := exportOf(t, fset, "example.com/a", `package a
import "time"
type T struct{ D time.Duration }
func (T) M() error { return nil }
`, pkgs)
	pkgs["example.com/a"] = a
	c, _ := exportOf(t, fset, "example.com/c", `package c
func Hidden() {}
`, pkgs)
	pkgs["example.com/c"] = c
	_, data := exportOf(t, fset, "example.com/b", `package b
import (
	"example.com/a"
	"example.com/c"
)
var _ = c.Hidden
func F(x a.T) {}
func G[P any](p P) P { return p }

`, pkgs)

	read := make(map[string]*types.Package)
	if _, err := gcexportdata.Read(bytes.NewReader(append([]byte{'i'}, data...)), token.NewFileSet(), read, "example.com/b"); err != nil {
		t.Fatal(err)
	}
	var want []string
	for path := range read {
		want = append(want, path)
	}
	got, err := exportPaths(data, "example.com/b")
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("exportPaths = %v, gcexportdata.Read enters %v", got, want)
	}
	for _, p := range []string{"example.com/a", "example.com/b", "time"} {
		if !slices.Contains(got, p) {
			t.Errorf("exportPaths = %v, want %s among them", got, p)
		}
	}

	// Truncated or changed export data is an error, never a panic or a
	// wrong list.
	for n := range len(data) {
		if paths, err := exportPaths(data[:n], "example.com/b"); err == nil && !slices.Equal(slices.Sorted(slices.Values(paths)), want) {
			t.Fatalf("exportPaths of %d of %d bytes = %v, no error", n, len(data), paths)
		}
	}
	bad := slices.Clone(data)
	bad[0] = 9 // an unknown version
	if _, err := exportPaths(bad, "example.com/b"); err == nil {
		t.Errorf("exportPaths of version 9: no error")
	}
}
