package unboundedretry_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/unboundedretry"
)

func TestUnboundedRetry(t *testing.T) {
	dir := testgopath.Dir(t, analysistest.TestData())
	analysistest.Run(t, dir, unboundedretry.Analyzer, "unbounded", "jobs", "predicate", "grpcloops", "defaults", "steps")
}

func TestStrictContext(t *testing.T) {
	dir := testgopath.Dir(t, analysistest.TestData())
	a := unboundedretry.New(&unboundedretry.Config{StrictContext: true})
	analysistest.Run(t, dir, a, "strict")
}
