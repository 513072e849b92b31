package main_test

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/internal/testgopath"
)

var update = flag.Bool("update", false, "rewrite testdata/demo/findings.txt from the standalone driver's output")

// binary returns the idemlint command to test: $IDEMLINT_BIN (set by
// make test), or one built into a temporary directory.
func binary(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("IDEMLINT_BIN"); bin != "" {
		return bin
	}
	bin := filepath.Join(t.TempDir(), "idemlint")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

var finding = regexp.MustCompile(`^(?:.*/)?((?:payments|jobs)/[^:]+\.go:\d+:\d+): (.*)$`)

// findings extracts "file:line:col: message" lines, with paths relative to
// the demo module, sorted; related information is in the same form, its
// message after a tab.
func findings(t *testing.T, out []byte) []string {
	t.Helper()
	var got []string
	for _, line := range strings.Split(string(out), "\n") {
		if m := finding.FindStringSubmatch(line); m != nil {
			got = append(got, m[1]+": "+m[2])
		}
	}
	slices.Sort(got)
	return got
}

// endToEnd skips the test in -short mode and returns the command to test
// and the demo module.
func endToEnd(t *testing.T) (bin, demo string) {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the command")
	}
	return binary(t), demoDir(t)
}

// crossPkg returns a copy of testdata/crosspkg, the drivers' module whose
// findings need facts from its dependencies, in a temporary directory.
func crossPkg(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../../testdata/crosspkg")); err != nil {
		t.Fatal(err)
	}
	return dir
}

func demoDir(t *testing.T) string {
	dir, err := filepath.Abs("../../testdata/demo")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func run(t *testing.T, dir string, wantExit int, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if code := exitCode(t, cmd); code != wantExit {
		t.Fatalf("%s %v: exit %d, want %d\n%s", name, args, code, wantExit, out.String())
	}
	return out.Bytes()
}

// exitCode runs cmd and returns its exit code; it fails t when cmd does not
// run to an exit.
func exitCode(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	return 0
}

// TestDemoDrivers runs the standalone command and the vet tool over the
// demo module: both must report exactly the reviewed findings.
func TestDemoDrivers(t *testing.T) {
	bin, dir := endToEnd(t)
	standalone := findings(t, run(t, dir, 3, bin, "./..."))
	golden := filepath.Join(dir, "findings.txt")
	if *update {
		if err := os.WriteFile(golden, []byte(strings.Join(standalone, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSpace(string(data)), "\n")
	if !slices.Equal(standalone, want) {
		t.Errorf("idemlint ./... findings differ from %s (go test ./cmd/idemlint -update rewrites it after review)\ngot:\n%s\nwant:\n%s", golden, strings.Join(standalone, "\n"), strings.Join(want, "\n"))
	}
	checks := analyzers.Checks()
	for _, f := range standalone {
		if strings.Contains(f, ": \t") {
			continue // related information
		}
		i := strings.LastIndex(f, " (")
		if i < 0 || !strings.HasSuffix(f, ")") || !slices.Contains(checks, f[i+2:len(f)-1]) {
			t.Errorf("finding does not end with its check's name: %s", f)
		}
	}
	vet := findings(t, run(t, dir, 1, "go", "vet", "-vettool="+bin, "./..."))
	if !slices.Equal(vet, want) {
		t.Errorf("go vet -vettool findings differ from the standalone ones\nvet:\n%s\nwant:\n%s", strings.Join(vet, "\n"), strings.Join(want, "\n"))
	}
	// payments/ledger.go is the demo's gRPC client (issue 20).
	for _, check := range []string{"nestedretry", "retrytimeout", "retrystatus", "nojitter"} {
		if !slices.ContainsFunc(want, func(s string) bool {
			return strings.HasPrefix(s, "payments/ledger.go:") && strings.HasSuffix(s, "("+check+")")
		}) {
			t.Errorf("the demo shows no gRPC %s finding in payments/ledger.go", check)
		}
	}
	for check := range checkMessages {
		if !slices.ContainsFunc(want, func(s string) bool { return strings.Contains(s, checkMessages[check]) }) {
			t.Errorf("the demo shows no %s finding", check)
		}
	}
}

var checkMessages = map[string]string{
	"unboundedretry": "has no attempt cap and no deadline",
	"nojitter":       "has no jitter",
	"nestedretry":    "inside a retry",
	"retrytimeout":   "timeout",
	"retrystatus":    "status",
	"keyinloop":      "mints a new key",
	"unkeyedpost":    "has no idempotency key",
	"jobretry":       "in an asynq handler",
	"keyprop":        "idempotency.Derive(key",
}

// TestDisableFlag checks -<check>=false drops that check's findings.
func TestDisableFlag(t *testing.T) {
	bin, dir := endToEnd(t)
	got := findings(t, run(t, dir, 3, bin, "-nojitter=false", "./..."))
	if len(got) == 0 {
		t.Fatal("no findings with -nojitter=false")
	}
	for _, f := range got {
		if strings.Contains(f, checkMessages["nojitter"]) {
			t.Errorf("nojitter finding with -nojitter=false: %s", f)
		}
	}
}

// TestJSON checks -json prints findings as JSON keyed by package and check,
// with the messages as the checks wrote them (no check name appended), and
// exits 3 as text does.
func TestJSON(t *testing.T) {
	bin, dir := endToEnd(t)
	out := run(t, dir, 3, bin, "-json", "./...")
	for _, want := range []string{`"example.com/demo/payments"`, `"unboundedretry"`, `"nojitter"`, `"posn"`} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("-json output lacks %s:\n%s", want, out)
		}
	}
	if bytes.Contains(out, []byte(` (nojitter)"`)) {
		t.Errorf("-json messages end with the check name:\n%s", out)
	}
}

// TestBadFlag checks a malformed suite flag is a clear usage error.
func TestBadFlag(t *testing.T) {
	bin, dir := endToEnd(t)
	out := run(t, dir, 2, bin, "-retry-funcs=notafunction", "./...")
	if !bytes.Contains(out, []byte(`retry-funcs: "notafunction" is not a full function name`)) {
		t.Errorf("unexpected output: %s", out)
	}
}

// TestFixBuilds applies every suggested fix to a copy of the demo module
// and checks the result still builds and passes go vet.
func TestFixBuilds(t *testing.T) {
	bin, src := endToEnd(t)
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	// The fixes import idemlint's runtime, a module of its own: point the
	// copy at this checkout's.
	run(t, dir, 0, "go", "mod", "edit", "-require=github.com/idemlint/idemlint/runtime@v0.0.0", "-replace=github.com/idemlint/idemlint/runtime="+filepath.Join(root, "runtime"))
	before, err := os.ReadFile(filepath.Join(dir, "payments", "client.go"))
	if err != nil {
		t.Fatal(err)
	}
	run(t, dir, 0, bin, "-fix", "./...")
	after, err := os.ReadFile(filepath.Join(dir, "payments", "client.go"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(before, after) {
		t.Fatal("idemlint -fix changed nothing in the demo")
	}
	if !bytes.Contains(after, []byte("retry.Jitter(")) {
		t.Errorf("the nojitter fix is missing from the fixed demo:\n%s", after)
	}
	run(t, dir, 0, "go", "mod", "tidy")
	run(t, dir, 0, "go", "build", "./...")
	run(t, dir, 0, "go", "vet", "./...")
}

// TestVetFix checks go vet -vettool=idemlint -fix makes exactly the edits
// idemlint -fix makes, on two copies of the demo module.
func TestVetFix(t *testing.T) {
	bin, src := endToEnd(t)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	fixed := func(name string, args ...string) map[string]string {
		dir := t.TempDir()
		if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
		run(t, dir, 0, "go", "mod", "edit", "-require=github.com/idemlint/idemlint@v0.0.0", "-replace=github.com/idemlint/idemlint="+root)
		run(t, dir, 0, name, args...)
		files := make(map[string]string)
		err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return err
			}
			data, err := os.ReadFile(path)
			rel, _ := filepath.Rel(dir, path)
			files[rel] = string(data)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return files
	}
	standalone := fixed(bin, "-fix", "./...")
	vet := fixed("go", "vet", "-vettool="+bin, "-fix", "./...")
	changed := 0
	for rel, want := range standalone {
		orig, err := os.ReadFile(filepath.Join(src, rel))
		if err != nil {
			t.Fatal(err)
		}
		if string(orig) != want {
			changed++
		}
		if vet[rel] != want {
			t.Errorf("%s: go vet -fix and idemlint -fix differ\nvet:\n%s\nidemlint:\n%s", rel, vet[rel], want)
		}
	}
	if changed == 0 {
		t.Fatal("idemlint -fix changed no file of the demo")
	}
}

// TestActionableErrors checks that what stops a run is told in the go
// command's or the type checker's words, without a line per check below it.
func TestActionableErrors(t *testing.T) {
	bin, demo := endToEnd(t)
	outside := t.TempDir()
	broken := testgopath.WriteTree(t, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.26\n",
		"a/a.go": "package a\n\nfunc F() int { return \"x\" }\n",
	})
	for _, c := range []struct {
		dir  string
		args []string
		want string
	}{
		{outside, []string{"./..."}, "go.mod file not found in current directory or any parent directory"},
		{outside, []string{"./a"}, "go.mod file not found in current directory or any parent directory"},
		{demo, []string{"./nosuchpackage"}, "nosuchpackage: directory not found"},
		{demo, []string{"./nosuch/..."}, "lstat ./nosuch/: no such file or directory"},
		{demo, []string{"example.com/nothere"}, "no required module provides package example.com/nothere"},
		{broken, []string{"./..."}, `a/a.go:3:23: cannot use "x" (untyped string constant) as int value in return statement`},
	} {
		out := string(run(t, c.dir, 1, bin, c.args...))
		if !strings.Contains(out, c.want) {
			t.Errorf("%v: the output lacks %q:\n%s", c.args, c.want, out)
		}
		if strings.Contains(out, "failed prerequisites") || strings.Contains(out, "matched no packages") && !strings.Contains(c.want, "matched") {
			t.Errorf("%v: the output buries the error:\n%s", c.args, out)
		}
	}
}

// TestConfigFile checks idemlint.yml in the standalone command and under
// go vet: checks turned off at the top and for a path, a flag that wins
// over the file, and errors with the file and line.
func TestConfigFile(t *testing.T) {
	bin, src := endToEnd(t)
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	write := func(name, data string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	count := func(fs []string) map[string]int {
		n := make(map[string]int)
		for _, f := range fs {
			if strings.Contains(f, ": \t") {
				continue // related information
			}
			n[f[strings.LastIndex(f, "(")+1:len(f)-1]]++
			if strings.HasPrefix(f, "jobs/") {
				n["jobs/"]++
			}
		}
		return n
	}
	all := count(findings(t, run(t, dir, 3, bin, "./...")))
	if all["nojitter"] == 0 || all["jobs/"] == 0 || all["unboundedretry"] == 0 {
		t.Fatalf("the demo lacks the findings this test turns off: %v", all)
	}

	write("idemlint.yml", "checks: [all, -nojitter]\npaths:\n  \"jobs/**\": {checks: [-all]}\n")
	for _, c := range []struct {
		name string
		args []string
		exit int
	}{
		{bin, []string{"./..."}, 3},
		{"go", []string{"vet", "-vettool=" + bin, "./..."}, 1},
	} {
		got := count(findings(t, run(t, dir, c.exit, c.name, c.args...)))
		if got["nojitter"] != 0 || got["jobs/"] != 0 || got["unboundedretry"] != all["unboundedretry"] {
			t.Errorf("%s %v with idemlint.yml: %v (without it: %v)", c.name, c.args, got, all)
		}
	}
	if got := count(findings(t, run(t, dir, 3, bin, "-nojitter", "./..."))); got["nojitter"] != all["nojitter"] {
		t.Errorf("-nojitter does not win over the file: %v", got)
	}

	write("idemlint.yml", "checks: [all]\nretry-func: [a.B]\n")
	if out := string(run(t, dir, 1, bin, "./...")); !strings.Contains(out, `idemlint.yml:2:1: unknown key "retry-func"`) {
		t.Errorf("unknown key: %s", out)
	}
	write("idemlint.yml", "checks: [all]\n")
	write("payments/.idemlint.yml", "strict-context: true\n")
	if out := string(run(t, dir, 1, bin, "./...")); !strings.Contains(out, filepath.Join("payments", ".idemlint.yml")+":1: strict-context: suite settings apply to the whole run") {
		t.Errorf("a suite setting in a package's file: %s", out)
	}
}
