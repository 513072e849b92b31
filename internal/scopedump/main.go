// Command scopedump prints the retry model's scopes of the packages it is
// run on, one line a scope: a developer's tool for reading what the model
// sees in real code (go run ./internal/scopedump ./...), not part of the
// product.
package main

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/idemlint/idemlint/passes/retryscope"
)

var analyzer = &analysis.Analyzer{
	Name:     "scopedump",
	Doc:      "print the retry model's scopes",
	Requires: []*analysis.Analyzer{retryscope.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[retryscope.Analyzer].(*retryscope.Result)
		for _, s := range res.Scopes() {
			var ws []string
			for _, w := range s.Waits {
				ws = append(ws, fmt.Sprintf("%s@%d", w.Kind, pass.Fset.Position(w.Pos).Line))
			}
			extra := ""
			if s.Helper != nil {
				extra += " helper=" + s.Helper.Name()
			}
			if s.NotFor {
				extra += " notfor"
			}
			if s.Entry != "" {
				extra += " entry=" + s.Entry
			}
			pass.Reportf(s.Pos, "scope %s cap=%s deadline=%s trigger=%d waits=[%s]%s",
				s.Kind, s.Cap, s.Deadline.Kind, s.Trigger, strings.Join(ws, " "), extra)
		}
		return nil, nil
	},
}

func main() { singlechecker.Main(analyzer) }
