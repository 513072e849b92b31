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
//
// Standalone runs go through a streaming driver (internal/driver) that
// holds a few packages in memory at a time; -fix, -diff and the vet-tool
// protocol go through go/analysis/multichecker, as every run does with
// IDEMLINT_DRIVER=multichecker.
package main

import (
	"flag"
	"fmt"
	"os"

	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/internal/driver"
)

func main() {
	var cfg analyzers.Config
	if err := cfg.ParseArgs(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "idemlint: %v\n", err)
		os.Exit(2)
	}
	suite := analyzers.New(&cfg)
	// The streaming driver runs standalone analyses; fixes, the vet-tool
	// protocol, -flags, -V and help go to the multichecker.
	if code, ok := driver.Run(os.Args[1:], suite, cfg.Bind); ok {
		os.Exit(code)
	}
	cfg.Bind(flag.CommandLine)
	multichecker.Main(suite...)
}
