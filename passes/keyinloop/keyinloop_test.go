package keyinloop_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/keyinloop"
)

func TestKeyInLoop(t *testing.T) {
	dir := testgopath.Dir(t, analysistest.TestData())
	analysistest.Run(t, dir, keyinloop.Analyzer, "loops", "lookalikes", "libraries", "sdks")
}
