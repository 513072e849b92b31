package keyinloop_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/keyinloop"
)

func TestKeyInLoop(t *testing.T) {
	dir := testgopath.Dir(t, analysistest.TestData())
	analysistest.Run(t, dir, keyinloop.Analyzer, "loops", "lookalikes", "libraries", "sdks", "jobs", "helpers", "grpckeys")
}

func TestFixes(t *testing.T) {
	dir := testgopath.Dir(t, analysistest.TestData())
	results := analysistest.RunWithSuggestedFixes(t, dir, keyinloop.Analyzer, "fixes")
	fixes := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			fixes += len(d.SuggestedFixes)
		}
	}
	if fixes != 3 {
		t.Errorf("got %d suggested fixes, want 3 (loop, labelled loop, library call)", fixes)
	}
}

func TestConfig(t *testing.T) {
	dir := testgopath.Dir(t, analysistest.TestData())
	// Without the configuration nothing in the package is a key.
	analysistest.Run(t, dir, keyinloop.Analyzer, "configdefault")
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
