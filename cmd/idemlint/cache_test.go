package main_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/idemlint/idemlint/internal/driver"
)

var cacheLine = regexp.MustCompile(`dependency cache .*: (\d+) hits, (\d+) misses, (\d+) written`)

// TestCommandUsesCache runs the command twice over the drivers' fixture
// module with a dependency cache of its own: the first run writes an entry
// for each dependency it analyses for facts, the second reads them all
// and writes none, and both print the same findings. (The driver's own
// test calls its analysis with the cache directly; this one goes through
// the command line, where -debug f decides whether facts are logged.)
func TestCommandUsesCache(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the command")
	}
	bin := binary(t)
	dir := crossPkg(t)
	cacheDir := t.TempDir()
	runOnce := func() (out string, hits, misses, written string) {
		t.Helper()
		cmd := exec.Command(bin, "-debug", "v", "./job")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), driver.CacheEnv+"="+cacheDir, "GOFLAGS=")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if code := exitCode(t, cmd); code != 3 {
			t.Fatalf("exit %d, want 3 (findings)\n%s\n%s", code, stdout.String(), stderr.String())
		}
		m := cacheLine.FindStringSubmatch(stderr.String())
		if m == nil {
			t.Fatalf("-debug v prints no cache line:\n%s", stderr.String())
		}
		return stdout.String(), m[1], m[2], m[3]
	}
	first, hits, misses, written := runOnce()
	if hits != "0" || misses == "0" || written != misses {
		t.Errorf("first run: %s hits, %s misses, %s written; want no hit and every miss written", hits, misses, written)
	}
	entries, err := filepath.Glob(filepath.Join(cacheDir, "deps", "*"))
	if err != nil || len(entries) < 2 {
		t.Errorf("cache directory holds %v (%v); want the entries and trim.txt", entries, err)
	}
	second, hits2, misses2, written2 := runOnce()
	if hits2 != misses || misses2 != "0" || written2 != "0" {
		t.Errorf("second run: %s hits, %s misses, %s written; want the first run's %s entries read and nothing written", hits2, misses2, written2, misses)
	}
	if second != first {
		t.Errorf("the cached run prints otherwise:\nfirst:\n%s\nsecond:\n%s", first, second)
	}
}
