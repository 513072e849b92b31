package testgopath_test

import (
	"go/types"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/idemlint/idemlint/internal/testgopath"
)

// TestOwnStubsMatch checks the stubs of idemlint's own runtime packages
// against the packages themselves: every exported name a stub declares
// exists in the real package with the same type (a stub struct may have
// a subset of the real fields, each with the real type), so that the
// checks' tests see the real signatures.
func TestOwnStubsMatch(t *testing.T) {
	paths := []string{"github.com/idemlint/idemlint/runtime/retry", "github.com/idemlint/idemlint/runtime/idempotency"}
	stubs := testgopath.Load(t, testgopath.Dir(t, t.TempDir()), packages.NeedTypes|packages.NeedName, paths...)
	// the runtime is a module of its own, beside the linter's
	real, err := packages.Load(&packages.Config{Mode: packages.NeedTypes | packages.NeedName, Dir: filepath.Join("..", "..", "runtime")}, paths...)
	if err != nil {
		t.Fatal(err)
	}
	byPath := make(map[string]*types.Package)
	for _, p := range real {
		byPath[p.PkgPath] = p.Types
	}
	qual := func(p *types.Package) string { return p.Name() }
	checked := 0
	for _, stub := range stubs {
		if len(stub.Errors) > 0 {
			t.Fatalf("stub %s: %v", stub.PkgPath, stub.Errors)
		}
		realPkg := byPath[stub.PkgPath]
		if realPkg == nil {
			t.Fatalf("no real package %s", stub.PkgPath)
		}
		scope := stub.Types.Scope()
		for _, name := range scope.Names() {
			obj := scope.Lookup(name)
			if !obj.Exported() {
				continue
			}
			checked++
			r := realPkg.Scope().Lookup(name)
			if r == nil {
				t.Errorf("%s.%s: not in the real package", stub.PkgPath, name)
				continue
			}
			st, ok := obj.Type().Underlying().(*types.Struct)
			if _, isType := obj.(*types.TypeName); isType && ok {
				rt, ok := r.Type().Underlying().(*types.Struct)
				if !ok {
					t.Errorf("%s.%s: a struct in the stub, %s in the real package", stub.PkgPath, name, r.Type().Underlying())
					continue
				}
				fields := make(map[string]string)
				for f := range rt.Fields() {
					fields[f.Name()] = types.TypeString(f.Type(), qual)
				}
				for f := range st.Fields() {
					if got, want := types.TypeString(f.Type(), qual), fields[f.Name()]; got != want {
						t.Errorf("%s.%s.%s: type %s in the stub, %q in the real package", stub.PkgPath, name, f.Name(), got, want)
					}
				}
			} else if got, want := types.ObjectString(obj, qual), types.ObjectString(r, qual); got != want {
				t.Errorf("stub: %s\nreal: %s", got, want)
			}
			if tn, ok := obj.(*types.TypeName); ok {
				checked += checkMethods(t, tn, r, qual)
			}
		}
	}
	if checked < 10 {
		t.Errorf("vacuous: %d declarations checked", checked)
	}
}

// checkMethods checks the methods of the stub's named type (and of its
// pointer) against the real type's, and returns how many it checked.
func checkMethods(t *testing.T, stub *types.TypeName, real types.Object, qual types.Qualifier) int {
	t.Helper()
	realSet := types.NewMethodSet(types.NewPointer(real.Type()))
	n := 0
	for sel := range types.NewMethodSet(types.NewPointer(stub.Type())).Methods() {
		m := sel.Obj()
		n++
		r := realSet.Lookup(m.Pkg(), m.Name()) // exported: the package does not matter
		if r == nil {
			t.Errorf("%s: method %s not in the real package", stub.Name(), m.Name())
		} else if got, want := types.TypeString(m.Type(), qual), types.TypeString(r.Obj().Type(), qual); got != want {
			t.Errorf("%s.%s: %s in the stub, %s in the real package", stub.Name(), m.Name(), got, want)
		}
	}
	return n
}
