package keyprop_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/keyprop"
)

func TestHandlers(t *testing.T) {
	dir := testgopath.Dir(t, analysistest.TestData())
	analysistest.Run(t, dir, keyprop.Analyzer, "handlers", "matrix/...", "jsdirect")
}
