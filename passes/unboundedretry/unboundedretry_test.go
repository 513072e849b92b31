package unboundedretry_test

import (
	"testing"

	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/unboundedretry"
)

func TestUnboundedRetry(t *testing.T) {
	testgopath.Check(t, unboundedretry.Analyzer, "unbounded", "jobs", "predicate", "grpcloops", "defaults", "steps", "workers")
}

func TestStrictContext(t *testing.T) {
	a := unboundedretry.New(&unboundedretry.Config{StrictContext: true})
	testgopath.Check(t, a, "strict")
}
