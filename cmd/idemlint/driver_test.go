package main_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %v: %v", bin, args, err)
	}
	return outcome{stdout.String(), stderr.String(), code}
}

// TestStreamMatchesMultichecker runs the streaming driver and the
// multichecker (IDEMLINT_DRIVER=multichecker) with the same arguments and
// requires the same stdout, stderr and exit code, byte for byte: over the
// demo module with the output flags, analyzer selections (with and
// without the fact-producing check) and -test off; over a module whose
// dependency does not compile; over a module whose findings need facts
// from a dependency. Two differences are the command's own: its -json
// exits 3 with findings, and it does not follow type errors with a line
// per check.
func TestStreamMatchesMultichecker(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the command")
	}
	bin, demo := binary(t), demoDir(t)
	broken := writeFiles(t, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.26\n",
		"a/a.go": "package a\n\nfunc F() int { return \"x\" }\n\nfunc G() {}\n",
		"b/b.go": "package b\n\nimport \"example.com/m/a\"\n\nfunc H() { a.G() }\n",
	})
	facts := writeFiles(t, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.26\n",
		"a/a.go": "package a\n\nimport \"time\"\n\nfunc send() error { return nil }\n\n" +
			"func Sync() error {\n\tvar err error\n\tfor i := 0; i < 4; i++ {\n\t\tif err = send(); err == nil {\n\t\t\treturn nil\n\t\t}\n\t\ttime.Sleep(time.Second)\n\t}\n\treturn err\n}\n",
		"b/b.go": "package b\n\nimport (\n\t\"time\"\n\n\t\"example.com/m/a\"\n)\n\n" +
			"func Pay() error {\n\tvar err error\n\tfor i := 0; i < 3; i++ {\n\t\tif err = a.Sync(); err == nil {\n\t\t\treturn nil\n\t\t}\n\t\ttime.Sleep(time.Second)\n\t}\n\treturn err\n}\n",
	})
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
		{facts, []string{"./b"}, 0},
		{facts, []string{"-json", "./..."}, 3},
	} {
		stream := runDriver(t, bin, c.dir, "stream", c.args...)
		multi := runDriver(t, bin, c.dir, "multichecker", c.args...)
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
		if c.dir == facts && !strings.Contains(stream.stdout+stream.stderr, "call to example.com/m/a.Sync reaches retry loop (4 attempts)") {
			t.Errorf("%v: no nestedretry finding through a's fact:\n%s%s", c.args, stream.stdout, stream.stderr)
		}
	}
}

var illTypedLine = regexp.MustCompile(`(?m)^\w+: (analysis skipped due to errors in package|failed prerequisites: .*)\n`)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
