package driver

import (
	"bytes"
	"encoding/json"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// testGraph is a graph of one root package with one finding that has
// related information and a fix, in a file whose line has a non-ASCII
// character before the finding, plus a second analyzer that failed.
func testGraph(t *testing.T) (g *graph, root string, a, b *analysis.Analyzer) {
	t.Helper()
	root = t.TempDir()
	file := filepath.Join(root, "p", "p.go")
	src := "package p\n\nvar s = \"é𝄞\"; var x = f()\n"
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	at := func(line, col int) token.Position {
		off := 0
		for range line - 1 {
			off += strings.IndexByte(src[off:], '\n') + 1
		}
		return token.Position{Filename: file, Offset: off + col - 1, Line: line, Column: col}
	}
	xPos := strings.Index(src, "x =") - strings.LastIndexByte(src[:strings.Index(src, "x =")], '\n')
	a = &analysis.Analyzer{Name: "alpha", Doc: "alpha: report alphas\n\nThe long story.", URL: "https://example.com/docs/alpha.md"}
	b = &analysis.Analyzer{Name: "beta", Doc: "beta: report betas"}
	pkg := &packages.Package{ID: "example.com/m/p"}
	d := diagnostic{
		posn: at(3, xPos), end: at(3, xPos+1), jsonEnd: at(3, xPos+1),
		message: "x is, in: 100%\nbad",
		related: []related{{posn: at(3, 5), end: at(3, 6), jsonEnd: at(3, 6), message: "s is here"}},
		fixes:   []fix{{message: "Rename x", edits: []edit{{start: at(3, xPos), end: at(3, xPos+1), new: "y"}}}},
	}
	g = &graph{roots: []*action{
		{a: a, pkg: pkg, isRoot: true, diags: []diagnostic{d, d}}, // the same finding twice (p and p.test)
		{a: b, pkg: pkg, isRoot: true, err: os.ErrInvalid},
	}}
	return g, root, a, b
}

func TestTextNamesTheCheck(t *testing.T) {
	g, _, _, _ := testGraph(t)
	var out bytes.Buffer
	if err := g.printText(&out, -1); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "p.go:3:23: x is, in: 100%\nbad (alpha)\n") || !strings.Contains(out.String(), "p.go:3:5: \ts is here\n") {
		t.Errorf("text output:\n%s", out.String())
	}
	if strings.Count(out.String(), "(alpha)") != 1 || !strings.Contains(out.String(), "beta: invalid argument") {
		t.Errorf("want one finding and beta's error:\n%s", out.String())
	}
	if g.exitCode() != 1 {
		t.Errorf("exit code %d with an analysis error, want 1", g.exitCode())
	}
}

func TestGitHub(t *testing.T) {
	g, root, _, _ := testGraph(t)
	var out bytes.Buffer
	if err := g.printGitHub(&out, root); err != nil {
		t.Fatal(err)
	}
	want := "::error title=beta::example.com/m/p: invalid argument\n" +
		"::warning file=p/p.go,line=3,col=23,endLine=3,endColumn=24,title=alpha::x is, in: 100%25%0Abad%0Ap/p.go:3:5: s is here\n"
	if out.String() != want {
		t.Errorf("github output:\n%s\nwant:\n%s", out.String(), want)
	}
	if ghProperty("a:b,c%") != "a%3Ab%2Cc%25" {
		t.Errorf("ghProperty(%q) = %q", "a:b,c%", ghProperty("a:b,c%"))
	}
}

func TestSARIF(t *testing.T) {
	g, root, a, b := testGraph(t)
	var out bytes.Buffer
	if err := g.printSARIF(&out, &output{analyzers: []*analysis.Analyzer{a, b}, root: root, version: "v1.2.3", pkgErrors: []string{"p.go:1:1: broken"}}); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(out.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if d := run.Tool.Driver; d.Version != "1.2.3" || len(d.Rules) != 2 || d.Rules[0].ID != "alpha" ||
		d.Rules[0].ShortDescription.Text != "report alphas." || d.Rules[0].HelpURI != a.URL || d.Rules[0].FullDescription.Text != "The long story." {
		t.Errorf("driver: %+v", d)
	}
	if len(run.Results) != 1 {
		t.Fatalf("%d results, want 1 (the duplicate dropped)", len(run.Results))
	}
	r := run.Results[0]
	loc := r.Locations[0].PhysicalLocation
	// "é" (2 bytes) is one UTF-16 unit, "𝄞" (4 bytes) two: byte column 23
	// is column 20.
	if r.RuleID != "alpha" || r.RuleIndex != 0 || loc.ArtifactLocation != (sarifArtifactLocation{URI: "p/p.go", URIBaseID: srcRoot}) ||
		loc.Region != (sarifRegion{StartLine: 3, StartColumn: 20, EndLine: 3, EndColumn: 21}) {
		t.Errorf("result: %+v", r)
	}
	if len(r.RelatedLocations) != 1 || r.RelatedLocations[0].Message.Text != "s is here" || *r.RelatedLocations[0].ID != 1 {
		t.Errorf("related: %+v", r.RelatedLocations)
	}
	if len(r.Fixes) != 1 || r.Fixes[0].Description.Text != "Rename x" ||
		r.Fixes[0].ArtifactChanges[0].Replacements[0].InsertedContent.Text != "y" ||
		r.Fixes[0].ArtifactChanges[0].Replacements[0].DeletedRegion.StartColumn != 20 {
		t.Errorf("fixes: %+v", r.Fixes)
	}
	if inv := run.Invocations[0]; inv.ExecutionSuccessful || len(inv.Notifications) != 2 {
		t.Errorf("invocation: %+v", inv)
	}
	if got := run.OriginalURIBaseIDs[srcRoot].URI; got != fileURI(root)+"/" {
		t.Errorf("%s = %s", srcRoot, got)
	}
	validateSARIF(t, out.Bytes())
}

// validateSARIF checks log with Microsoft's SARIF multitool (make test
// installs it in bin/sarif): it must report no error and no warning.
// Without the multitool the test is skipped, unless IDEMLINT_E2E_SARIF=1
// (set by make test), when it fails.
func validateSARIF(t *testing.T, log []byte) {
	t.Helper()
	tool := sarifMultitool()
	if _, err := os.Stat(tool); err != nil {
		if os.Getenv("IDEMLINT_E2E_SARIF") == "1" {
			t.Fatalf("IDEMLINT_E2E_SARIF=1 but the SARIF multitool is missing (%v): make sarif-multitool installs it", err)
		}
		t.Skipf("no SARIF multitool at %s (make sarif-multitool installs it)", tool)
	}
	runMultitool(t, tool, log)
}

// sarifMultitool is the validator's path: $IDEMLINT_SARIF_MULTITOOL, or
// bin/sarif/node_modules/.bin/sarif-multitool in the checkout.
func sarifMultitool() string {
	if p := os.Getenv("IDEMLINT_SARIF_MULTITOOL"); p != "" {
		return p
	}
	p, _ := filepath.Abs("../../bin/sarif/node_modules/.bin/sarif-multitool")
	return p
}

// runMultitool runs the multitool's validate over log and fails t on
// every result it reports.
func runMultitool(t *testing.T, tool string, log []byte) {
	t.Helper()
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.sarif"), filepath.Join(dir, "validation.sarif")
	if err := os.WriteFile(in, log, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tool, "validate", in, "-o", out)
	msgs, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sarif-multitool validate: %v\n%s", err, msgs)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Runs []struct {
			Results []json.RawMessage `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Runs) != 1 {
		t.Fatalf("sarif-multitool validate wrote %d runs:\n%s", len(v.Runs), data)
	}
	if len(v.Runs[0].Results) > 0 {
		t.Errorf("sarif-multitool validate found problems:\n%s\nin:\n%s", msgs, log)
	}
}

func TestFormatFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string // "" when the command line must not parse
	}{
		{[]string{"./..."}, formatText},
		{[]string{"-json", "./..."}, formatJSON},
		{[]string{"-format", "sarif", "./..."}, formatSARIF},
		{[]string{"-format=github", "./..."}, formatGitHub},
		{[]string{"-json", "-format=json", "./..."}, formatJSON},
		{[]string{"-json", "-format=sarif", "./..."}, ""},
		{[]string{"-format=xml", "./..."}, ""},
	} {
		o, ok := parseFlags(c.args, nil, nil)
		switch {
		case c.want == "" && ok:
			t.Errorf("%q parsed (format %q)", c.args, o.format)
		case c.want != "" && !ok:
			t.Errorf("%q did not parse", c.args)
		case ok && o.format != c.want:
			t.Errorf("%q: format %q, want %q", c.args, o.format, c.want)
		}
	}
}
