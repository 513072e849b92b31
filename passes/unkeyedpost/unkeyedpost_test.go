package unkeyedpost_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/unkeyedpost"
)

func TestUnkeyedPost(t *testing.T) {
	dir := testgopath.Dir(t, analysistest.TestData())
	analysistest.Run(t, dir, unkeyedpost.Analyzer, "loops", "lookalikes", "libraries", "clients")
}
