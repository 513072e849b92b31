package retrystatus_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/retrystatus"
)

func TestRetryStatus(t *testing.T) {
	dir := testgopath.Dir(t, analysistest.TestData())
	analysistest.Run(t, dir, retrystatus.Analyzer, "loops", "libraries", "operations", "grpccodes", "iterators", "github.com/idemlint/idemlint/runtime/retry")
}
