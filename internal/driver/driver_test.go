package driver

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/internal/testgopath"
)

// analyzeDir loads patterns in dir with the driver and returns its text
// output (package errors, then analysis errors and findings) and the exit
// code the driver computes. It analyses twice: once with every dependency
// analysed and the prefilters checked against the facts (a package they
// rule out must export none), once skipping what they rule out; both runs
// must print the same.
func analyzeDir(t *testing.T, dir string, tests bool, patterns ...string) (string, int) {
	t.Helper()
	t.Chdir(dir)
	var outs [2]string
	var codes [2]int
	for i, mode := range []prefilterMode{prefilterCheck, prefilterOn} {
		initial, err := load(patterns, tests)
		if err != nil {
			t.Fatalf("load: %v", err)
		}
		var cfg analyzers.Config
		g := analyze(analyzers.New(&cfg), initial, 2, nil, mode, nil)
		for _, v := range g.violations {
			t.Errorf("prefilter: %s", v)
		}
		var out bytes.Buffer
		if printErrors(&out, initial) > 0 {
			codes[i] = 1
		}
		if err := g.printText(&out, -1); err != nil {
			t.Fatal(err)
		}
		outs[i], codes[i] = out.String(), max(codes[i], g.exitCode())
	}
	if outs[0] != outs[1] || codes[0] != codes[1] {
		t.Errorf("skipping what the prefilters rule out changes the output:\nall analysed (exit %d):\n%s\nskipped (exit %d):\n%s",
			codes[0], outs[0], codes[1], outs[1])
	}
	return outs[1], codes[1]
}

const goMod = "module example.com/m\n\ngo 1.26\n"

// TestFactsFromExportData checks that a fact exported while analysing a
// dependency reaches the package that calls it, although that package
// sees the dependency through export data, not through the dependency's
// own source types; both when the dependency is analysed as a root and
// when it is only a dependency.
func TestFactsFromExportData(t *testing.T) {
	dir := crossPkg(t)
	for _, patterns := range [][]string{{"./..."}, {"./pay"}} {
		out, code := analyzeDir(t, dir, true, patterns...)
		for _, want := range []string{
			"pay/pay.go:14:16: lib.Sync reaches retry loop (4 attempts) inside a retry loop (3 attempts), up to 3×4 = 12 calls",
			"pay/pay.go:17:14: (*lib.Client).Post reaches retry loop (4 attempts) inside a retry, up to 3×4 = 12 calls",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: output lacks %q:\n%s", patterns, want, out)
			}
		}
		if code != 3 {
			t.Errorf("%v: exit code %d, want 3", patterns, code)
		}
	}
}

// TestTypeErrors checks that a dependency that does not compile (so go
// list has no export data for it) is reported by its type error alone,
// once: every analysis of it and of its importer is skipped or fails, and
// the multichecker's line per check that says so is left out (it is in
// the JSON tree), with no error of the importer's own.
func TestTypeErrors(t *testing.T) {
	dir := testgopath.WriteTree(t, map[string]string{
		"go.mod": goMod,
		"a/a.go": "package a\n\nfunc F() int { return \"x\" }\n\nfunc G() {}\n",
		"b/b.go": "package b\n\nimport \"example.com/m/a\"\n\nfunc H() { a.G() }\n",
	})
	out, code := analyzeDir(t, dir, true, "./...")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 1 || !strings.HasSuffix(lines[0], `a/a.go:3:23: cannot use "x" (untyped string constant) as int value in return statement`) {
		t.Errorf("want a's type error alone:\n%s", out)
	}
	if code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	initial, err := load([]string{"./..."}, true)
	if err != nil {
		t.Fatal(err)
	}
	var cfg analyzers.Config
	g := analyze(analyzers.New(&cfg), initial, 2, nil, prefilterOn, nil)
	var buf bytes.Buffer
	if err := g.printJSON(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"error": "analysis skipped due to errors in package"`,
		`"error": "failed prerequisites: idemlint_retryscope@example.com/m/b, nestedretry@example.com/m/a"`,
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("JSON output lacks %s:\n%s", want, buf.String())
		}
	}
}

// TestTests checks that test files are analysed unless tests is false.
func TestTests(t *testing.T) {
	dir := testgopath.WriteTree(t, map[string]string{
		"go.mod":      goMod,
		"a/a.go":      "package a\n\nfunc send() error { return nil }\n",
		"a/a_test.go": "package a\n\nimport \"time\"\n\nfunc retry() error {\n\tvar err error\n\tfor {\n\t\tif err = send(); err == nil {\n\t\t\treturn nil\n\t\t}\n\t\ttime.Sleep(time.Second)\n\t}\n}\n",
	})
	const want = "a/a_test.go:7:2: retry loop has no attempt cap and no deadline"
	if out, code := analyzeDir(t, dir, true, "./..."); !strings.Contains(out, want) || code != 3 {
		t.Errorf("with tests: exit %d, want 3 and %q in:\n%s", code, want, out)
	}
	if out, code := analyzeDir(t, dir, false, "./..."); out != "" || code != 0 {
		t.Errorf("without tests: exit %d, want 0 and no output:\n%s", code, out)
	}
}

// TestParseFlags checks the command lines the driver leaves to the
// multichecker, and the -NAME analyzer flags.
func TestParseFlags(t *testing.T) {
	var cfg analyzers.Config
	suite := analyzers.New(&cfg)
	for _, args := range [][]string{
		{"-fix", "./..."}, {"-diff", "-fix", "./..."}, {"-flags"}, {"-V=full"}, {}, {"help"},
		{"/tmp/x/vet.cfg"}, {"-nosuchflag", "./..."},
	} {
		o, ok := parseFlags(args, suite, cfg.Bind)
		if ok && !(o.fix || o.diff || o.printFlags || o.version || len(o.args) == 0 || o.args[0] == "help" ||
			len(o.args) == 1 && strings.HasSuffix(o.args[0], ".cfg")) {
			t.Errorf("%q: the driver would handle it", args)
		}
	}
	o, ok := parseFlags([]string{"-nojitter=false", "-json", "-c", "2", "-test=false", "-retry-funcs=example.com/p.Do", "./..."}, suite, cfg.Bind)
	if !ok {
		t.Fatal("valid command line rejected")
	}
	if !o.json || o.context != 2 || o.tests || len(o.args) != 1 {
		t.Errorf("options not set: %+v", o)
	}
	for _, a := range o.analyzers {
		if a.Name == "nojitter" {
			t.Error("-nojitter=false left nojitter enabled")
		}
	}
	if len(o.analyzers) != len(suite)-1 {
		t.Errorf("%d analyzers enabled, want %d", len(o.analyzers), len(suite)-1)
	}
	o, _ = parseFlags([]string{"-nestedretry", "./..."}, suite, cfg.Bind)
	if len(o.analyzers) != 1 || o.analyzers[0].Name != "nestedretry" {
		t.Errorf("-nestedretry: enabled %v, want only nestedretry", o.analyzers)
	}
}

// TestPrefilterSkips checks which dependencies the driver skips: those
// where no analyzer with facts can export one (no retry, no call of a
// function with a fact, the standard library), and no other; the findings
// that cross packages stay.
func TestPrefilterSkips(t *testing.T) {
	t.Chdir(crossPkg(t))
	initial, err := load([]string{"./job"}, false)
	if err != nil {
		t.Fatal(err)
	}
	var cfg analyzers.Config
	g := analyze(analyzers.New(&cfg), initial, 2, nil, prefilterOn, nil)
	for _, id := range []string{"example.com/crosspkg/lib", "example.com/crosspkg/pay", "example.com/crosspkg/via"} {
		if slices.Contains(g.skipped, id) {
			t.Errorf("%s skipped; it has facts", id)
		}
	}
	for _, id := range []string{"example.com/crosspkg/plain", "time", "strings", "runtime"} {
		if !slices.Contains(g.skipped, id) {
			t.Errorf("%s analysed; it can have no fact", id)
		}
	}
	// unsafe is never loaded from source
	if want := []string{"example.com/crosspkg/job", "example.com/crosspkg/lib", "example.com/crosspkg/pay", "example.com/crosspkg/via", "unsafe"}; !slices.Equal(g.analysed, want) {
		t.Errorf("analysed %v, want %v", g.analysed, want)
	}
	var out bytes.Buffer
	if err := g.printText(&out, -1); err != nil {
		t.Fatal(err)
	}
	const want = "job/job.go:17:16: via.Run reaches retry loop (4 attempts) inside a retry loop (3 attempts), up to 3×4 = 12 calls"
	if !strings.Contains(out.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, out.String())
	}
}
