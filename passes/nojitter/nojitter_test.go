package nojitter_test

import (
	"testing"

	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/nojitter"
)

func TestNoJitter(t *testing.T) {
	testgopath.Check(t, nojitter.Analyzer, "jitter", "libraries", "jobs", "predicate", "delays", "notfor", "grpcbackoff", "defaults", "hooks", "methodvalue", "override", "workers", "layersoff")
}

func TestJitterFix(t *testing.T) {
	testgopath.Fixes(t, nojitter.Analyzer, "fix", "fixalias")
}
