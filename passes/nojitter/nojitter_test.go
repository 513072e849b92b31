package nojitter_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/nojitter"
)

func TestNoJitter(t *testing.T) {
	dir := testgopath.Dir(t, analysistest.TestData())
	analysistest.Run(t, dir, nojitter.Analyzer, "jitter", "libraries", "jobs", "predicate", "delays", "notfor", "grpcbackoff", "defaults", "hooks", "methodvalue", "override")
}

func TestJitterFix(t *testing.T) {
	dir := testgopath.Dir(t, analysistest.TestData())
	analysistest.RunWithSuggestedFixes(t, dir, nojitter.Analyzer, "fix", "fixalias")
}
