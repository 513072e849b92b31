package nestedretry

import (
	"go/ast"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/internal/prefilter"
	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// TestClientCallsSound checks retryscope.ClientCalls, the prefilter's
// stand-ins for clientLayer, over every check's test packages and the
// library stubs: each call clientLayer takes for a client that retries by
// itself (or a gax.Invoke that retries) is accepted by one of them, by its
// name and number of arguments, in a package that depends on the client.
func TestClientCallsSound(t *testing.T) {
	var mu sync.Mutex // the checker runs actions in parallel
	kinds := make(map[string]int)
	testgopath.ProbeTrees(t, retryscope.Analyzer, func(pass *analysis.Pass, res *retryscope.Result) {
		c := newChecker(pass, res)
		pp := prefilter.FromPass(pass.Pkg, pass.Fset, pass.Files)
		preds := append(retryscope.ClientCalls(pp, true), retryscope.ClientCalls(pp, false)...)
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				l := c.clientLayer(call)
				if l == nil {
					return true
				}
				mu.Lock()
				kinds[l.lib]++
				mu.Unlock()
				name := prefilter.CallName(call)
				for _, p := range preds {
					if p(name, len(call.Args)) {
						return true
					}
				}
				t.Errorf("%s: no client call of the prefilter accepts %s (%s)", pass.Fset.Position(call.Pos()), name, l.desc)
				return true
			})
		}
	})
	t.Logf("client layers checked, by library: %v", kinds)
	for _, lib := range []string{"github.com/hashicorp/go-retryablehttp", "github.com/stripe/stripe-go/v85", "github.com/aws/aws-sdk-go-v2",
		"k8s.io/client-go/rest", "github.com/googleapis/gax-go/v2", "github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry", "google.golang.org/grpc"} {
		if kinds[lib] == 0 {
			t.Errorf("vacuous: no client layer of %s in the test packages", lib)
		}
	}
}
