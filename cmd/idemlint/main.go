// Command idemlint runs the idemlint checks: bounded, jittered, one-layer
// retries and idempotency keys that survive them.
//
// Standalone:
//
//	idemlint ./...
//	idemlint -format sarif ./... > idemlint.sarif
//	idemlint -fix ./...
//	idemlint -nojitter=false ./...
//	idemlint version
//
// As a vet tool:
//
//	go vet -vettool=$(which idemlint) ./...
//
// Suite-level flags: -retry-funcs, -key-generators, -key-headers,
// -key-fields (comma-separated lists) and -strict-context. Output:
// -format text|json|sarif|github (-json is -format json). Exit status: 0
// clean, 3 findings, 1 errors, 2 a bad command line.
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
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/internal/driver"
)

func main() {
	args := os.Args[1:]
	if v, ok := versionRequest(args); ok {
		if err := driver.PrintVersion(os.Stdout, "idemlint", v == "full"); err != nil {
			fmt.Fprintf(os.Stderr, "idemlint: %v\n", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	var cfg analyzers.Config
	if err := cfg.ParseArgs(args); err != nil {
		fmt.Fprintf(os.Stderr, "idemlint: %v\n", err)
		os.Exit(2)
	}
	suite := analyzers.New(&cfg)
	// The streaming driver runs standalone analyses; fixes, the vet-tool
	// protocol, -flags and help go to the multichecker.
	if code, ok := driver.Run(args, suite, cfg.Bind); ok {
		os.Exit(code)
	}
	args, asJSON, err := multicheckerArgs(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "idemlint: %v\n", err)
		os.Exit(2)
	}
	// go vet (since Go 1.26) asks a vet tool for JSON also when it prints
	// text, which it formats itself from the messages: under the vet-tool
	// protocol the messages carry the check's name in both.
	if vetTool := len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg"); !asJSON || vetTool {
		nameFindings(suite)
	}
	os.Args = append(os.Args[:1], args...)
	cfg.Bind(flag.CommandLine)
	multichecker.Main(suite...)
}

// versionRequest reports whether args ask for the version: "version",
// -V, or -V=full (which go vet passes to a vet tool); v is "full" for the
// last.
func versionRequest(args []string) (v string, ok bool) {
	if len(args) == 1 && args[0] == "version" {
		return "", true
	}
	for _, a := range args {
		if a == "--" || !strings.HasPrefix(a, "-") {
			break
		}
		name, value, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name == "V" {
			return value, true
		}
	}
	return "", false
}

// multicheckerArgs rewrites the streaming driver's -format flag for the
// multichecker, which has only text and -json: -format text is dropped,
// -format json becomes -json; sarif and github are an error. asJSON
// reports whether the output is JSON.
func multicheckerArgs(args []string) (out []string, asJSON bool, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || a == "--" {
			out = append(out, a)
			continue
		}
		switch name {
		case "json":
			if b, err := strconv.ParseBool(value); !hasValue || err == nil && b {
				asJSON = true
			}
		case "format":
			if !hasValue && i+1 < len(args) {
				i++
				value = args[i]
			}
			switch value {
			case "text":
			case "json":
				asJSON = true
				out = append(out, "-json")
			case "sarif", "github":
				return nil, false, fmt.Errorf("-format %s is written by the standalone driver only, not with -fix, -diff, go vet or %s=multichecker", value, driver.Env)
			default:
				return nil, false, fmt.Errorf("-format: unknown format %q (want text, json, sarif or github)", value)
			}
			continue
		}
		out = append(out, a)
	}
	return out, asJSON, nil
}

// nameFindings makes each check of the suite end its findings' messages
// with its name, "message (nojitter)", as the standalone driver prints
// them. The multichecker and the vet tool print findings themselves; only
// their text output (and go vet's JSON) goes through this, so that the
// -json output of the command and golangci-lint see the messages as the
// checks wrote them.
func nameFindings(suite []*analysis.Analyzer) {
	for _, a := range suite {
		run, name := a.Run, a.Name
		a.Run = func(pass *analysis.Pass) (any, error) {
			named := *pass
			named.Report = func(d analysis.Diagnostic) {
				d.Message = driver.WithCheck(d.Message, name)
				pass.Report(d)
			}
			return run(&named)
		}
	}
}
