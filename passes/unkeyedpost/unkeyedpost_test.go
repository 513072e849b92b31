package unkeyedpost_test

import (
	"regexp"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/unkeyedpost"
)

func TestUnkeyedPost(t *testing.T) {
	testgopath.Check(t, unkeyedpost.Analyzer, "loops", "lookalikes", "libraries", "clients", "clientfields", "jobs", "helpers", "sdk", "gitlab", "layersoff", "github.com/Azure/azure-sdk-for-go/sdk/azcore/pipelinetest")
}

func TestFixes(t *testing.T) {
	if fixes := testgopath.Fixes(t, unkeyedpost.Analyzer, "fixes", "fixalias", "fixstd"); fixes != 8 {
		t.Errorf("got %d suggested fixes, want 8 (loop, library, built before, client, two requests in one loop, alias, std-only imports)", fixes)
	}
}

func TestConfig(t *testing.T) {
	dir := testgopath.Dir(t, analysistest.TestData())
	// Without -key-headers, X-Dedup-Key is not a key: the one request of
	// the package has none.
	diags := testgopath.Run(t, dir, unkeyedpost.Analyzer, "config")
	if len(diags) != 1 || diags[0].Posn.Line != 17 || !regexp.MustCompile(`^POST .*has no idempotency key`).MatchString(diags[0].Message) {
		t.Errorf("without the configuration: %+v, want one finding at config.go:17, POST ... has no idempotency key", diags)
	}
	a := unkeyedpost.New(&unkeyedpost.Config{})
	if err := a.Flags.Set("key-headers", "X-Dedup-Key"); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, dir, a, "config")
}
