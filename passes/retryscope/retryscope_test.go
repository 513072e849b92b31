package retryscope_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// describe reports every scope the model finds, as one line, so the tests
// can assert the whole description with // want comments.
var describe = &analysis.Analyzer{
	Name:       "describe",
	Doc:        "describe: report every retry scope with its cap, deadline and waits",
	Requires:   []*analysis.Analyzer{retryscope.Analyzer},
	ResultType: reflect.TypeFor[int](),
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[retryscope.Analyzer].(*retryscope.Result)
		for _, s := range res.Scopes() {
			pass.Reportf(s.Pos, "%s", Describe(s))
		}
		for _, s := range res.WrapperCalls() {
			pass.Reportf(s.Pos, "wrapper %s", Describe(s))
		}
		for _, c := range res.GRPCConns() {
			if c.Own != nil {
				capText := c.Own.Kind.String()
				if c.Own.Kind == retryscope.CapKnown {
					capText = fmt.Sprint(c.Own.N)
				}
				pass.Reportf(c.Dial.Lparen, "own unary interceptor cap=%s", capText)
			}
		}
		return len(res.Scopes()), nil
	},
}

// Describe renders a scope as "kind cap=... deadline=... waits=...".
func Describe(s *retryscope.Scope) string {
	capText := s.Cap.Kind.String()
	if s.Cap.Kind == retryscope.CapKnown {
		capText = fmt.Sprint(s.Cap.N)
	}
	var waits []string
	for _, w := range s.Waits {
		waits = append(waits, w.Kind.String())
	}
	kind := strings.ReplaceAll(s.Kind.String(), " ", "-")
	body := "nobody"
	if s.Body != nil {
		body = "body"
	}
	if s.Deadline.Unbounded != nil {
		body += " unbounded-by-caller"
	}
	return fmt.Sprintf("%s cap=%s deadline=%s waits=%s %s", kind, capText, strings.ReplaceAll(s.Deadline.Kind.String(), " ", "-"), strings.ReplaceAll(strings.Join(waits, ","), " ", "-"), body)
}

func TestRetryScope(t *testing.T) {
	testgopath.Check(t, describe, "loops", "lookalikes", "libraries", "jobs", "jobsoff", "prefilter", "predicate", "helpers", "notfor", "delays", "shapes", "grpcconns", "consumers", "defaults", "repeats", "hooks", "methodvalue", "override", "steps", "iterators", "consumerhelpers", "policies", "workers", "waitsums", "waituse")
}

func TestExtraRetryFuncs(t *testing.T) {
	dir := testgopath.Dir(t, analysistest.TestData())
	rs := retryscope.New(&retryscope.Config{RetryFuncs: []string{"extra.Retry", "(*extra.Client).Retry"}})
	d := *describe
	d.Requires = []*analysis.Analyzer{rs}
	d.Run = func(pass *analysis.Pass) (any, error) {
		for _, s := range pass.ResultOf[rs].(*retryscope.Result).Scopes() {
			pass.Reportf(s.Pos, "%s", Describe(s))
		}
		return 0, nil
	}
	analysistest.Run(t, dir, &d, "extra")
}
