package prefilter

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
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

// TestScanAgainstScanner compares Scan with a lexicon read by go/scanner
// over real sources (parts of the standard library and this module): the
// same tokens, and calls a superset of the names go/scanner sees called.
func TestScanAgainstScanner(t *testing.T) {
	var files []string
	for _, dir := range []string{filepath.Join(runtime.GOROOT(), "src", "net", "http"), filepath.Join(runtime.GOROOT(), "src", "go", "types"), "../../passes/retryscope"} {
		m, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 100 {
		t.Fatalf("%d files", len(files))
	}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		got, want := Scan([][]byte{src}), scanReference(src)
		if got.For != want.For || got.Nil != want.Nil || got.Select != want.Select || got.Arrow != want.Arrow {
			t.Errorf("%s: tokens %+v, go/scanner %+v", name, got, want)
		}
		for n := range want.Calls {
			if !got.Calls[n] {
				t.Errorf("%s: Scan lacks the call name %s", name, n)
			}
		}
	}
}

// scanReference reads a lexicon with go/scanner.
func scanReference(src []byte) *Lexicon {
	lex := &Lexicon{Calls: make(map[string]bool)}
	var s scanner.Scanner
	s.Init(token.NewFileSet().AddFile("", -1, len(src)), src, nil, 0)
	pending := ""
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		switch tok {
		case token.IDENT:
			if lit == "nil" {
				lex.Nil = true
				pending = ""
			} else {
				pending = lit
			}
			continue
		case token.RPAREN:
			continue
		case token.LPAREN, token.LBRACK:
			if pending != "" {
				lex.Calls[pending] = true
			}
		case token.FOR:
			lex.For = true
		case token.SELECT:
			lex.Select = true
		case token.ARROW:
			lex.Arrow = true
		}
		pending = ""
	}
	return lex
}

func BenchmarkScan(b *testing.B) {
	m, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "net", "http", "*.go"))
	var srcs [][]byte
	size := 0
	for _, name := range m {
		src, _ := os.ReadFile(name)
		srcs = append(srcs, src)
		size += len(src)
	}
	b.SetBytes(int64(size))
	b.Run("Scan", func(b *testing.B) {
		for b.Loop() {
			Scan(srcs)
		}
	})
	b.Run("goscanner", func(b *testing.B) {
		for b.Loop() {
			for _, src := range srcs {
				scanReference(src)
			}
		}
	})
	b.Run("parser", func(b *testing.B) {
		for b.Loop() {
			fset := token.NewFileSet()
			for _, src := range srcs {
				parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
			}
		}
	})
}
