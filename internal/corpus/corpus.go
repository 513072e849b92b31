// Package corpus runs idemlint over the real-code corpus of
// testdata/corpus/modules.txt and reads the reviewed findings of
// testdata/corpus/findings.txt.
//
// The corpus is one generated throwaway module that requires every corpus
// module at its pinned version; the go command fetches them through the
// module proxy into the module cache. Findings are written with positions
// relative to the module cache ("module@version/file.go:line:col"), so that
// they read the same on every machine.
package corpus

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Module is one line of modules.txt.
type Module struct {
	Path, Version string
	// Patterns are package patterns relative to the module: ".", "./x",
	// "./x/...".
	Patterns []string
}

// ImportPatterns returns m's patterns as import-path patterns.
func (m Module) ImportPatterns() []string {
	var out []string
	for _, p := range m.Patterns {
		rel := strings.TrimPrefix(strings.TrimPrefix(p, "."), "/")
		if rel == "" {
			out = append(out, m.Path)
		} else {
			out = append(out, m.Path+"/"+rel)
		}
	}
	return out
}

// ParseModules reads modules.txt: "module@version pattern..." lines, with
// blank lines and "#" comments.
func ParseModules(data []byte) ([]Module, error) {
	var mods []Module
	seen := map[string]bool{}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		path, version, ok := strings.Cut(f[0], "@")
		if !ok || path == "" || !strings.HasPrefix(version, "v") {
			return nil, fmt.Errorf("line %d: %q is not module@version", i+1, f[0])
		}
		if len(f) < 2 {
			return nil, fmt.Errorf("line %d: %s has no package patterns", i+1, f[0])
		}
		for _, p := range f[1:] {
			if p != "." && !strings.HasPrefix(p, "./") {
				return nil, fmt.Errorf("line %d: pattern %q is not relative to the module (\".\" or \"./x\")", i+1, p)
			}
		}
		if seen[path] {
			return nil, fmt.Errorf("line %d: module %s listed twice", i+1, path)
		}
		seen[path] = true
		mods = append(mods, Module{Path: path, Version: version, Patterns: f[1:]})
	}
	return mods, nil
}

// Prepare writes a throwaway module in dir that requires every module at its
// pinned version, fetching them through the module proxy, and checks that
// the build list keeps each pinned version.
func Prepare(dir, goCmd string, mods []Module) error {
	gomod := "module idemlint.local/corpus\n\ngo 1.26\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		return err
	}
	args := []string{"get"}
	for _, m := range mods {
		args = append(args, m.Path+"@"+m.Version)
	}
	if out, err := goIn(dir, goCmd, args...); err != nil {
		return fmt.Errorf("go get: %v\n%s", err, out)
	}
	// Getting the packages (not just the modules) records the go.sum
	// entries of everything they import.
	args = []string{"get"}
	for _, m := range mods {
		for _, p := range m.ImportPatterns() {
			args = append(args, p+"@"+m.Version)
		}
	}
	if out, err := goIn(dir, goCmd, args...); err != nil {
		return fmt.Errorf("go get: %v\n%s", err, out)
	}
	out, err := goIn(dir, goCmd, "list", "-m", "-f", "{{.Path}} {{.Version}}", "all")
	if err != nil {
		return fmt.Errorf("go list -m all: %v\n%s", err, out)
	}
	selected := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if p, v, ok := strings.Cut(line, " "); ok {
			selected[p] = v
		}
	}
	for _, m := range mods {
		if v := selected[m.Path]; v != m.Version {
			return fmt.Errorf("%s: pinned %s, but the corpus module selects %q (another corpus module requires a newer one): pin that version in modules.txt", m.Path, m.Version, v)
		}
	}
	return nil
}

// ModuleDir returns the directory of module path@version in the module
// cache modcache (upper-case letters of the path escaped as "!" and the
// lower-case letter, as the go command writes them).
func ModuleDir(modcache, path, version string) string {
	var b strings.Builder
	for _, r := range path {
		if 'A' <= r && r <= 'Z' {
			b.WriteByte('!')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return filepath.Join(modcache, filepath.FromSlash(b.String())+"@"+version)
}

// Binary returns $IDEMLINT_BIN (set by `make test`), or builds
// github.com/idemlint/idemlint/cmd/idemlint into tmpdir (the test's
// temporary directory) and returns its path.
func Binary(tmpdir, goCmd string) (string, error) {
	if bin := os.Getenv("IDEMLINT_BIN"); bin != "" {
		return bin, nil
	}
	bin := filepath.Join(tmpdir, "idemlint")
	out, err := exec.Command(goCmd, "build", "-o", bin, "github.com/idemlint/idemlint/cmd/idemlint").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build idemlint: %v\n%s", err, out)
	}
	return bin, nil
}

// ModCache returns the module cache directory of the prepared module dir.
func ModCache(dir, goCmd string) (string, error) {
	out, err := goIn(dir, goCmd, "env", "GOMODCACHE")
	if err != nil {
		return "", fmt.Errorf("go env GOMODCACHE: %v\n%s", err, out)
	}
	return strings.TrimSpace(string(out)), nil
}

func goIn(dir, goCmd string, args ...string) ([]byte, error) {
	cmd := exec.Command(goCmd, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	return cmd.CombinedOutput()
}

// Finding is one diagnostic of the suite over the corpus.
type Finding struct {
	Pos     string // module@version/path/file.go:line:col
	Check   string
	Message string
}

func (f Finding) String() string { return f.Pos + ": " + f.Check + ": " + f.Message }

// Location splits f.Pos into the module path (unescaped: the module cache
// writes "github.com/!i!b!m/sarama" for github.com/IBM/sarama), its version,
// the file relative to the module root, and the line. ok is false for a
// position outside the module cache.
func (f Finding) Location() (module, version, file string, line int, ok bool) {
	file, line, _ = splitPos(f.Pos)
	at := strings.Index(file, "@")
	if at < 0 {
		return "", "", "", 0, false
	}
	module, rest := file[:at], file[at+1:]
	version, file, ok = strings.Cut(rest, "/")
	if !ok {
		return "", "", "", 0, false
	}
	var b strings.Builder
	for i := 0; i < len(module); i++ {
		if module[i] == '!' && i+1 < len(module) {
			i++
			b.WriteString(strings.ToUpper(module[i : i+1]))
			continue
		}
		b.WriteByte(module[i])
	}
	return b.String(), version, file, line, true
}

// Run runs the idemlint binary over the corpus packages in the prepared
// module dir with -json and returns its findings, sorted. Any analyzer or
// package error fails the run.
func Run(idemlint, dir, goCmd string, mods []Module) ([]Finding, error) {
	modcache, err := ModCache(dir, goCmd)
	if err != nil {
		return nil, err
	}
	var patterns []string
	for _, m := range mods {
		patterns = append(patterns, m.ImportPatterns()...)
	}
	return RunPatterns(idemlint, dir, patterns, func(posn string) string { return relPos(posn, modcache) }, nil)
}

// RunPatterns runs the idemlint binary with -json, without tests, over the
// package patterns in the module directory dir (GOFLAGS=-mod=mod, GOWORK=off,
// then env, whose settings win) and returns its findings, their positions
// rewritten by rel, sorted. Any analyzer or package error, or anything written
// to stderr, fails the run.
func RunPatterns(idemlint, dir string, patterns []string, rel func(posn string) string, env []string) ([]Finding, error) {
	args := append([]string{"-json", "-test=false"}, patterns...)
	cmd := exec.Command(idemlint, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off"), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 3) {
		// -json exits 3 with findings, 0 without; anything else is a failure.
		return nil, fmt.Errorf("idemlint: %v\n%s", err, stderr.String())
	}
	if s := strings.TrimSpace(stderr.String()); s != "" {
		return nil, fmt.Errorf("idemlint wrote to stderr:\n%s", s)
	}
	return parseJSON(stdout.Bytes(), rel)
}

// parseJSON reads multichecker -json output: a stream of objects
// {pkgpath: {analyzer: [diagnostic...] | {"error": msg}}}.
func parseJSON(data []byte, rel func(posn string) string) ([]Finding, error) {
	var out []Finding
	var errs []string
	dec := json.NewDecoder(bytes.NewReader(data))
	for dec.More() {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err != nil {
			return nil, fmt.Errorf("decoding idemlint -json: %v", err)
		}
		for pkg, byAnalyzer := range tree {
			for analyzer, raw := range byAnalyzer {
				var diags []struct {
					Posn    string `json:"posn"`
					Message string `json:"message"`
				}
				if err := json.Unmarshal(raw, &diags); err != nil {
					var e struct {
						Err string `json:"error"`
					}
					if json.Unmarshal(raw, &e) == nil && e.Err != "" {
						errs = append(errs, fmt.Sprintf("%s: %s: %s", pkg, analyzer, e.Err))
						continue
					}
					return nil, fmt.Errorf("%s: %s: unexpected JSON %s", pkg, analyzer, raw)
				}
				for _, d := range diags {
					out = append(out, Finding{Pos: rel(d.Posn), Check: analyzer, Message: d.Message})
				}
			}
		}
	}
	if len(errs) > 0 {
		slices.Sort(errs)
		return nil, fmt.Errorf("analyzer errors:\n%s", strings.Join(errs, "\n"))
	}
	SortFindings(out)
	return slices.Compact(out), nil
}

func relPos(posn, modcache string) string {
	p := filepath.ToSlash(posn)
	mc := filepath.ToSlash(modcache) + "/"
	return strings.TrimPrefix(p, mc)
}

// SortFindings sorts by file, then line and column numerically, then check
// and message.
func SortFindings(fs []Finding) {
	slices.SortFunc(fs, func(a, b Finding) int {
		af, al, ac := splitPos(a.Pos)
		bf, bl, bc := splitPos(b.Pos)
		if c := strings.Compare(af, bf); c != 0 {
			return c
		}
		if al != bl {
			return al - bl
		}
		if ac != bc {
			return ac - bc
		}
		if c := strings.Compare(a.Check, b.Check); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})
}

func splitPos(pos string) (file string, line, col int) {
	file = pos
	if i := strings.LastIndex(file, ":"); i >= 0 {
		fmt.Sscan(file[i+1:], &col)
		file = file[:i]
	}
	if i := strings.LastIndex(file, ":"); i >= 0 {
		fmt.Sscan(file[i+1:], &line)
		file = file[:i]
	}
	return file, line, col
}

// FormatRaw formats findings one a line, as testdata/corpus/raw.txt holds
// them.
func FormatRaw(fs []Finding) []byte {
	var b bytes.Buffer
	for _, f := range fs {
		b.WriteString(f.String())
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// Reviewed is one entry of findings.txt: a finding and its human verdict.
type Reviewed struct {
	Finding string // as Finding.String()
	True    bool
	Reason  string
	Line    int
}

// ParseReviewed reads findings.txt: each finding on its own line, followed
// by a line "\ttrue: reason" or "\tfalse: reason". Lines starting with "#"
// and blank lines are comments.
func ParseReviewed(data []byte) ([]Reviewed, error) {
	var out []Reviewed
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	n := 0
	pending := -1
	for sc.Scan() {
		n++
		line := sc.Text()
		switch {
		case strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "\t"):
			if pending < 0 {
				return nil, fmt.Errorf("line %d: a verdict with no finding above it", n)
			}
			verdict, reason, _ := strings.Cut(strings.TrimSpace(line), ":")
			reason = strings.TrimSpace(reason)
			switch verdict {
			case "true", "false":
			default:
				return nil, fmt.Errorf("line %d: verdict %q is neither true nor false", n, verdict)
			}
			if reason == "" {
				return nil, fmt.Errorf("line %d: verdict with no reason", n)
			}
			out[pending].True = verdict == "true"
			out[pending].Reason = reason
			pending = -1
		default:
			if pending >= 0 {
				return nil, fmt.Errorf("line %d: finding on line %d has no verdict", n, out[pending].Line)
			}
			out = append(out, Reviewed{Finding: line, Line: n})
			pending = len(out) - 1
		}
	}
	if pending >= 0 {
		return nil, fmt.Errorf("line %d: finding on line %d has no verdict", n, out[pending].Line)
	}
	return out, sc.Err()
}

// CheckOf returns the check name of a formatted finding.
func CheckOf(finding string) string {
	// module@version/file.go:line:col: check: message
	rest := finding
	for range 3 {
		i := strings.Index(rest, ":")
		if i < 0 {
			return ""
		}
		rest = rest[i+1:]
	}
	check, _, _ := strings.Cut(strings.TrimSpace(rest), ":")
	return check
}

// Precision returns one line per check: true findings, all findings and
// their ratio.
func Precision(rs []Reviewed) []string {
	type count struct{ t, n int }
	byCheck := map[string]*count{}
	var checks []string
	for _, r := range rs {
		c := CheckOf(r.Finding)
		if byCheck[c] == nil {
			byCheck[c] = &count{}
			checks = append(checks, c)
		}
		byCheck[c].n++
		if r.True {
			byCheck[c].t++
		}
	}
	slices.Sort(checks)
	var out []string
	for _, c := range checks {
		k := byCheck[c]
		out = append(out, fmt.Sprintf("%-16s %3d true / %3d = %5.1f%%", c, k.t, k.n, 100*float64(k.t)/float64(k.n)))
	}
	return out
}

// ReadFile returns the file name of the corpus directory dir, failing tb
// when it cannot be read: the tests of the corpora read their lists with it.
func ReadFile(tb testing.TB, dir, name string) []byte {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}
