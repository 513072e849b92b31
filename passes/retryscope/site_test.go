package retryscope

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"
)

// TestLibraryFilesSeeOnlySite checks that the library files (lib_*.go)
// and the helpers they share (backoff.go) reach the model only through a
// Site: no *model, def index or the Site's implementation, no model
// internals (info, res, pass) selected.
func TestLibraryFilesSeeOnlySite(t *testing.T) {
	files, err := filepath.Glob("lib_*.go")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, "backoff.go")
	if len(files) < 10 {
		t.Fatalf("vacuous: %d library files", len(files))
	}
	forbidden := map[string]bool{"defIndex": true, "DefIndex": true, "site": true}
	internals := map[string]bool{"info": true, "res": true, "pass": true, "di": true}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		keys := make(map[*ast.Ident]bool) // model: in a Library literal
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok {
					keys[id] = true
				}
			case *ast.SelectorExpr:
				if internals[n.Sel.Name] {
					t.Errorf("%s: selects the model's %s", fset.Position(n.Pos()), n.Sel.Name)
				}
			case *ast.Ident:
				if forbidden[n.Name] || n.Name == "model" && !keys[n] {
					t.Errorf("%s: names %s", fset.Position(n.Pos()), n.Name)
				}
			}
			return true
		})
	}
}

// TestEveryEntryModelled checks that every library of the table with
// entry points has a function modelling their calls, or is a Dials
// library whose dials grpc.go reads: an entry point nothing models would
// make no scope.
func TestEveryEntryModelled(t *testing.T) {
	n := 0
	for path, l := range registry {
		if len(l.Entries) == 0 {
			continue
		}
		n++
		if l.model == nil && !l.Dials {
			t.Errorf("%s: entry points %v and no model", path, l.Entries)
		}
	}
	if n < 10 {
		t.Errorf("vacuous: %d libraries with entry points", n)
	}
}
