package main_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/internal/testgopath"
)

// goldenFormats are the output formats with a reviewed copy of the demo's
// output in testdata/demo (go test ./cmd/idemlint -update rewrites them).
var goldenFormats = map[string]string{
	"json":   "findings.json",
	"sarif":  "findings.sarif",
	"github": "findings.github.txt",
}

var versionField = regexp.MustCompile(`"(version|semanticVersion|moduleVersion)": "[^"]*"`)

// normalize replaces what depends on the checkout in out: the demo's
// directory and the tool's version.
func normalize(out []byte, dir string) []byte {
	out = bytes.ReplaceAll(out, []byte(dir), []byte("$DEMO"))
	return versionField.ReplaceAllFunc(out, func(m []byte) []byte {
		if bytes.Equal(m, []byte(`"version": "2.1.0"`)) { // SARIF's own version
			return m
		}
		return versionField.ReplaceAll(m, []byte(`"$1": "$$VERSION"`))
	})
}

// TestFormats runs the standalone command over the demo module in each
// format: each exits 3 and prints the reviewed output.
func TestFormats(t *testing.T) {
	bin, dir := endToEnd(t)
	for format, name := range goldenFormats {
		cmd := exec.Command(bin, "-format", format, "./...")
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
			t.Errorf("-format %s: %v, want exit 3\n%s", format, err, stderr.String())
			continue
		}
		got := normalize(out, dir)
		golden := filepath.Join(dir, name)
		if *update {
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
			i := 0
			for i < len(g) && i < len(w) && g[i] == w[i] {
				i++
			}
			t.Errorf("-format %s differs from %s at line %d (go test ./cmd/idemlint -update rewrites it after review)\ngot:\n%s\nwant:\n%s",
				format, golden, i+1, strings.Join(g[i:min(i+5, len(g))], "\n"), strings.Join(w[i:min(i+5, len(w))], "\n"))
		}
	}
}

// TestSARIFValidates checks the demo's SARIF log with Microsoft's SARIF
// multitool, and its contents: a rule per check with its page, paths
// relative to the module root, the fixes.
func TestSARIFValidates(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the command")
	}
	tool := os.Getenv("IDEMLINT_SARIF_MULTITOOL")
	if tool == "" {
		tool, _ = filepath.Abs("../../bin/sarif/node_modules/.bin/sarif-multitool")
	}
	if _, err := os.Stat(tool); err != nil {
		if os.Getenv("IDEMLINT_E2E_SARIF") == "1" {
			t.Fatalf("IDEMLINT_E2E_SARIF=1 but the SARIF multitool is missing (%v): make sarif-multitool installs it", err)
		}
		t.Skipf("no SARIF multitool at %s (make sarif-multitool installs it; make test requires it)", tool)
	}
	bin, dir := binary(t), demoDir(t)
	cmd := exec.Command(bin, "-format=sarif", "./...")
	cmd.Dir = dir
	log, _ := cmd.Output()
	var v struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Version string
					Rules   []struct {
						ID      string
						HelpURI string
					}
				}
			}
			Results []struct {
				RuleID    string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI       string
							URIBaseID string
						}
					}
				}
				Fixes []json.RawMessage
			}
		}
	}
	if err := json.Unmarshal(log, &v); err != nil || len(v.Runs) != 1 {
		t.Fatalf("not one SARIF run (%v):\n%s", err, log)
	}
	run := v.Runs[0]
	for _, r := range run.Tool.Driver.Rules {
		if r.HelpURI != "https://github.com/idemlint/idemlint/blob/main/docs/"+r.ID+".md" {
			t.Errorf("rule %s: helpUri %q", r.ID, r.HelpURI)
		}
	}
	if len(run.Tool.Driver.Rules) != len(analyzers.Checks()) || run.Tool.Driver.Version == "" {
		t.Errorf("%d rules, version %q; want %d and a version", len(run.Tool.Driver.Rules), run.Tool.Driver.Version, len(analyzers.Checks()))
	}
	fixes := 0
	for _, r := range run.Results {
		loc := r.Locations[0].PhysicalLocation.ArtifactLocation
		if loc.URIBaseID != "%SRCROOT%" || !strings.HasPrefix(loc.URI, "payments/") && !strings.HasPrefix(loc.URI, "jobs/") {
			t.Errorf("%s: location %+v", r.RuleID, loc)
		}
		fixes += len(r.Fixes)
	}
	if len(run.Results) == 0 || fixes == 0 {
		t.Errorf("%d results, %d fixes", len(run.Results), fixes)
	}

	tmp := t.TempDir()
	in, out := filepath.Join(tmp, "demo.sarif"), filepath.Join(tmp, "validation.sarif")
	if err := os.WriteFile(in, log, 0o644); err != nil {
		t.Fatal(err)
	}
	if msgs, err := exec.Command(tool, "validate", in, "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("sarif-multitool validate: %v\n%s", err, msgs)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var val struct {
		Runs []struct{ Results []json.RawMessage }
	}
	if err := json.Unmarshal(data, &val); err != nil || len(val.Runs) != 1 {
		t.Fatalf("validation log (%v):\n%s", err, data)
	}
	for _, r := range val.Runs[0].Results {
		t.Errorf("sarif-multitool validate: %s", r)
	}
}

// TestExitCodes checks the exit status in every format: 0 clean, 3 with
// findings, 1 when a package does not type-check.
func TestExitCodes(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the command")
	}
	bin := binary(t)
	clean := testgopath.WriteTree(t, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.26\n",
		"a/a.go": "package a\n\nfunc F() int { return 1 }\n",
	})
	broken := testgopath.WriteTree(t, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.26\n",
		"a/a.go": "package a\n\nfunc F() int { return \"x\" }\n",
	})
	for _, format := range []string{"text", "json", "sarif", "github"} {
		for _, c := range []struct {
			dir  string
			want int
		}{{clean, 0}, {demoDir(t), 3}, {broken, 1}} {
			run(t, c.dir, c.want, bin, "-format="+format, "./...")
		}
	}
}

// TestVersion checks idemlint version and -V=full, whose form go vet
// parses: "idemlint version <version> ... buildID=<hash>".
func TestVersion(t *testing.T) {
	bin, dir := endToEnd(t)
	short := string(run(t, dir, 0, bin, "version"))
	if !regexp.MustCompile(`^idemlint version (\(devel\)|v\S+)\n$`).MatchString(short) {
		t.Errorf("idemlint version: %q", short)
	}
	full := string(run(t, dir, 0, bin, "-V=full"))
	if !regexp.MustCompile(`^idemlint version (\(devel\)|v\S+) go\S+ buildID=[0-9a-f]{64}\n$`).MatchString(full) {
		t.Errorf("idemlint -V=full: %q", full)
	}
	if v := strings.Fields(short)[2]; strings.Fields(full)[2] != v {
		t.Errorf("-V=full says %s, version says %s", strings.Fields(full)[2], v)
	}
}

// TestFormatUsage checks -format on the multichecker's route (json becomes
// -json; sarif and github are the streaming driver's) and a bad value.
func TestFormatUsage(t *testing.T) {
	bin, dir := endToEnd(t)
	multi := runDriver(t, bin, dir, "multichecker", "-format", "json", "./payments").sorted(t)
	stream := runDriver(t, bin, dir, "stream", "-format", "json", "./payments")
	if multi.stdout != stream.stdout || !strings.Contains(multi.stdout, `"posn"`) {
		t.Errorf("-format json through the multichecker:\n%s\nstreaming:\n%s", multi.stdout, stream.stdout)
	}
	for _, c := range []struct {
		driver string
		args   []string
		want   string
	}{
		{"multichecker", []string{"-format=sarif", "./..."}, "-format sarif is written by the standalone driver only"},
		{"stream", []string{"-format=xml", "./..."}, `-format: unknown format "xml"`},
		{"stream", []string{"-fix", "-format", "github", "./..."}, "-format github is written by the standalone driver only"},
	} {
		o := runDriver(t, bin, dir, c.driver, c.args...)
		if o.code != 2 || !strings.Contains(o.stderr, c.want) {
			t.Errorf("%s %v: exit %d, want 2 and %q:\n%s", c.driver, c.args, o.code, c.want, o.stderr)
		}
	}
}

var position = regexp.MustCompile(`^(?:::warning file=)?([^:,\s]+\.go)(?::|,line=)(\d+)(?::|,col=)(\d+)`)

// positions returns the file, line and column of each finding line of
// out (related lines, indented by a tab, are skipped).
func positions(out []byte) [][3]string {
	var ps [][3]string
	for _, l := range strings.Split(string(out), "\n") {
		if m := position.FindStringSubmatch(l); m != nil && !strings.Contains(l, ": \t") {
			ps = append(ps, [3]string{m[1], m[2], m[3]})
		}
	}
	return ps
}

// less orders positions by file, then line and column numerically.
func less(a, b [3]string) bool {
	if a[0] != b[0] {
		return a[0] < b[0]
	}
	al, _ := strconv.Atoi(a[1])
	bl, _ := strconv.Atoi(b[1])
	if al != bl {
		return al < bl
	}
	ac, _ := strconv.Atoi(a[2])
	bc, _ := strconv.Atoi(b[2])
	return ac < bc
}

// TestSorted checks the standalone driver prints findings sorted by file
// and position in text and github formats (JSON and SARIF: the goldens
// pin them), and go vet -vettool prints each check's findings of a file in
// order: go vet itself visits a package's checks in Go map order
// (cmd/go/internal/vet's printJSONDiagnostics), which no vet tool controls.
func TestSorted(t *testing.T) {
	bin, dir := endToEnd(t)
	for _, args := range [][]string{{"./..."}, {"-format", "github", "./..."}} {
		ps := positions(run(t, dir, 3, bin, args...))
		if len(ps) < 10 {
			t.Fatalf("idemlint %v: %d findings, want the demo's", args, len(ps))
		}
		for i := 1; i < len(ps); i++ {
			if less(ps[i], ps[i-1]) {
				t.Errorf("idemlint %v: %v printed after %v", args, ps[i], ps[i-1])
			}
		}
	}
	out := run(t, dir, 1, "go", "vet", "-vettool="+bin, "./...")
	last := make(map[string][3]string)
	n := 0
	for _, l := range strings.Split(string(out), "\n") {
		ps := positions([]byte(l))
		i := strings.LastIndex(l, " (")
		if len(ps) == 0 || i < 0 {
			continue
		}
		n++
		p, k := ps[0], ps[0][0]+l[i:]
		if prev, ok := last[k]; ok && less(p, prev) {
			t.Errorf("go vet -vettool: %v printed after %v%s", p, prev, l[i:])
		}
		last[k] = p
	}
	if n < 10 {
		t.Errorf("go vet -vettool: %d findings, want the demo's", n)
	}
}
