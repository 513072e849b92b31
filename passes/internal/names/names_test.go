package names

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

func TestOf(t *testing.T) {
	const src = `package p

import "net/http"

type T[K any] struct{}

func (*T[K]) M() {}

func F() {}

var _ = http.Get
var _ = (*http.Client).Do
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.Default()}
	pkg, err := conf.Check("example.com/x/p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	http := pkg.Imports()[0]
	do, _, _ := types.LookupFieldOrMethod(types.NewPointer(http.Scope().Lookup("Client").Type()), false, http, "Do")
	m, _, _ := types.LookupFieldOrMethod(types.NewPointer(pkg.Scope().Lookup("T").Type()), false, pkg, "M")
	for _, c := range []struct {
		obj  types.Object
		from *types.Package
		want string
	}{
		{http.Scope().Lookup("Get"), nil, "http.Get"},
		{do, nil, "(*http.Client).Do"},
		{do, pkg, "(*http.Client).Do"},
		{pkg.Scope().Lookup("F"), nil, "p.F"},
		{pkg.Scope().Lookup("F"), pkg, "F"},
		{m, nil, "(*p.T).M"},
		{m, pkg, "(*T).M"},
	} {
		if got := In(c.obj, c.from); got != c.want {
			t.Errorf("In(%v, %v) = %q, want %q", c.obj, c.from, got, c.want)
		}
	}
	get := http.Scope().Lookup("Get").(*types.Func)
	fF := pkg.Scope().Lookup("F").(*types.Func)
	for _, c := range []struct {
		fn    *types.Func
		fulls []string
		want  bool
	}{
		{get, []string{"net/http.Get"}, true},
		{get, []string{"net/http.Head", "net/http.Get"}, true},
		{get, []string{"example.com/other.Get", "(*net/http.Client).Get"}, false}, // same name, other function
		{get, []string{"net/http.Ge", "net/httpGet", "Get"}, false},
		{do.(*types.Func), []string{"(*net/http.Client).Do"}, true},
		{do.(*types.Func), []string{"(net/http.Client).Do"}, false},
		{m.(*types.Func), []string{"(*example.com/x/p.T[K]).M"}, m.(*types.Func).FullName() == "(*example.com/x/p.T[K]).M"},
		{fF, []string{"example.com/x/p.F"}, true},
		{fF, nil, false},
	} {
		if got := IsFull(c.fn, c.fulls...); got != c.want {
			t.Errorf("IsFull(%s, %q) = %v, want %v", c.fn.FullName(), c.fulls, got, c.want)
		}
	}
}
