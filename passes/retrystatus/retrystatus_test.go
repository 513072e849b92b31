package retrystatus_test

import (
	"testing"

	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/retrystatus"
)

func TestRetryStatus(t *testing.T) {
	testgopath.Check(t, retrystatus.Analyzer, "loops", "libraries", "operations", "grpccodes", "iterators", "github.com/idemlint/idemlint/runtime/retry")
}
