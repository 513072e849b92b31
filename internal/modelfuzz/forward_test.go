package modelfuzz

import (
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestForwardedResults runs the suite over calls whose arguments are
// another call's results, f(g()): the call has one argument expression
// for several parameters (the shape of the unkeyedpost panic on
// http.NewRequestWithContext(args())). One file per package: every
// exported function and method of the library stubs and of the standard
// packages the model reads, with two parameters or more, called so in a
// retry loop and in a retry library's operation.
func TestForwardedResults(t *testing.T) {
	as, _ := suite()
	paths := []string{"time", "context", "net/http", "errors", "io", "crypto/rand", "math/rand", "math/rand/v2", "net", "os", "strconv", "sync"}
	root := filepath.Join("..", "..", "testdata", "stubs", "src")
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
			rel, _ := filepath.Rel(root, filepath.Dir(p))
			if !slices.Contains(paths, filepath.ToSlash(rel)) {
				paths = append(paths, filepath.ToSlash(rel))
			}
		}
		return nil
	})
	if len(paths) < 20 {
		t.Fatalf("found %d packages under %s", len(paths), root)
	}
	sort.Strings(paths)
	calls := 0
	for _, path := range paths {
		src, n, err := forwardedFile(path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if n == 0 {
			continue
		}
		calls += n
		t.Run(path, func(t *testing.T) {
			c, err := typeCheck(src)
			if err != nil {
				t.Fatalf("does not type-check: %v\n%s", err, src)
			}
			run(t, c, as)
		})
	}
	if calls < 300 {
		t.Errorf("generated %d calls, want hundreds", calls)
	}
}

// forwardedFile returns a file that calls every exported function and
// method of path with two parameters or more (without type parameters,
// with exported parameter types) through f(g()), and how many calls it
// makes.
func forwardedFile(path string) (string, int, error) {
	if _, err := typeCheck("package p\n"); err != nil { // sets up the shared importer
		return "", 0, err
	}
	pkg, err := sharedImp.Import(path)
	if err != nil {
		return "", 0, err
	}
	imports := map[string]string{"time": "time", "context": "context", "net/http": "http", "github.com/cenkalti/backoff/v4": "backoff", "github.com/avast/retry-go/v4": "retry"}
	alias := func(p *types.Package) string {
		if a, ok := imports[p.Path()]; ok {
			return a
		}
		a := fmt.Sprintf("i%d", len(imports))
		imports[p.Path()] = a
		return a
	}
	qual := func(p *types.Package) string {
		return alias(p)
	}
	var funcs []*types.Func
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		switch o := scope.Lookup(name).(type) {
		case *types.Func:
			if o.Exported() {
				funcs = append(funcs, o)
			}
		case *types.TypeName:
			if !o.Exported() || o.IsAlias() {
				continue
			}
			named, ok := o.Type().(*types.Named)
			if !ok || named.TypeParams().Len() > 0 {
				continue
			}
			mset := types.NewMethodSet(types.NewPointer(named))
			if types.IsInterface(named) {
				mset = types.NewMethodSet(named)
			}
			for sel := range mset.Methods() {
				if fn, ok := sel.Obj().(*types.Func); ok && fn.Exported() && fn.Pkg() == pkg {
					funcs = append(funcs, fn)
				}
			}
		}
	}
	var b strings.Builder
	n := 0
	for i, fn := range funcs {
		sig := fn.Signature()
		if sig.TypeParams().Len() > 0 || sig.RecvTypeParams().Len() > 0 || sig.Params().Len() < 2 {
			continue
		}
		params := sig.Params()
		ok := exportedType(params) && (sig.Recv() == nil || exportedType(sig.Recv().Type()))
		if !ok {
			continue
		}
		var results []string
		for j := range params.Len() {
			t := params.At(j).Type()
			if sig.Variadic() && j == params.Len()-1 {
				t = t.(*types.Slice).Elem()
				results = append(results, types.TypeString(t, qual)) // one variadic value more
			}
			results = append(results, types.TypeString(t, qual))
		}
		callee := alias(pkg) + "." + fn.Name()
		recv := ""
		if r := sig.Recv(); r != nil {
			recv = fmt.Sprintf("var r %s\n\t", types.TypeString(r.Type(), qual))
			callee = "r." + fn.Name()
		}
		call := fmt.Sprintf("%s(a%d())", callee, i)
		// The results flow on: each to a function of the package that
		// takes it (a request to http.Client.Do).
		use := call
		if res := sig.Results(); res.Len() > 0 && exportedType(res) {
			var names, sinks []string
			for k := range res.Len() {
				x := fmt.Sprintf("x%d", k)
				names = append(names, x)
				sinks = append(sinks, "_ = "+x)
				if sink := sinkCall(funcs, res.At(k).Type(), x, qual, alias); sink != "" {
					sinks = append(sinks, sink)
				}
			}
			use = strings.Join(names, ", ") + " := " + call + "\n\t\t" + strings.Join(sinks, "\n\t\t")
		}
		fmt.Fprintf(&b, "func a%d() (%s) { panic(0) }\n", i, strings.Join(results, ", "))
		fmt.Fprintf(&b, "func c%d(ctx context.Context) error {\n\t%sfor i := 0; i < 3; i++ {\n\t\t%s\n\t\ttime.Sleep(time.Second)\n\t}\n", i, recv, use)
		fmt.Fprintf(&b, "\tfor {\n\t\t%s\n\t\tif ctx.Err() != nil { break }\n\t\ttime.Sleep(time.Second)\n\t}\n", use)
		fmt.Fprintf(&b, "\treturn retry.Do(func() error {\n\t\t%s\n\t\treturn nil\n\t})\n}\n", use)
		n++
	}
	var head strings.Builder
	head.WriteString("package p\n\nimport (\n")
	for p, a := range imports {
		fmt.Fprintf(&head, "\t%s %q\n", a, p)
	}
	head.WriteString(")\n\nvar _ = http.MethodPost\nvar _ = backoff.Permanent\nvar _ = time.Second\n\n")
	return head.String() + b.String(), n, nil
}

// sinkCall returns a call that passes x, of type t, on: to
// http.DefaultClient.Do for a request, else to the first function of
// funcs that takes a t (the other arguments zero values); "" when none
// does.
func sinkCall(funcs []*types.Func, t types.Type, x string, qual types.Qualifier, alias func(*types.Package) string) string {
	if types.TypeString(t, nil) == "*net/http.Request" {
		return "http.DefaultClient.Do(" + x + ")"
	}
	for _, fn := range funcs {
		sig := fn.Signature()
		if sig.Recv() != nil || sig.TypeParams().Len() > 0 || !exportedType(sig.Params()) {
			continue
		}
		for j := range sig.Params().Len() {
			if !types.Identical(sig.Params().At(j).Type(), t) || sig.Variadic() && j == sig.Params().Len()-1 {
				continue
			}
			var args []string
			for k := range sig.Params().Len() {
				switch {
				case k == j:
					args = append(args, x)
				case sig.Variadic() && k == sig.Params().Len()-1:
				default:
					args = append(args, "*new("+types.TypeString(sig.Params().At(k).Type(), qual)+")")
				}
			}
			return alias(fn.Pkg()) + "." + fn.Name() + "(" + strings.Join(args, ", ") + ")"
		}
	}
	return ""
}

// exportedType reports whether t can be spelled outside its package.
func exportedType(t types.Type) bool {
	ok := true
	var visit func(t types.Type)
	visit = func(t types.Type) {
		switch t := t.(type) {
		case *types.Named:
			if t.Obj().Pkg() != nil && !t.Obj().Exported() || t.Obj().Pkg() != nil && strings.Contains(t.Obj().Pkg().Path(), "internal") {
				ok = false
			}
			for a := range t.TypeArgs().Types() {
				visit(a)
			}
		case *types.Alias:
			if t.Obj().Pkg() != nil && !t.Obj().Exported() {
				ok = false
			}
		case *types.Pointer:
			visit(t.Elem())
		case *types.Slice:
			visit(t.Elem())
		case *types.Array:
			visit(t.Elem())
		case *types.Map:
			visit(t.Key())
			visit(t.Elem())
		case *types.Chan:
			visit(t.Elem())
		case *types.Tuple:
			for v := range t.Variables() {
				visit(v.Type())
			}
		case *types.Signature:
			for v := range t.Params().Variables() {
				visit(v.Type())
			}
			for v := range t.Results().Variables() {
				visit(v.Type())
			}
		case *types.Struct:
			for f := range t.Fields() {
				if !f.Exported() {
					ok = false
				}
				visit(f.Type())
			}
		case *types.Interface:
			for m := range t.Methods() {
				if !m.Exported() {
					ok = false
				}
			}
		case *types.TypeParam:
			ok = false
		}
	}
	visit(t)
	return ok
}
