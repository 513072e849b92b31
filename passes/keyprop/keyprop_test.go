package keyprop_test

import (
	"testing"

	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/keyprop"
)

func TestHandlers(t *testing.T) {
	testgopath.Check(t, keyprop.Analyzer, "handlers", "matrix/...", "jsdirect")
}
