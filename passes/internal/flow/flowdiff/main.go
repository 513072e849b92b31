// Command flowdiff is the differential of issue 46 stage 2 on real code:
// for each package it is run on, it compares the retry model's loop scopes
// with the flow engine's loops and call-graph cycles that the policies
// keep (package modeldiff, as the ModelLoops test does over retryscope's
// test packages) and prints each difference, then the totals:
//
//	pkg/file.go:12: fn: model only (cap=none notfor=false): every attempt rejected: [...]
//	pkg/file.go:40: fn: engine only: natural range [...]
//
// A developer's tool (it lives under passes/internal, which only code
// under passes may import), not part of the product:
//
//	go run ./passes/internal/flow/flowdiff ./...
//
// With -verdicts NAME it prints, for each loop and cycle of the functions
// named NAME (an SSA name: F, (*T).M, F$1), its attempts, how each is
// decided and the policy that rejected it (what a new policy is written
// against).
//
// It runs through the streaming driver (internal/driver), with its
// dependency cache, and exits 1 on errors, 0 otherwise.
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/internal/driver"
	"github.com/idemlint/idemlint/passes/internal/flow"
	"github.com/idemlint/idemlint/passes/internal/flow/modeldiff"
	"github.com/idemlint/idemlint/passes/internal/flow/policy"
	"github.com/idemlint/idemlint/passes/retryscope"
)

var (
	mu       sync.Mutex
	total    = &modeldiff.Report{}
	verdicts string
	lines    []string
)

var analyzer = &analysis.Analyzer{
	Name:     "flowdiff",
	Doc:      "flowdiff: the retry model's loop scopes against the flow engine's kept loops",
	Requires: []*analysis.Analyzer{retryscope.Analyzer, flow.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[retryscope.Analyzer].(*retryscope.Result)
		h := pass.ResultOf[flow.Analyzer].(*flow.Handle)
		p := h.Get()
		if p == nil {
			if len(pass.TypeErrors) == 0 {
				return nil, h.Err()
			}
			return nil, nil // the model sees no package with type errors either
		}
		r := modeldiff.Compare(p, pass.Pkg, res)
		mu.Lock()
		defer mu.Unlock()
		total.Add(r)
		if verdicts != "" {
			pc := policy.NewContext(p, res.Knowledge())
			for _, fn := range p.Funcs {
				if fn.Name() != verdicts && fn.RelString(nil) != verdicts {
					continue
				}
				for _, l := range append(slices.Clone(p.Loops(fn).Loops), p.Cycles(fn)...) {
					v := pc.Judge(l)
					at := "?"
					if l.Syntax != nil {
						at = pass.Fset.Position(l.Syntax.Pos()).String()
					}
					for _, a := range v.All {
						why := v.Rejected[a]
						if why == "" {
							why = "kept"
						}
						line := fmt.Sprintf("%s: %s %s: %s %s: %s", at, fn.Name(), l.Kind, modeldiff.CallName(a.Call), a.Test, why)
						if a.If != nil {
							// where it is decided: the branch's line, its blocks
							line += fmt.Sprintf(" (branch at line %d: again %d→%d, leave %d→%d)", pass.Fset.Position(a.If.Cond.Pos()).Line,
								a.Again.From.Index, a.Again.To.Index, a.Leave.From.Index, a.Leave.To.Index)
						}
						lines = append(lines, line)
					}
				}
			}
		}
		return nil, nil
	},
}

func main() {
	code, ok := driver.Run(os.Args[1:], []*analysis.Analyzer{analyzer}, func(fs *flag.FlagSet) {
		fs.StringVar(&verdicts, "verdicts", "", "print the attempts and verdicts of the loops of the functions of this name")
	}, nil)
	if !ok {
		fmt.Fprintln(os.Stderr, "usage: flowdiff [driver flags] packages...")
		os.Exit(2)
	}
	slices.Sort(lines)
	for _, l := range lines {
		fmt.Println(l)
	}
	for _, d := range total.Unmapped {
		fmt.Println(d.String())
	}
	for _, d := range total.Diffs {
		fmt.Println(d.String())
	}
	fmt.Println(total.Totals())
	if code == 1 {
		os.Exit(1)
	}
}
