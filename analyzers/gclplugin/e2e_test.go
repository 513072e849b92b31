package gclplugin_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/idemlint/idemlint/internal/gclreport"
)

// The end-to-end test runs golangci-lint with the plugin (bin/custom-gcl,
// built by `make golangci`) and the standalone command (bin/idemlint, built
// by `make build`) over a copy of testdata/demo configured with
// .golangci.example.yml, and checks that both drivers report the same
// findings and make the same fixes.
//
// IDEMLINT_BIN, when set, names the idemlint binary instead. A missing
// binary is built into a temporary directory, unless IDEMLINT_E2E_GOLANGCI=1,
// which makes it an error: CI sets it so that the test always runs the
// binaries the Makefile built. Building custom-gcl with a cold build cache
// takes minutes, close to go test's default timeout: build it first.

const e2eEnv = "IDEMLINT_E2E_GOLANGCI"

func TestGolangciMatchesIdemlint(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test: runs golangci-lint with the plugin over testdata/demo")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	gcl := binary(t, root, "custom-gcl", filepath.Join(root, "cmd", "custom-gcl"), ".")
	idem := os.Getenv("IDEMLINT_BIN")
	if idem == "" {
		idem = binary(t, root, "idemlint", root, "./cmd/idemlint")
	}
	demo := filepath.Join(root, "testdata", "demo")
	config := filepath.Join(root, ".golangci.example.yml")

	t.Run("findings", func(t *testing.T) {
		dir := copyDemo(t, demo, config)
		want, _ := idemlintFindings(t, idem, dir)
		got := golangciFindings(t, gcl, dir)
		if len(want) == 0 {
			t.Fatalf("idemlint -json reports nothing in %s: the demo must have findings for the comparison to mean anything", demo)
		}
		if d := diffLines(want, got); d != "" {
			t.Errorf("golangci-lint and idemlint disagree (- idemlint only, + golangci-lint only; are %s and %s up to date?):\n%s", gcl, idem, d)
		}
	})

	t.Run("fix", func(t *testing.T) {
		base := copyDemo(t, demo, config)
		_, fixable := idemlintFindings(t, idem, base)

		viaIdemlint := copyDemo(t, demo, config)
		run(t, viaIdemlint, idem, []int{0, 1, 3}, "-fix", "./...")
		viaGolangci := copyDemo(t, demo, config)
		run(t, viaGolangci, gcl, []int{0, 1}, append(golangciArgs(t), "--fix", "./...")...)

		before, fixedByIdemlint, fixedByGolangci := readTree(t, base), readTree(t, viaIdemlint), readTree(t, viaGolangci)
		if fixable > 0 && maps.Equal(before, fixedByIdemlint) {
			t.Errorf("idemlint reports %d findings with suggested fixes, but idemlint -fix changed no file", fixable)
		}
		for _, name := range union(fixedByIdemlint, fixedByGolangci) {
			a, b := fixedByIdemlint[name], fixedByGolangci[name]
			if a != b {
				t.Errorf("%s differs after fixing (- idemlint -fix, + custom-gcl run --fix):\n%s",
					name, diffLines(strings.Split(a, "\n"), strings.Split(b, "\n")))
			}
		}
	})
}

// binary returns bin/name under root, building it from pkg in dir when it is
// missing and IDEMLINT_E2E_GOLANGCI is not 1.
func binary(t *testing.T, root, name, dir, pkg string) string {
	t.Helper()
	path := filepath.Join(root, "bin", name)
	if _, err := os.Stat(path); err == nil {
		return path
	} else if !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	if os.Getenv(e2eEnv) == "1" {
		t.Fatalf("%s is missing and %s=1: build it first (make build golangci)", path, e2eEnv)
	}
	path = filepath.Join(t.TempDir(), name)
	start := time.Now()
	cmd := exec.Command("go", "build", "-o", path, pkg)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("bin/%s is missing; building it: %v\n%s", name, err, out)
	}
	t.Logf("bin/%s is missing; built it in %v", name, time.Since(start).Round(time.Second))
	return path
}

// copyDemo copies the demo module into a fresh directory with config as its
// .golangci.yml, turning its relative replace directives into absolute ones
// so that they still resolve.
func copyDemo(t *testing.T, demo, config string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "demo")
	if _, err := os.Stat(filepath.Join(demo, "go.mod")); err != nil {
		t.Fatalf("the demo must be a module of its own: %v", err)
	}
	if err := os.CopyFS(dir, os.DirFS(demo)); err != nil {
		t.Fatalf("copying the demo module: %v", err)
	}
	cfg, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".golangci.yml"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	var mod struct {
		Replace []struct {
			Old, New struct{ Path, Version string }
		}
	}
	out := run(t, dir, "go", []int{0}, "mod", "edit", "-json")
	if err := json.Unmarshal(out, &mod); err != nil {
		t.Fatalf("go mod edit -json: %v", err)
	}
	for _, r := range mod.Replace {
		if r.New.Version != "" || filepath.IsAbs(r.New.Path) {
			continue
		}
		old := r.Old.Path
		if r.Old.Version != "" {
			old += "@" + r.Old.Version
		}
		run(t, dir, "go", []int{0}, "mod", "edit", "-replace", old+"="+filepath.Join(demo, r.New.Path))
	}
	return dir
}

// run runs prog with args in dir and returns its standard output. The exit
// code must be one of codes.
func run(t *testing.T, dir, prog string, codes []int, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(prog, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOLANGCI_LINT_CACHE="+filepath.Join(t.TempDir(), "golangci-cache"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", prog, err)
	}
	if !slices.Contains(codes, code) {
		t.Fatalf("%s %s: exit code %d, want one of %v\nstdout:\n%s\nstderr:\n%s",
			filepath.Base(prog), strings.Join(args, " "), code, codes, stdout.Bytes(), stderr.Bytes())
	}
	return stdout.Bytes()
}

// golangciArgs makes golangci-lint run only the linters the configuration
// enables and report every finding, so that its output can be compared with
// idemlint's. The JSON report goes to a file. Each run has a cache of its
// own (see run), so it need not wait for other golangci-lint processes.
func golangciArgs(t *testing.T) []string {
	return []string{
		"run",
		"--allow-parallel-runners",
		"--default=none",
		"--max-issues-per-linter=0",
		"--max-same-issues=0",
		"--uniq-by-line=false",
		"--show-stats=false",
		"--output.json.path=" + filepath.Join(t.TempDir(), "report.json"),
	}
}

// golangciFindings runs custom-gcl in dir and returns its findings, one
// "file:line:col: linter: text" line each, sorted, duplicates removed.
func golangciFindings(t *testing.T, gcl, dir string) []string {
	t.Helper()
	args := golangciArgs(t)
	report := strings.TrimPrefix(args[len(args)-1], "--output.json.path=")
	run(t, dir, gcl, []int{0, 1}, append(args, "./...")...)
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var out gclreport.Report
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("golangci-lint JSON report: %v\n%s", err, data)
	}
	var lines []string
	for _, is := range out.Issues {
		pos := fmt.Sprintf("%s:%d:%d", relative(t, dir, is.Pos.Filename), is.Pos.Line, is.Pos.Column)
		lines = append(lines, pos+": "+is.FromLinter+": "+is.Text)
	}
	slices.Sort(lines)
	return slices.Compact(lines)
}

// idemlintFindings runs idemlint -json in dir and returns its findings in
// the form golangciFindings gives them: golangci-lint reports each under the
// linter "idemlint" with the check's name before the message, and each
// related position as a finding of its own. It also returns how many
// findings carry a suggested fix.
func idemlintFindings(t *testing.T, idem, dir string) (lines []string, fixable int) {
	t.Helper()
	out := run(t, dir, idem, []int{0, 1, 3}, "-json", "./...")
	// package ID -> analyzer -> diagnostics, or {"error": "..."}.
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal(out, &tree); err != nil {
		t.Fatalf("idemlint -json output: %v\n%s", err, out)
	}
	type diagnostic struct {
		Posn           string
		Message        string
		SuggestedFixes []json.RawMessage `json:"suggested_fixes"`
		Related        []struct{ Posn, Message string }
	}
	fixed := map[string]bool{}
	for pkg, byAnalyzer := range tree {
		for check, raw := range byAnalyzer {
			var failed struct{ Error string }
			if json.Unmarshal(raw, &failed) == nil {
				t.Fatalf("idemlint: %s on %s: %s", check, pkg, failed.Error)
			}
			var diags []diagnostic
			if err := json.Unmarshal(raw, &diags); err != nil {
				t.Fatalf("idemlint -json: %s on %s: %v", check, pkg, err)
			}
			for _, d := range diags {
				line := posn(t, dir, d.Posn) + ": idemlint: " + check + ": " + d.Message
				lines = append(lines, line)
				if len(d.SuggestedFixes) > 0 {
					fixed[line] = true
				}
				for _, r := range d.Related {
					lines = append(lines, posn(t, dir, r.Posn)+": idemlint: "+check+"(related information): "+r.Message)
				}
			}
		}
	}
	slices.Sort(lines)
	return slices.Compact(lines), len(fixed)
}

// posn rewrites a "file:line:col" position with file relative to dir.
func posn(t *testing.T, dir, p string) string {
	t.Helper()
	// File names may hold colons: the line and column are the last two fields.
	col := strings.LastIndex(p, ":")
	line := strings.LastIndex(p[:max(col, 0)], ":")
	if line <= 0 {
		t.Fatalf("idemlint -json: position %q is not file:line:col", p)
	}
	for _, n := range []string{p[line+1 : col], p[col+1:]} {
		if _, err := strconv.Atoi(n); err != nil {
			t.Fatalf("idemlint -json: position %q is not file:line:col", p)
		}
	}
	return relative(t, dir, p[:line]) + p[line:]
}

// relative returns file relative to dir, with forward slashes.
func relative(t *testing.T, dir, file string) string {
	t.Helper()
	if !filepath.IsAbs(file) {
		return filepath.ToSlash(file)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, base := range []string{dir, real} {
		if rel, err := filepath.Rel(base, file); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	t.Fatalf("finding in %s, outside the demo copy %s", file, dir)
	return ""
}

// readTree returns the contents of every file under dir by slash-separated
// relative name.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		files[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// union returns the keys of a and b, sorted.
func union(a, b map[string]string) []string {
	keys := slices.AppendSeq(slices.Collect(maps.Keys(a)), maps.Keys(b))
	slices.Sort(keys)
	return slices.Compact(keys)
}

// diffLines returns the lines only in want prefixed "- " and the lines only
// in got prefixed "+ ", or "" when both hold the same lines in the same
// order. It is a plain longest-common-subsequence diff: inputs are small.
func diffLines(want, got []string) string {
	n, m := len(want), len(got)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if want[i] == got[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var b strings.Builder
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && want[i] == got[j]:
			i, j = i+1, j+1
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			fmt.Fprintf(&b, "- %s\n", want[i])
			i++
		default:
			fmt.Fprintf(&b, "+ %s\n", got[j])
			j++
		}
	}
	return b.String()
}
