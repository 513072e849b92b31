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
// IDEMLINT_DRIVER=multichecker, except the vet-tool runs for a
// dependency's facts that the prefilters rule out (driver.VetFactsOnly).
package main

import (
	"cmp"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
		// go vet keys its cache with -V=full, which it runs in its own
		// working directory: the configuration files there are part of
		// the key.
		var inputs [][]byte
		for _, p := range analyzers.Paths(".") {
			data, _ := os.ReadFile(p)
			inputs = append(inputs, []byte(p), data)
		}
		if err := driver.PrintVersion(os.Stdout, "idemlint", v == "full", inputs...); err != nil {
			fmt.Fprintf(os.Stderr, "idemlint: %v\n", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	// The configuration files: the suite settings from those at or above
	// the working directory (go vet runs a vet tool in the package's
	// directory), then the flags, which win. go vet's handshake (-flags)
	// reads none.
	files := analyzers.NewFiles()
	var suiteFiles []*analyzers.File
	if !slices.Contains(args, "-flags") {
		var err error
		if suiteFiles, err = files.Chain("."); err != nil {
			fmt.Fprintf(os.Stderr, "idemlint: %v\n", err)
			os.Exit(1)
		}
	}
	var cfg analyzers.Config
	analyzers.ApplySuite(&cfg, suiteFiles)
	if err := cfg.ParseArgs(args); err != nil {
		fmt.Fprintf(os.Stderr, "idemlint: %v\n", err)
		os.Exit(2)
	}
	suite := analyzers.New(&cfg)
	keep := keepFunc(files, explicitChecks(args))
	// The streaming driver runs standalone analyses; fixes, the vet-tool
	// protocol, -flags and help go to the multichecker.
	sel := func(dirs []string) (func(check, file string) bool, error) {
		for _, dir := range dirs {
			chain, err := files.Chain(dir)
			if err == nil {
				err = analyzers.CheckSuite(chain, suiteFiles)
			}
			if err != nil {
				return nil, err
			}
		}
		return keep, nil
	}
	if code, ok := driver.Run(args, suite, cfg.Bind, sel); ok {
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
	vetTool := len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
	// A package go vet needs only for its facts: skipped when the fact
	// analyzers' prefilters rule facts out.
	if vetTool {
		driver.TuneGC()
		if code, ok := driver.VetFactsOnly(args[len(args)-1], suite); ok {
			os.Exit(code)
		}
		// Analysed for its facts only: the checks that export none report
		// nothing that go vet would print, so they do not run (unitchecker
		// would run every check, since each requires the model, which has
		// facts). They stay in the suite, so that their flags still parse.
		if driver.IsVetxOnly(args[len(args)-1]) {
			driver.FactsOnly(suite)
		}
	}
	wrap(suite, !asJSON || vetTool, keep)
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

// wrap makes each check of the suite report only the findings keep keeps,
// and with name end their messages with its name, "message (nojitter)",
// as the standalone driver prints them. The multichecker and the vet tool
// print findings themselves; only their text output (and go vet's JSON)
// is named, so that the -json output of the command and golangci-lint see
// the messages as the checks wrote them.
func wrap(suite []*analysis.Analyzer, name bool, keep func(check, file string) bool) {
	for _, a := range suite {
		run, check := a.Run, a.Name
		a.Run = func(pass *analysis.Pass) (any, error) {
			wrapped := *pass
			var diags []analysis.Diagnostic
			wrapped.Report = func(d analysis.Diagnostic) {
				if !keep(check, pass.Fset.Position(d.Pos).Filename) {
					return
				}
				if name {
					d.Message = driver.WithCheck(d.Message, check)
				}
				diags = append(diags, d)
			}
			res, err := run(&wrapped)
			// The multichecker and unitchecker print a check's findings
			// in the order it reports them: report them sorted by file
			// and position.
			slices.SortStableFunc(diags, func(x, y analysis.Diagnostic) int {
				px, py := pass.Fset.Position(x.Pos), pass.Fset.Position(y.Pos)
				return cmp.Or(strings.Compare(px.Filename, py.Filename), cmp.Compare(px.Line, py.Line), cmp.Compare(px.Column, py.Column))
			})
			for _, d := range diags {
				pass.Report(d)
			}
			return res, err
		}
	}
}

// keepFunc keeps the findings of a check that a -<check> flag names (the
// flags win), and otherwise those that the configuration files above the
// file enable.
func keepFunc(files *analyzers.Files, explicit map[string]bool) func(check, file string) bool {
	return func(check, file string) bool {
		if explicit[check] || file == "" {
			return true
		}
		chain, err := files.Chain(filepath.Dir(file))
		return err != nil || analyzers.Enabled(chain, check, file)
	}
}

// explicitChecks are the checks that args name with a -<check> flag.
func explicitChecks(args []string) map[string]bool {
	checks := analyzers.Checks()
	explicit := make(map[string]bool)
	for _, a := range args {
		if a == "--" {
			break
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && slices.Contains(checks, name) {
			explicit[name] = true
		}
	}
	return explicit
}
