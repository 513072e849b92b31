package prefilter

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"sort"
	"testing"
)

const src = `package p

// select, for and <- in a comment, "for" and "<-" in strings
func F() {
	s := "for <- nil"
	(g)(s)
	x.M[int](1)
	h[K, V](2)
	((k))(3)
	_ = T(4) // a conversion is a call by name too
	_ = y.z
}
`

// TestScan checks that the lexicon holds every name a call calls by, and
// reads tokens, not comments or strings.
func TestScan(t *testing.T) {
	lex := Scan([][]byte{[]byte(src)})
	if lex.For || lex.Select || lex.Arrow || lex.Nil {
		t.Errorf("comments or strings read as tokens: %+v", lex)
	}
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	ast.Inspect(f, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			names = append(names, CallName(c))
		}
		return true
	})
	sort.Strings(names)
	if want := []string{"M", "T", "g", "h", "k"}; !slices.Equal(names, want) {
		t.Errorf("CallName of the calls: %q, want %q", names, want)
	}
	for _, n := range names {
		if !lex.Calls[n] {
			t.Errorf("lexicon lacks %s", n)
		}
	}
	if lex.Calls["z"] || lex.Calls["y"] {
		t.Errorf("lexicon holds names that are not called: %v", lex.Calls)
	}
	lex = Scan([][]byte{[]byte("package p\nfunc f() { for x != nil { select { case <-c: } } }\n")})
	if !lex.For || !lex.Select || !lex.Arrow || !lex.Nil {
		t.Errorf("tokens missed: %+v", lex)
	}
}
