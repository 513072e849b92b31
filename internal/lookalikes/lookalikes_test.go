package lookalikes_test

import (
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/internal/recall"
	"github.com/idemlint/idemlint/internal/testgopath"
)

// minLookalikes is the least number of look-alike functions the corpus
// must hold: with testdata/recall's look-alike ranges, at least as many
// look-alikes as testdata/recall has bugs (issue 47).
const minLookalikes = 70

// corpus is the written corpus, relative to this package's directory.
const corpus = "../../testdata/lookalikes"

// A lookalike is one function of the corpus whose doc comment has a
// "lookalike <checks> <source>: <shape>" line.
type lookalike struct {
	fn     string   // pkg.Func or pkg.(*T).Method
	checks []string // the checks whose bugs it mirrors
	source string   // the recall id or the testdata path it mirrors
	posn   token.Position
}

// A known is a line of known.txt: a finding the suite is expected to
// report in a look-alike, a precision bug.
type known struct {
	fn, check, status, reason string
	line                      int
}

// TestLookalikes runs the whole suite (every check the command runs, in
// its default configuration) over the written look-alike corpus and fails
// on every finding known.txt does not list, and on every known.txt line
// whose finding the suite no longer reports (a fix landed: remove it).
func TestLookalikes(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the look-alike corpus and runs the whole suite")
	}
	gopath := testgopath.Dir(t, corpus)
	pkgs := testgopath.Load(t, gopath, packages.LoadAllSyntax, "lookalikes/...")
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Errorf("%s: %v", p.PkgPath, e)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	funcs := lookalikes(t, pkgs)
	if len(funcs) < minLookalikes {
		t.Errorf("%d look-alikes, want at least %d", len(funcs), minLookalikes)
	}
	byFunc := make(map[string]*lookalike)
	for i := range funcs {
		byFunc[funcs[i].fn] = &funcs[i]
	}
	knowns := readKnown(t, filepath.Join(corpus, "known.txt"), byFunc)

	graph, err := checker.Analyze(analyzers.New(&analyzers.Config{}), pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	hit := make(map[string]bool)
	findings := 0
	for act := range graph.All() {
		if !act.IsRoot {
			continue
		}
		if act.Err != nil {
			t.Errorf("%s: %v", act, act.Err)
			continue
		}
		for _, d := range act.Diagnostics {
			findings++
			posn := act.Package.Fset.Position(d.Pos)
			fn := enclosing(act.Package, d.Pos)
			rel := relPath(gopath, posn)
			check := act.Analyzer.Name
			key := fn + " " + check
			if _, ok := knowns[key]; ok {
				hit[key] = true
				t.Logf("known: %s:%d: %s: %s", rel, posn.Line, check, d.Message)
				continue
			}
			t.Errorf("%s:%d: %s: %s (in %s; a false finding: fix the model, or list it in known.txt with a reason)", rel, posn.Line, check, d.Message, fn)
		}
	}
	for key, k := range knowns {
		if !hit[key] {
			t.Errorf("known.txt:%d: %s reports nothing in %s any more (%s): remove the line", k.line, k.check, k.fn, k.status)
		}
	}
	logCounts(t, funcs, knowns, findings)
}

// lookalikes returns the corpus's look-alike functions, each checked: its
// checks are the suite's, its source a recall id of testdata/recall or a
// path of the repository.
func lookalikes(t *testing.T, pkgs []*packages.Package) []lookalike {
	t.Helper()
	checks := analyzers.Checks()
	recallIDs := readRecallIDs(t)
	var out []lookalike
	for _, p := range pkgs {
		for _, f := range p.Syntax {
			for _, decl := range f.Decls {
				fd, ok := decl.(*ast.FuncDecl)
				if !ok || fd.Doc == nil {
					continue
				}
				for _, c := range fd.Doc.List {
					text, ok := strings.CutPrefix(c.Text, "// lookalike ")
					if !ok {
						continue
					}
					posn := p.Fset.Position(c.Pos())
					l, err := parseLookalike(text, checks, recallIDs)
					if err != nil {
						t.Errorf("%s:%d: %v", filepath.Base(posn.Filename), posn.Line, err)
						continue
					}
					l.fn = funcName(p.Types.Name(), fd)
					l.posn = posn
					out = append(out, l)
				}
			}
		}
	}
	return out
}

// parseLookalike parses "<check>[,<check>] <source>: <shape>".
func parseLookalike(text string, checks []string, recallIDs map[string]bool) (lookalike, error) {
	head, shape, ok := strings.Cut(text, ": ")
	fields := strings.Fields(head)
	if !ok || len(fields) != 2 || strings.TrimSpace(shape) == "" {
		return lookalike{}, fmt.Errorf("%q: want \"lookalike <check>[,<check>] <source>: <shape>\"", text)
	}
	var l lookalike
	for _, c := range strings.Split(fields[0], ",") {
		if !slices.Contains(checks, c) {
			return l, fmt.Errorf("%q: unknown check %q", text, c)
		}
		l.checks = append(l.checks, c)
	}
	l.source = fields[1]
	if strings.Contains(l.source, "/") {
		if _, err := os.Stat(filepath.Join("..", "..", l.source)); err != nil {
			return l, fmt.Errorf("%q: source %s: %v", text, l.source, err)
		}
	} else if !recallIDs[l.source] && l.source != "issue47" {
		return l, fmt.Errorf("%q: source %q is neither a bug of testdata/recall/bugs.txt, a path, nor issue47", text, l.source)
	}
	return l, nil
}

// readRecallIDs returns the ids of testdata/recall/bugs.txt's bugs.
func readRecallIDs(t *testing.T) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "recall", "bugs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := recall.Parse(data)
	if err != nil {
		t.Fatalf("bugs.txt: %v", err)
	}
	ids := make(map[string]bool)
	for _, e := range entries {
		if !e.Lookalike {
			ids[e.ID] = true
		}
	}
	return ids
}

// readKnown reads known.txt: "<func> <check> <status> <reason>", tab
// separated, status "pending" (a precision bug of issue 47 being fixed) or
// "new" (one this corpus found). Each line names a look-alike function of
// the corpus and a check of the suite: any check's finding in a look-alike
// is false, not only those of the checks whose bugs it mirrors.
func readKnown(t *testing.T, path string, byFunc map[string]*lookalike) map[string]known {
	t.Helper()
	checks := analyzers.Checks()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string]known)
	for i, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 || f[3] == "" || (f[2] != "pending" && f[2] != "new") {
			t.Errorf("known.txt:%d: want \"<func>\\t<check>\\t<pending|new>\\t<reason>\"", i+1)
			continue
		}
		k := known{fn: f[0], check: f[1], status: f[2], reason: f[3], line: i + 1}
		if byFunc[k.fn] == nil {
			t.Errorf("known.txt:%d: %s is no look-alike of the corpus", k.line, k.fn)
		}
		if !slices.Contains(checks, k.check) {
			t.Errorf("known.txt:%d: unknown check %q", k.line, k.check)
		}
		out[k.fn+" "+k.check] = k
	}
	return out
}

// enclosing returns the name of the function declaration of p that holds
// pos, or the file's base name when none does.
func enclosing(p *packages.Package, pos token.Pos) string {
	for _, f := range p.Syntax {
		if pos < f.FileStart || pos > f.FileEnd {
			continue
		}
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Pos() <= pos && pos <= fd.End() {
				return funcName(p.Types.Name(), fd)
			}
		}
		return filepath.Base(p.Fset.Position(f.FileStart).Filename)
	}
	return p.PkgPath
}

// funcName spells fd as pkg.Func, pkg.T.Method or pkg.(*T).Method.
func funcName(pkg string, fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return pkg + "." + fd.Name.Name
	}
	recv := fd.Recv.List[0].Type
	if star, ok := recv.(*ast.StarExpr); ok {
		return fmt.Sprintf("%s.(*%s).%s", pkg, typeName(star.X), fd.Name.Name)
	}
	return fmt.Sprintf("%s.%s.%s", pkg, typeName(recv), fd.Name.Name)
}

func typeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.IndexExpr:
		return typeName(e.X)
	case *ast.IndexListExpr:
		return typeName(e.X)
	}
	return fmt.Sprintf("%T", e)
}

func relPath(gopath string, posn token.Position) string {
	if rel, err := filepath.Rel(filepath.Join(gopath, "src"), posn.Filename); err == nil {
		return filepath.Join("testdata", "lookalikes", "src", rel)
	}
	return posn.Filename
}

// logCounts logs the corpus's look-alikes by check and by source.
func logCounts(t *testing.T, funcs []lookalike, knowns map[string]known, findings int) {
	byCheck := make(map[string]int)
	bySource := map[string]int{}
	for _, l := range funcs {
		for _, c := range l.checks {
			byCheck[c]++
		}
		switch {
		case l.source == "issue47":
			bySource["issue 47"]++
		case strings.Contains(l.source, "/"):
			bySource["checks' testdata"]++
		default:
			bySource["recall bug"]++
		}
	}
	var lines []string
	for c, n := range byCheck {
		lines = append(lines, fmt.Sprintf("%s %d", c, n))
	}
	sort.Strings(lines)
	t.Logf("%d look-alikes, %d findings (%d known): by check %s; mirroring %v", len(funcs), findings, len(knowns), strings.Join(lines, ", "), bySource)
}
