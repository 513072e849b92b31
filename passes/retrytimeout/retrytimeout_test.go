package retrytimeout_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/retrytimeout"
)

func TestRetryTimeout(t *testing.T) {
	dir := testgopath.Dir(t, analysistest.TestData())
	analysistest.Run(t, dir, retrytimeout.Analyzer, "timeouts", "defaultset", "retryable", "jobs", "grpctimeouts", "grpcpertry")
}
