// Command benchfloor is the floor that `make bench` measures idemlint
// against: the same multichecker driver running one analyzer that does
// nothing, so it costs what loading and type-checking cost.
package main

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/multichecker"
)

var noop = &analysis.Analyzer{
	Name: "noop",
	Doc:  "noop: do nothing, to measure the driver's load and type-check floor",
	Run:  func(*analysis.Pass) (any, error) { return nil, nil },
}

func main() { multichecker.Main(noop) }
