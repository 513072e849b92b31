package retryscope_test

import (
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/packages"

	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// TestTableOps checks the table's operation arguments against the model:
// every library call scope of the libraries test package has its
// operation where its Library's Ops says (first when absent).
func TestTableOps(t *testing.T) {
	var mu sync.Mutex
	checked := make(map[string]int)
	pkgs := testgopath.Load(t, testgopath.Dir(t, analysistest.TestData()), packages.LoadAllSyntax, "libraries")
	testgopath.Probe(t, retryscope.Analyzer, pkgs, func(pass *analysis.Pass, res *retryscope.Result) {
		for _, s := range res.Scopes() {
			l := retryscope.LibraryOf(s.Library)
			if s.Kind != retryscope.LibraryCall || s.Helper != nil || l == nil {
				continue
			}
			name := s.Entry[strings.LastIndex(s.Entry, ".")+1:]
			if want := l.Ops[name]; s.OpArg != want {
				t.Errorf("%s: %s: operation argument %d, the table says %d", pass.Fset.Position(s.Pos), s.Entry, s.OpArg, want)
			}
			mu.Lock()
			checked[s.Library]++
			mu.Unlock()
		}
	})
	for _, lib := range []string{"github.com/cenkalti/backoff/v5", "github.com/sethvargo/go-retry", "k8s.io/client-go/util/retry",
		"github.com/eapache/go-resiliency/retrier", "github.com/avast/retry-go"} {
		if checked[lib] == 0 {
			t.Errorf("vacuous: no library call of %s in the test package", lib)
		}
	}
}
