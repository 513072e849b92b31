package modelfuzz

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/passes/retryscope"
)

// TestSeedsTypeCheck holds the generator to valid Go: a seed that does not
// type-check would test nothing.
func TestSeedsTypeCheck(t *testing.T) {
	for _, s := range seeds() {
		if _, err := typeCheck(Generate(s)); err != nil {
			t.Errorf("seed %v does not type-check: %v\n%s", s, err, Generate(s))
		}
	}
}

// scopes runs the retry model alone over src and returns its scopes.
func scopes(t *testing.T, src string) []*retryscope.Scope {
	t.Helper()
	c, err := typeCheck(src)
	if err != nil {
		t.Fatalf("does not type-check: %v\n%s", err, src)
	}
	var got []*retryscope.Scope
	probe := &analysis.Analyzer{
		Name:     "probe",
		Doc:      "probe: the model's scopes",
		Requires: []*analysis.Analyzer{retryscope.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			got = pass.ResultOf[retryscope.Analyzer].(*retryscope.Result).Scopes()
			return nil, nil
		},
	}
	run(t, c, []*analysis.Analyzer{probe})
	return got
}

// TestOptionThroughFuncValue is the crash of issue 18:
// backoff.NewExponentialBackOff(opt(0.5)) where opt is a func variable
// returning a cenkalti v4 option panicked in the model. The option's effect
// is unknown, so the scope's wait is unknown.
func TestOptionThroughFuncValue(t *testing.T) {
	src := strings.Replace(prelude, "%BODY%", "return backoff.Retry(t.Do, backoff.NewExponentialBackOff(opt(0.5)))", 1)
	got := scopes(t, src)
	var lib []*retryscope.Scope
	for _, s := range got {
		if s.Kind == retryscope.LibraryCall {
			lib = append(lib, s)
		}
	}
	if len(lib) != 1 {
		t.Fatalf("got %d library scopes, want 1", len(lib))
	}
	for _, w := range lib[0].Waits {
		if w.Kind != retryscope.WaitUnknown {
			t.Errorf("wait %v, want unknown: the option is made by a func value", w.Kind)
		}
	}
	if lib[0].Deadline.Kind != retryscope.DeadlineUnknown {
		t.Errorf("deadline %v, want unknown", lib[0].Deadline.Kind)
	}
}

// TestWholeSuiteOnSeeds runs every check over every seed (the fuzzer's
// seeds run too, but this names the failing shape).
func TestWholeSuiteOnSeeds(t *testing.T) {
	as, _ := suite()
	for _, s := range seeds() {
		c, err := typeCheck(Generate(s))
		if err != nil {
			t.Fatal(err)
		}
		run(t, c, as)
	}
}
