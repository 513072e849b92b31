package keyinloop_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/keyinloop"
)

func TestKeyInLoop(t *testing.T) {
	testgopath.Check(t, keyinloop.Analyzer, "loops", "lookalikes", "libraries", "sdks", "jobs", "helpers", "grpckeys", "builders")
}

func TestFixes(t *testing.T) {
	if fixes := testgopath.Fixes(t, keyinloop.Analyzer, "fixes"); fixes != 3 {
		t.Errorf("got %d suggested fixes, want 3 (loop, labelled loop, library call)", fixes)
	}
}

func TestConfig(t *testing.T) {
	dir := testgopath.Dir(t, analysistest.TestData())
	// Without the configuration nothing in the package is a key.
	for _, d := range testgopath.Run(t, dir, keyinloop.Analyzer, "config") {
		t.Errorf("%s: %s, want no finding without the configuration", d.Posn, d.Message)
	}
	a := keyinloop.New(&keyinloop.Config{})
	for flag, value := range map[string]string{
		"key-generators": "config.mintID, (*config.Gen).Next",
		"key-headers":    "X-Dedup-Key",
		"key-fields":     "DedupToken",
	} {
		if err := a.Flags.Set(flag, value); err != nil {
			t.Fatal(err)
		}
	}
	analysistest.Run(t, dir, a, "config")
}

// TestRelated checks each finding points at where the key reaches the
// request: the header write of googleUUID, two lines below its key.
func TestRelated(t *testing.T) {
	dir := testgopath.Dir(t, analysistest.TestData())
	diags := testgopath.Run(t, dir, keyinloop.Analyzer, "loops")
	found := false
	for _, d := range diags {
		if len(d.Related) != 1 || !strings.HasPrefix(d.Related[0].Message, "the key reaches ") || d.Related[0].Posn.Filename != d.Posn.Filename {
			t.Errorf("%s: related %+v, want one location in the same file, \"the key reaches ...\"", d.Posn, d.Related)
			continue
		}
		if r := d.Related[0]; d.Posn.Line == 33 && strings.HasSuffix(d.Posn.Filename, "loops.go") {
			found = true
			if r.Posn.Line != 34 || r.Message != "the key reaches the Idempotency-Key header here" {
				t.Errorf("googleUUID: related %s %q, want line 34, the Idempotency-Key header", r.Posn, r.Message)
			}
		}
	}
	if !found {
		t.Error("no finding at loops.go:33 (googleUUID)")
	}
}
