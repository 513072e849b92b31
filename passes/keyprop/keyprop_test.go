package keyprop_test

import (
	"testing"

	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/keyprop"
)

func TestHandlers(t *testing.T) {
	testgopath.Check(t, keyprop.Analyzer, "handlers", "matrix/...", "jsdirect")
}

// TestDerived runs the check over handlers that derive their downstream
// keys from the incoming one by hand, and over a fresh and a constant key.
func TestDerived(t *testing.T) {
	testgopath.Check(t, keyprop.Analyzer, "derived")
}
