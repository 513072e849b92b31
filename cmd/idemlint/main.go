// Command idemlint runs the idemlint checks: bounded, jittered, one-layer
// retries and idempotency keys that survive them.
//
// Standalone:
//
//	idemlint ./...
//	idemlint -json ./...
//	idemlint -fix ./...
//	idemlint -nojitter=false ./...
//
// As a vet tool:
//
//	go vet -vettool=$(which idemlint) ./...
//
// Suite-level flags: -retry-funcs, -key-generators, -key-headers,
// -key-fields (comma-separated lists) and -strict-context.
package main

import (
	"flag"
	"fmt"
	"os"

	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/idemlint/idemlint/analyzers"
)

func main() {
	var cfg analyzers.Config
	if err := cfg.ParseArgs(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "idemlint: %v\n", err)
		os.Exit(2)
	}
	cfg.Bind(flag.CommandLine)
	multichecker.Main(analyzers.New(&cfg)...)
}
