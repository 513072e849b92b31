package jobretry_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/jobretry"
)

func TestAsynq(t *testing.T) {
	dir := testgopath.Dir(t, analysistest.TestData())
	analysistest.Run(t, dir, jobretry.Analyzer, "asynqjobs", "asynqoff", "pgxjobs")
}

func TestRiver(t *testing.T) {
	dir := testgopath.Dir(t, analysistest.TestData())
	analysistest.Run(t, dir, jobretry.Analyzer, "riverjobs", "riveroff")
}

func TestTemporal(t *testing.T) {
	dir := testgopath.Dir(t, analysistest.TestData())
	analysistest.Run(t, dir, jobretry.Analyzer, "temporaljobs", "temporaloff")
}

func TestConsumers(t *testing.T) {
	dir := testgopath.Dir(t, analysistest.TestData())
	analysistest.Run(t, dir, jobretry.Analyzer, "consumerjobs", "helperjobs")
}
