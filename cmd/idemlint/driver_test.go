package main_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/idemlint/idemlint/internal/testgopath"
)

// outcome is what one run of the command printed and returned.
type outcome struct {
	stdout, stderr string
	code           int
}

func runDriver(t *testing.T, bin, dir, driver string, args ...string) outcome {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "IDEMLINT_DRIVER="+driver)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	code := exitCode(t, cmd)
	return outcome{stdout.String(), stderr.String(), code}
}

// sorted returns o with its findings in the command's order (by file,
// line, column, check and message; errors first), as the multichecker does
// not sort across packages, nor by message at one position.
func (o outcome) sorted(t *testing.T) outcome {
	t.Helper()
	if strings.HasPrefix(o.stdout, "{") {
		o.stdout = sortedJSON(t, o.stdout)
	}
	o.stderr = sortedText(o.stderr)
	return o
}

var findingLine = regexp.MustCompile(`^(.+):(\d+):(\d+): (\t)?(.*?)(?: \((\w+)\))?$`)

// sortedText sorts the findings of text output, each with the lines under
// it (related information, -c's source lines); the lines before the first
// finding (errors) stay first, in their order.
func sortedText(s string) string {
	type group struct {
		file       string
		line, col  int
		check, msg string
		lines      []string
	}
	var other []string
	var groups []*group
	for _, l := range strings.SplitAfter(s, "\n") {
		if l == "" {
			continue
		}
		m := findingLine.FindStringSubmatch(strings.TrimSuffix(l, "\n"))
		switch {
		case m != nil && m[4] == "" && m[6] != "":
			line, _ := strconv.Atoi(m[2])
			col, _ := strconv.Atoi(m[3])
			groups = append(groups, &group{m[1], line, col, m[6], m[5], []string{l}})
		case len(groups) > 0: // a related line, or -c's source lines
			g := groups[len(groups)-1]
			g.lines = append(g.lines, l)
		default:
			other = append(other, l)
		}
	}
	slices.SortStableFunc(groups, func(a, b *group) int {
		return cmp.Or(strings.Compare(a.file, b.file), cmp.Compare(a.line, b.line), cmp.Compare(a.col, b.col),
			strings.Compare(a.check, b.check), strings.Compare(a.msg, b.msg))
	})
	for _, g := range groups {
		other = append(other, g.lines...)
	}
	return strings.Join(other, "")
}

// sortedJSON sorts each check's findings of -json output by position and
// message, and prints it again as the command does.
func sortedJSON(t *testing.T, s string) string {
	t.Helper()
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &tree); err != nil {
		t.Fatalf("-json output: %v\n%s", err, s)
	}
	type finding struct {
		Posn, Message string
	}
	for _, checks := range tree {
		for name, raw := range checks {
			var list []json.RawMessage
			if json.Unmarshal(raw, &list) != nil {
				continue // an error
			}
			key := func(r json.RawMessage) (string, int, int, string) {
				var f finding
				json.Unmarshal(r, &f)
				m := regexp.MustCompile(`^(.+):(\d+):(\d+)$`).FindStringSubmatch(f.Posn)
				if m == nil {
					return f.Posn, 0, 0, f.Message
				}
				line, _ := strconv.Atoi(m[2])
				col, _ := strconv.Atoi(m[3])
				return m[1], line, col, f.Message
			}
			slices.SortStableFunc(list, func(a, b json.RawMessage) int {
				af, al, ac, am := key(a)
				bf, bl, bc, bm := key(b)
				return cmp.Or(strings.Compare(af, bf), cmp.Compare(al, bl), cmp.Compare(ac, bc), strings.Compare(am, bm))
			})
			data, err := json.Marshal(list)
			if err != nil {
				t.Fatal(err)
			}
			checks[name] = data
		}
	}
	data, err := json.MarshalIndent(tree, "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	return string(data) + "\n"
}

// TestStreamMatchesMultichecker runs the streaming driver and the
// multichecker (IDEMLINT_DRIVER=multichecker) with the same arguments and
// requires the same stdout, stderr and exit code, byte for byte once the
// multichecker's findings are sorted as the command sorts them: over the
// demo module with the output flags, analyzer selections (with and
// without the fact-producing check) and -test off; over a module whose
// dependency does not compile; over a module whose findings need facts
// from a dependency (testdata/crosspkg). Two differences are the
// command's own: its -json exits 3 with findings, and it does not follow
// type errors with a line per check.
func TestStreamMatchesMultichecker(t *testing.T) {
	bin, demo := endToEnd(t)
	broken := testgopath.WriteTree(t, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.26\n",
		"a/a.go": "package a\n\nfunc F() int { return \"x\" }\n\nfunc G() {}\n",
		"b/b.go": "package b\n\nimport \"example.com/m/a\"\n\nfunc H() { a.G() }\n",
	})
	facts := crossPkg(t)
	// The multichecker's -json exits 0 with findings; the command's exits 3
	// in every format (streamExit, when it differs).
	for _, c := range []struct {
		dir        string
		args       []string
		streamExit int
	}{
		{demo, []string{"./..."}, 0},
		{demo, []string{"-json", "./..."}, 3},
		{demo, []string{"-c", "1", "./..."}, 0},
		{demo, []string{"-test=false", "./..."}, 0},
		{demo, []string{"-nojitter=false", "./..."}, 0},
		{demo, []string{"-nestedretry=false", "./..."}, 0},
		{demo, []string{"-unboundedretry", "-strict-context", "./payments"}, 0},
		{broken, []string{"./..."}, 0},
		{broken, []string{"-json", "./..."}, 0},
		{facts, []string{"./pay"}, 0},
		{facts, []string{"-json", "./..."}, 3},
	} {
		stream := runDriver(t, bin, c.dir, "stream", c.args...)
		multi := runDriver(t, bin, c.dir, "multichecker", c.args...).sorted(t)
		if c.streamExit != 0 && stream.code == c.streamExit {
			stream.code = multi.code
		}
		// The multichecker adds a line per check under a package that does
		// not type-check; the command prints the type errors alone.
		multi.stderr = illTypedLine.ReplaceAllString(multi.stderr, "")
		if stream != multi {
			t.Errorf("%s %v: the drivers differ\nstream (exit %d):\n%s%s\nmultichecker (exit %d):\n%s%s",
				filepath.Base(c.dir), c.args, stream.code, stream.stdout, stream.stderr, multi.code, multi.stdout, multi.stderr)
		}
		if c.dir == facts && !strings.Contains(stream.stdout+stream.stderr, "lib.Sync reaches retry loop (4 attempts)") {
			t.Errorf("%v: no nestedretry finding through lib's fact:\n%s%s", c.args, stream.stdout, stream.stderr)
		}
	}
}

var illTypedLine = regexp.MustCompile(`(?m)^\w+: (analysis skipped due to errors in package|failed prerequisites: .*)\n`)
